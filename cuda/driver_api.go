package cuda

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Typed wrappers over the driver API. A CUDA context is current per OS
// thread, and goroutines move between threads, so every call that needs
// one runs inside Context.do: the goroutine is locked to its thread and the
// device's primary context made current first.

// Device attributes (CUdevice_attribute) this package reads.
const (
	attrMaxThreadsPerBlock     = 1
	attrMaxSharedPerBlock      = 8
	attrWarpSize               = 10
	attrMultiprocessorCount    = 16
	attrComputeCapabilityMajor = 75
	attrComputeCapabilityMinor = 76
	attrMemoryPoolsSupported   = 115
)

// JIT options (CUjit_option) for cuModuleLoadDataEx.
const (
	jitInfoLogBuffer       = 3
	jitInfoLogBufferBytes  = 4
	jitErrorLogBuffer      = 5
	jitErrorLogBufferBytes = 6
	jitLogVerbose          = 12
)

const (
	streamNonBlocking    = 0x1 // CU_STREAM_NON_BLOCKING
	eventDefault         = 0x0 // CU_EVENT_DEFAULT: timing enabled
	eventDisableTiming   = 0x2 // CU_EVENT_DISABLE_TIMING
	memHostAllocPortable = 0x1 // CU_MEMHOSTALLOC_PORTABLE
	// CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: bytes the default pool keeps
	// instead of returning them to the system at each synchronisation.
	memPoolAttrReleaseThreshold = 4
	// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
	funcAttrMaxDynamicShared = 8
)

// driverVersion is the CUDA version the driver supports (e.g. 13000).
func driverVersion() (int, error) {
	d, err := load()
	if err != nil {
		return 0, err
	}
	var v int32
	if err := check("cuDriverGetVersion", d.cuDriverGetVersion(&v)); err != nil {
		return 0, err
	}
	return int(v), nil
}

// initDriver calls cuInit once and counts the devices.
var initDriver = sync.OnceValues(func() (int, error) {
	d, err := load()
	if err != nil {
		return 0, err
	}
	if err := check("cuInit", d.cuInit(0)); err != nil {
		return 0, fmt.Errorf("no CUDA driver: %w", err)
	}
	var n int32
	if err := check("cuDeviceGetCount", d.cuDeviceGetCount(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
})

// A Context is a device's primary context, retained for the life of the
// process.
type Context struct {
	ordinal int
	dev     int32
	ctx     uintptr
}

// retainContext retains the primary context of device ordinal.
func retainContext(ordinal int) (*Context, error) {
	d, err := load()
	if err != nil {
		return nil, err
	}
	c := &Context{ordinal: ordinal}
	if err := check("cuDeviceGet", d.cuDeviceGet(&c.dev, int32(ordinal))); err != nil {
		return nil, err
	}
	if err := check("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain(&c.ctx, c.dev)); err != nil {
		return nil, err
	}
	return c, nil
}

// release gives the primary context back (tests that made their own).
func (c *Context) release() error {
	return check("cuDevicePrimaryCtxRelease", drv.cuDevicePrimaryCtxRelease(c.dev))
}

// do runs fn with the context current on the calling goroutine's thread.
func (c *Context) do(fn func(d *driverAPI) error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := check("cuCtxSetCurrent", drv.cuCtxSetCurrent(c.ctx)); err != nil {
		return err
	}
	return fn(drv)
}

// name is the device's marketing name ("NVIDIA H100 80GB HBM3").
func (c *Context) name() (string, error) {
	var buf [256]byte
	if err := check("cuDeviceGetName", drv.cuDeviceGetName(&buf[0], int32(len(buf)), c.dev)); err != nil {
		return "", err
	}
	return goString(&buf[0]), nil
}

// attribute reads one CUdevice_attribute.
func (c *Context) attribute(attr int32) (int, error) {
	var v int32
	if err := check("cuDeviceGetAttribute", drv.cuDeviceGetAttribute(&v, attr, c.dev)); err != nil {
		return 0, err
	}
	return int(v), nil
}

// totalMem is the device's memory in bytes.
func (c *Context) totalMem() (uint64, error) {
	var n uint64
	err := check("cuDeviceTotalMem", drv.cuDeviceTotalMem(&n, c.dev))
	return n, err
}

// A Stream is a CUstream of a context.
type Stream struct {
	ctx *Context
	s   uintptr
}

func (c *Context) newStream() (*Stream, error) {
	st := &Stream{ctx: c}
	err := c.do(func(d *driverAPI) error {
		return check("cuStreamCreate", d.cuStreamCreate(&st.s, streamNonBlocking))
	})
	return st, err
}

// Synchronize waits for everything queued on the stream.
func (s *Stream) Synchronize() error {
	return s.ctx.do(func(d *driverAPI) error { return check("cuStreamSynchronize", d.cuStreamSynchronize(s.s)) })
}

func (s *Stream) destroy() error {
	return s.ctx.do(func(d *driverAPI) error { return check("cuStreamDestroy", d.cuStreamDestroy(s.s)) })
}

// Wait makes later work on s wait for ev (recorded on any stream).
func (s *Stream) Wait(ev *Event) error {
	return s.ctx.do(func(d *driverAPI) error { return check("cuStreamWaitEvent", d.cuStreamWaitEvent(s.s, ev.ev, 0)) })
}

// An Event marks a point in a stream.
type Event struct {
	ctx *Context
	ev  uintptr
}

// newEvent makes an event; timing events can measure elapsed time.
func (c *Context) newEvent(timing bool) (*Event, error) {
	ev := &Event{ctx: c}
	flags := uint32(eventDisableTiming)
	if timing {
		flags = eventDefault
	}
	err := c.do(func(d *driverAPI) error { return check("cuEventCreate", d.cuEventCreate(&ev.ev, flags)) })
	return ev, err
}

// Record marks the event at the current end of s.
func (e *Event) Record(s *Stream) error {
	return e.ctx.do(func(d *driverAPI) error { return check("cuEventRecord", d.cuEventRecord(e.ev, s.s)) })
}

// Synchronize waits until the work before the event's record is done.
func (e *Event) Synchronize() error {
	return e.ctx.do(func(d *driverAPI) error { return check("cuEventSynchronize", d.cuEventSynchronize(e.ev)) })
}

// Done reports whether the event's work is done, without waiting.
func (e *Event) Done() (bool, error) {
	var r int32
	err := e.ctx.do(func(d *driverAPI) error { r = d.cuEventQuery(e.ev); return nil })
	if err != nil {
		return false, err
	}
	if Result(r) == errorNotReady {
		return false, nil
	}
	return r == 0, check("cuEventQuery", r)
}

// Elapsed is the time in milliseconds between two recorded timing events.
func (e *Event) Elapsed(end *Event) (float32, error) {
	var ms float32
	err := e.ctx.do(func(d *driverAPI) error {
		return check("cuEventElapsedTime", d.cuEventElapsedTime(&ms, e.ev, end.ev))
	})
	return ms, err
}

func (e *Event) destroy() error {
	return e.ctx.do(func(d *driverAPI) error { return check("cuEventDestroy", d.cuEventDestroy(e.ev)) })
}

// memAlloc allocates n bytes of device memory, stream-ordered on s when
// the driver has memory pools (the memory is usable by work queued on s
// after this call), else synchronously.
func (c *Context) memAlloc(n int, s *Stream, async bool) (uint64, error) {
	if n == 0 {
		n = 1 // a zero-size allocation is an error; keep addresses distinct
	}
	var p uint64
	err := c.do(func(d *driverAPI) error {
		if async && s != nil && d.cuMemAllocAsync != nil {
			return check("cuMemAllocAsync", d.cuMemAllocAsync(&p, uint64(n), s.s))
		}
		return check("cuMemAlloc", d.cuMemAlloc(&p, uint64(n)))
	})
	return p, err
}

// memFree frees device memory: stream-ordered on s when it was allocated
// that way, else at once.
func (c *Context) memFree(p uint64, s *Stream, async bool) error {
	return c.do(func(d *driverAPI) error {
		if async && s != nil && d.cuMemFreeAsync != nil {
			return check("cuMemFreeAsync", d.cuMemFreeAsync(p, s.s))
		}
		return check("cuMemFree", d.cuMemFree(p))
	})
}

// PinnedBuffer is page-locked host memory, which the device reads and
// writes directly (asynchronous copies need it).
type PinnedBuffer struct {
	ctx *Context
	p   unsafe.Pointer
	n   int
}

func (c *Context) hostAlloc(n int) (*PinnedBuffer, error) {
	b := &PinnedBuffer{ctx: c, n: n}
	err := c.do(func(d *driverAPI) error {
		return check("cuMemHostAlloc", d.cuMemHostAlloc(&b.p, uint64(max(n, 1)), memHostAllocPortable))
	})
	return b, err
}

// Bytes is the pinned memory as a Go slice; valid until Free.
func (b *PinnedBuffer) Bytes() []byte {
	if b.n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(b.p), b.n)
}

// Free gives the pinned memory back.
func (b *PinnedBuffer) Free() error {
	return b.ctx.do(func(d *driverAPI) error { return check("cuMemFreeHost", d.cuMemFreeHost(b.p)) })
}

// Copies. The host side is a Go slice or pinned memory; a copy from Go
// (pageable) memory returns once the driver has staged the bytes, and a
// copy to Go memory is waited for here, so the slice is free again when
// these return.

func (s *Stream) copyHtoD(dst uint64, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	err := s.ctx.do(func(d *driverAPI) error {
		return check("cuMemcpyHtoDAsync", d.cuMemcpyHtoDAsync(dst, unsafe.Pointer(&src[0]), uint64(len(src)), s.s))
	})
	runtime.KeepAlive(src)
	return err
}

// copyDtoH copies into a Go slice and waits for the copy.
func (s *Stream) copyDtoH(dst []byte, src uint64) error {
	if len(dst) == 0 {
		return nil
	}
	err := s.ctx.do(func(d *driverAPI) error {
		if err := check("cuMemcpyDtoHAsync", d.cuMemcpyDtoHAsync(unsafe.Pointer(&dst[0]), src, uint64(len(dst)), s.s)); err != nil {
			return err
		}
		return check("cuStreamSynchronize", d.cuStreamSynchronize(s.s))
	})
	runtime.KeepAlive(dst)
	return err
}

// copyDtoHPinned queues a copy into pinned memory without waiting.
func (s *Stream) copyDtoHPinned(dst *PinnedBuffer, off int, src uint64, n int) error {
	if n == 0 {
		return nil
	}
	return s.ctx.do(func(d *driverAPI) error {
		return check("cuMemcpyDtoHAsync", d.cuMemcpyDtoHAsync(unsafe.Add(dst.p, off), src, uint64(n), s.s))
	})
}

// copyHtoDPinned queues a copy from pinned memory without waiting.
func (s *Stream) copyHtoDPinned(dst uint64, src *PinnedBuffer, off, n int) error {
	if n == 0 {
		return nil
	}
	return s.ctx.do(func(d *driverAPI) error {
		return check("cuMemcpyHtoDAsync", d.cuMemcpyHtoDAsync(dst, unsafe.Add(src.p, off), uint64(n), s.s))
	})
}

func (s *Stream) copyDtoD(dst, src uint64, n int) error {
	if n == 0 {
		return nil
	}
	return s.ctx.do(func(d *driverAPI) error {
		return check("cuMemcpyDtoDAsync", d.cuMemcpyDtoDAsync(dst, src, uint64(n), s.s))
	})
}

func (s *Stream) memset(dst uint64, v byte, n int) error {
	if n == 0 {
		return nil
	}
	return s.ctx.do(func(d *driverAPI) error {
		return check("cuMemsetD8Async", d.cuMemsetD8Async(dst, v, uint64(n), s.s))
	})
}

// A Module is loaded PTX.
type Module struct {
	ctx *Context
	mod uintptr
}

// loadModule JIT-compiles PTX for the context's device. A failure carries
// the JIT's error log.
func (c *Context) loadModule(ptx string) (*Module, error) {
	image := append([]byte(ptx), 0)
	errLog := make([]byte, 16<<10)
	infoLog := make([]byte, 4<<10)
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferBytes, jitInfoLogBuffer, jitInfoLogBufferBytes}
	// Sizes travel in the pointer-sized value slots, as the API defines.
	vals := []uintptr{
		uintptr(unsafe.Pointer(&errLog[0])), uintptr(len(errLog)),
		uintptr(unsafe.Pointer(&infoLog[0])), uintptr(len(infoLog)),
	}
	m := &Module{ctx: c}
	var pin runtime.Pinner
	pin.Pin(&errLog[0])
	pin.Pin(&infoLog[0])
	defer pin.Unpin()
	err := c.do(func(d *driverAPI) error {
		return check("cuModuleLoadDataEx", d.cuModuleLoadDataEx(&m.mod, &image[0], uint32(len(opts)), &opts[0], &vals[0]))
	})
	if err != nil {
		if log := goString(&errLog[0]); log != "" {
			return nil, fmt.Errorf("%w\nPTX JIT log:\n%s", err, log)
		}
		return nil, err
	}
	return m, nil
}

// function looks up a kernel by name.
func (m *Module) function(name string) (uintptr, error) {
	cname := append([]byte(name), 0)
	var f uintptr
	err := m.ctx.do(func(d *driverAPI) error {
		return check("cuModuleGetFunction("+name+")", d.cuModuleGetFunction(&f, m.mod, &cname[0]))
	})
	return f, err
}

func (m *Module) unload() error {
	return m.ctx.do(func(d *driverAPI) error { return check("cuModuleUnload", d.cuModuleUnload(m.mod)) })
}

// A launch is one kernel launch's geometry.
type launch struct {
	grid, block [3]uint32
	shared      uint32
}

// launchKernel queues fn on s with params, each a kernel parameter's value
// (8 bytes: device addresses and 64-bit integers; smaller parameters are
// read from the low bytes, which is where a little-endian machine has
// them).
func (s *Stream) launchKernel(fn uintptr, l launch, params []uint64) error {
	// cuLaunchKernel reads an array of pointers to the values; both live
	// in Go memory, pinned for the call.
	vals := make([]uint64, len(params))
	copy(vals, params)
	ptrs := make([]uintptr, len(params)+1)
	var pin runtime.Pinner
	if len(vals) > 0 {
		pin.Pin(&vals[0])
	}
	for i := range vals {
		ptrs[i] = uintptr(unsafe.Pointer(&vals[i]))
	}
	defer pin.Unpin()
	err := s.ctx.do(func(d *driverAPI) error {
		return check("cuLaunchKernel", d.cuLaunchKernel(fn, l.grid[0], l.grid[1], l.grid[2],
			l.block[0], l.block[1], l.block[2], l.shared, s.s, &ptrs[0], nil))
	})
	runtime.KeepAlive(vals)
	return err
}

// Host functions queued on a stream (cuLaunchHostFunc). The driver calls
// one C function pointer, made once, with a key into hostFuncs.
var (
	hostFuncsMu  sync.Mutex
	hostFuncs    = map[uintptr]func(){}
	hostFuncKey  atomic.Uintptr
	hostFuncOnce sync.Once
	hostFuncPtr  uintptr
)

// runHostFunc is the callback the driver calls, on a thread of its own;
// it must not call the driver API (the driver forbids it there).
func runHostFunc(key uintptr) {
	hostFuncsMu.Lock()
	fn := hostFuncs[key]
	delete(hostFuncs, key)
	hostFuncsMu.Unlock()
	if fn != nil {
		fn()
	}
}

// launchHostFunc queues fn on s: it runs when the work before it is done,
// and the work after it waits until it returns.
func (s *Stream) launchHostFunc(fn func()) error {
	hostFuncOnce.Do(func() { hostFuncPtr = purego.NewCallback(runHostFunc) })
	key := hostFuncKey.Add(1)
	hostFuncsMu.Lock()
	hostFuncs[key] = fn
	hostFuncsMu.Unlock()
	err := s.ctx.do(func(d *driverAPI) error {
		return check("cuLaunchHostFunc", d.cuLaunchHostFunc(s.s, hostFuncPtr, key))
	})
	if err != nil {
		hostFuncsMu.Lock()
		delete(hostFuncs, key)
		hostFuncsMu.Unlock()
	}
	return err
}

// goString reads a NUL-terminated C string.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
