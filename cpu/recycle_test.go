package cpu

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// recycleN float32 elements make a result just over recycledMinBytes, of a
// size no other test's results have, so the pool's blocks of this size
// come from these tests alone.
const recycleN = recycledMinBytes/4 + 24

// waitFor runs collections until cond holds (finalizers run on their own
// goroutine after a collection), failing after two seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// pooled reports whether the block starting at addr waits in the pool.
func pooled(addr uintptr) bool {
	recycled.mu.Lock()
	defer recycled.mu.Unlock()
	for _, b := range recycled.blocks {
		if uintptr(unsafe.Pointer(unsafe.SliceData(b))) == addr {
			return true
		}
	}
	return false
}

// compileOne compiles y = prim(x) for x float32[recycleN], unfused, with
// kernel as prim's kernel. It lifts the pool's bound for the test: results
// of earlier tests not yet collected must not leave it no room.
func compileOne(t *testing.T, prim string, params trace.Params, kernel kernelFunc) jit.Executable {
	t.Helper()
	recycled.mu.Lock()
	old := recycled.maxBytes
	recycled.maxBytes = 1 << 40
	recycled.mu.Unlock()
	t.Cleanup(func() {
		recycled.mu.Lock()
		recycled.maxBytes = old
		recycled.mu.Unlock()
	})
	oldKernel := kernels[prim]
	kernels[prim] = kernel
	defer func() { kernels[prim] = oldKernel }()
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32, recycleN)
	p, err := jit.Compile(jb.build(jb.bind(prim, params, x)))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func executeOne(t *testing.T, exe jit.Executable, x *Buffer, host jit.Host) *Buffer {
	t.Helper()
	res, err := exe.Execute([]jit.Buffer{x}, host)
	if err != nil {
		t.Fatal(err)
	}
	return res[0].(*Buffer)
}

func recycleRamp(t *testing.T, scale float64) *Buffer {
	v := make([]float64, recycleN)
	for i := range v {
		v[i] = float64(i) * scale
	}
	return bufferOf(t, trace.Float32, []int{recycleN}, anys(v)...)
}

// A large result nobody holds comes back to the pool with its memory
// charge released; the next Execute of that size gets the same storage,
// and a kernel that needs a zeroed destination (one that adds into it,
// standing in for cumsum here) finds it zeroed although it held the last
// result's values.
func TestLargeResultStorageIsRecycled(t *testing.T) {
	addInto := func(e *trace.Eqn, in, out []*Buffer, _ stopSignal) error {
		dst, src := view[float32](out[0]), view[float32](in[0])
		for i, v := range src {
			dst[i] += v
		}
		return nil
	}
	exe := compileOne(t, "cumsum", trace.Params{"axis": 0, "reverse": false}, addInto)
	budget := jit.NewBudget(1<<30, "the test's limit")
	host := jit.WithLimits(jit.NoHost, nil, budget)
	first := executeOne(t, exe, recycleRamp(t, 1), host)
	if got := view[float32](first)[recycleN-1]; got != recycleN-1 {
		t.Fatalf("first call: last element %v, want %v", got, recycleN-1)
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(first.data)))
	if used := budget.Used(); used != recycleN*4 {
		t.Fatalf("a live result of %d bytes: %d bytes charged", recycleN*4, used)
	}
	first = nil
	waitFor(t, "the unreachable result's storage to reach the pool", func() bool { return pooled(addr) })
	if used := budget.Used(); used != 0 {
		t.Errorf("recycled result still charged: %d bytes", used)
	}

	second := executeOne(t, exe, recycleRamp(t, -2), host)
	if got := uintptr(unsafe.Pointer(unsafe.SliceData(second.data))); got != addr {
		t.Fatalf("second result at %#x, want the recycled storage at %#x", got, addr)
	}
	for i, v := range view[float32](second) {
		if want := float32(i) * -2; v != want {
			t.Fatalf("second call: element %d = %v, want %v (destination not cleared?)", i, v, want)
		}
	}
}

// Storage that a slice still refers to is not recycled when the Buffer
// that made it is gone: only when the slice is too.
func TestRecycledStorageWaitsForItsLastSlice(t *testing.T) {
	double := func(e *trace.Eqn, in, out []*Buffer, _ stopSignal) error {
		for i, v := range view[float32](in[0]) {
			view[float32](out[0])[i] = 2 * v
		}
		return nil
	}
	exe := compileOne(t, "cumsum", trace.Params{"axis": 0, "reverse": false}, double)
	res := executeOne(t, exe, recycleRamp(t, 1), jit.NoHost)
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(res.data)))
	tail := view[float32](res)[recycleN-4:]
	res = nil
	for range 5 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if pooled(addr) {
		t.Fatal("storage recycled while a slice of it is reachable")
	}
	if tail[3] != 2*(recycleN-1) {
		t.Fatalf("slice reads %v, want %v", tail[3], 2*(recycleN-1))
	}
	runtime.KeepAlive(tail)
	tail = nil
	waitFor(t, "the storage to reach the pool once its slice is gone", func() bool { return pooled(addr) })
}

// At most maxBytes of storage is handed out with a finalizer or
// waits in the pool; take returns the newest block of the size asked for
// and lets go of it; a pool over its bound pushes out the oldest blocks.
func TestRecyclePoolBound(t *testing.T) {
	const block = 1024 * 8
	p := blockPool{maxBytes: 4 * block}
	for i := range 4 {
		if !p.admit(block) {
			t.Fatalf("block %d of 4 refused", i)
		}
	}
	if p.admit(block) {
		t.Fatal("a fifth block admitted")
	}
	blocks := make([][]uint64, 4)
	for i := range blocks {
		blocks[i] = make([]uint64, 1024)
		p.give(blocks[i])
	}
	if p.outstanding != 0 || p.bytes != 4*block {
		t.Fatalf("all back: %d outstanding, %d pooled", p.outstanding, p.bytes)
	}
	if b := p.take(1024); &b[0] != &blocks[3][0] {
		t.Error("take did not return the newest block")
	}
	if p.blocks[:4][3] != nil {
		t.Error("the pool's array still refers to the block taken: it can never come back")
	}
	if b := p.take(512); b != nil {
		t.Error("take returned a block of another size")
	}
	// Three blocks wait; handing out two more pushes out the oldest.
	if !p.admit(block) || !p.admit(block) {
		t.Fatal("blocks waiting in the pool do not make room for new ones")
	}
	if p.bytes != 2*block || &p.blocks[0][0] != &blocks[1][0] {
		t.Errorf("after making room: %d bytes pooled, want the 2 newest blocks", p.bytes)
	}
	if !p.admit(block) || !p.admit(block) || p.admit(block) || p.outstanding != 4*block || p.bytes != 0 {
		t.Errorf("%d bytes outstanding and %d pooled, want the bound %d outstanding and no more", p.outstanding, p.bytes, 4*block)
	}
	// A pool over a bound made smaller gives back its oldest blocks.
	p.blocks, p.bytes, p.outstanding = nil, 0, 0
	for range 3 {
		p.outstanding += block
		p.give(make([]uint64, 1024))
	}
	p.maxBytes = 2 * block
	p.outstanding += block
	last := make([]uint64, 1024)
	p.give(last)
	if p.bytes != 2*block || &p.blocks[1][0] != &last[0] {
		t.Errorf("over the bound: %d bytes pooled, want the 2 newest blocks", p.bytes)
	}
}
