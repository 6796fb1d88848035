package cpu

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"
)

// Generated machine code lives in pages the backend maps itself: written
// while they are read-write, then made read-execute before the first call,
// and unmapped when the kernel that owns them becomes unreachable.
//
// The generated code runs on the calling goroutine's stack like an
// assembly function without a frame of its own, entered through
// callNative. It is not Go code, so the runtime never preempts it
// asynchronously (a preemption signal arriving meanwhile is simply
// retried at the next Go instruction) and never scans it; it reads and
// writes only memory its caller keeps alive for the call (arguments held
// in Go values until the call returns). Each call covers a bounded chunk
// (nativeChunk elements), so a long loop returns to Go often enough that
// the scheduler and the garbage collector are never held up.

// callNative runs the code at code with DI = args.
func callNative(code uintptr, args *uintptr)

// An execMemory is a mapping of generated code.
type execMemory struct{ mem []byte }

// newExecMemory maps code (and the constants after it) into fresh pages
// and makes them executable. The mapping is freed when the returned value
// is garbage.
func newExecMemory(code []byte) (*execMemory, error) {
	size := (len(code) + pageSize - 1) &^ (pageSize - 1)
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("cpu: mapping %d bytes for generated code: %w", size, err)
	}
	copy(mem, code)
	if err := syscall.Mprotect(mem, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		_ = syscall.Munmap(mem)
		return nil, fmt.Errorf("cpu: making generated code executable: %w", err)
	}
	m := &execMemory{mem: mem}
	runtime.AddCleanup(m, func(mem []byte) { _ = syscall.Munmap(mem) }, mem)
	return m, nil
}

var pageSize = syscall.Getpagesize()

// entry is the address of the code's first instruction.
func (m *execMemory) entry() uintptr { return uintptr(unsafe.Pointer(&m.mem[0])) }
