package cpu

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// givesUp runs a kernel and reports whether it gave up with errStopped.
func givesUp(t *testing.T, run func() error) bool {
	t.Helper()
	stopped := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				if r != errStopped {
					panic(r)
				}
				stopped = true
			}
		}()
		if err := run(); err != nil {
			t.Fatal(err)
		}
	}()
	return stopped
}

// Every kernel that can run for long checks its program's stop between
// chunks: given one already requested, it gives up instead of computing,
// and given none it computes as before.
func TestKernelsGiveUpWhenStopped(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	f32 := func(shape ...int) *Buffer { return randomBuffer(t, rng, trace.Float32, true, shape...) }
	dn := trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}, LhsBatch: []int{}, RhsBatch: []int{}}
	rows := make([]any, 4096)
	for i := range rows {
		rows[i] = i * 7 % 512
	}
	idx := bufferOf(t, trace.Int32, []int{4096, 1}, rows...)
	for _, c := range []struct {
		prim   string
		params trace.Params
		in     []*Buffer
	}{
		{"sin", nil, []*Buffer{f32(1 << 16)}},
		{"add", nil, []*Buffer{f32(64, 1024), f32(1, 1024)}}, // broadcast rows
		{"dot_general", trace.Params{"dimension_numbers": dn, "precision": nil, "preferred_element_type": nil}, []*Buffer{f32(256, 256), f32(256, 256)}},
		{"dot_general", trace.Params{"dimension_numbers": dn, "precision": nil, "preferred_element_type": nil}, []*Buffer{f32(1024, 256), f32(256, 1)}},
		{"dot_general", trace.Params{"dimension_numbers": dn, "precision": nil, "preferred_element_type": nil}, []*Buffer{f32(256, 1), f32(1, 512)}},
		{"reduce_sum", trace.Params{"axes": []int{1}}, []*Buffer{f32(256, 1024)}},
		{"reduce_max", trace.Params{"axes": []int{0}}, []*Buffer{f32(256, 1024)}},
		{"argmax", trace.Params{"axes": []int{1}, "index_dtype": trace.Int32}, []*Buffer{f32(256, 1024)}},
		{"cumsum", trace.Params{"axis": 1, "reverse": false}, []*Buffer{f32(256, 1024)}},
		{"sort", trace.Params{"dimension": 1, "is_stable": true, "num_keys": 1}, []*Buffer{f32(64, 4096)}},
		{"sort", trace.Params{"dimension": 0, "is_stable": true, "num_keys": 1}, []*Buffer{f32(1 << 16)}},
		{"fft", trace.Params{"fft_type": trace.FFTForward, "fft_lengths": []int{1024}}, []*Buffer{randomBuffer(t, rng, trace.Complex64, true, 64, 1024)}},
		{"gather", gatherParams(takeRows, []int{1, 512}, trace.GatherClip, nil), []*Buffer{f32(512, 512), idx}},
	} {
		jb := newJaxprBuilder(t)
		var atoms []trace.Atom
		for _, b := range c.in {
			atoms = append(atoms, jb.input(b.DType(), b.Shape()...))
		}
		jb.bindAll(c.prim, c.params, atoms...)
		e := jb.build().Eqns[0]
		outs := func() []*Buffer {
			var out []*Buffer
			for _, v := range e.Out {
				out = append(out, newBuffer(c.in[0].dev, v.Aval()))
			}
			return out
		}
		kernel := kernels[c.prim]
		stopped := make(chan struct{})
		close(stopped)
		if !givesUp(t, func() error { return kernel(e, c.in, outs(), stopped) }) {
			t.Errorf("%s%v: ran to its end with its stop requested", c.prim, c.in[0].Shape())
		}
		running := make(chan struct{})
		got := outs()
		if givesUp(t, func() error { return kernel(e, c.in, got, running) }) {
			t.Fatalf("%s: gave up with no stop requested", c.prim)
		}
		want := apply(t, c.prim, c.params, c.in...)
		for i := range want {
			if !sameBuffers(got[i], want[i]) {
				t.Errorf("%s with a stop that never came: %s", c.prim, firstDifference(got[i], want[i]))
			}
		}
	}
}

// A program cancelled in the middle of one long fused kernel stops within
// a chunk of it: Execute itself returns (the kernel no longer runs) with
// the cancellation's error, well before the kernel's end.
func TestCancelStopsALongKernel(t *testing.T) {
	const n, depth = 1 << 23, 500 // seconds of work on any machine
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32, n)
	v := trace.Atom(x)
	for range depth {
		v = jb.bind("sin", nil, v)
	}
	p := fusedProgramOf(jb.build(v.(*trace.Var)), jit.LoopKernel, trace.Shape{n})
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		t.Fatal(err)
	}
	if steps := len(exe.(*executable).steps); steps != 1 {
		t.Fatalf("the program has %d steps, want one kernel", steps)
	}
	arg := randomBuffer(t, rand.New(rand.NewPCG(15, 2)), trace.Float32, true, n)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelledAt time.Time
	time.AfterFunc(50*time.Millisecond, func() { cancelledAt = time.Now(); cancel() })
	start := time.Now()
	_, err = exe.Execute([]jit.Buffer{arg}, jit.WithLimits(jit.NoHost, ctx, nil))
	if err == nil {
		t.Fatalf("the kernel finished in %v, before its cancellation: make it longer", time.Since(start))
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Execute = %v, want the cancellation", err)
	}
	if late := time.Since(cancelledAt); late > promptness {
		t.Errorf("Execute returned %v after its cancellation, want under %v", late, promptness)
	}
}
