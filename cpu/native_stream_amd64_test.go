package cpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Kernels with streamed outputs give the same bits, also when an output
// is not aligned to a vector (its chunks then take the ordinary code).
func TestNativeStreamingStores(t *testing.T) {
	if !nativeEnabled() {
		t.Skip("no native code on this machine")
	}
	saved := nativeStreamingMin
	nativeStreamingMin = 0
	defer func() { nativeStreamingMin = saved }()
	rng := rand.New(rand.NewPCG(19, 20))
	for _, dt := range []trace.DType{f32, f64} {
		for _, n := range []int{5, 100, nativeChunk + 21} {
			jb := newJaxprBuilder(t)
			x, y := jb.input(dt, n, 3), jb.input(dt, 3)
			a := jb.bind("mul", nil, x, jb.broadcast(y, []int{n, 3}, 1))
			b := jb.bind("add", nil, a, jb.lit(1.5, dt))
			j := jb.build(b, jb.bind("sub", nil, a, x))
			xs, ys := randomBuffer(t, rng, dt, false, n, 3), randomBuffer(t, rng, dt, false, 3)
			name := fmt.Sprintf("%s n=%d", dt, n)
			p := fusedProgramOf(j, jit.LoopKernel, trace.Shape{n, 3})
			r, err := compileNative(p.Kernels[0], nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if r.(*nativeKernel).streaming == nil {
				t.Fatalf("%s: no streaming code", name)
			}
			runBothWays(t, name, j, trace.Shape{n, 3}, true, xs, ys)
			// Outputs one element off a vector boundary.
			want := execute(t, p, []*Buffer{xs, ys})
			size := dt.Size()
			var outs []*Buffer
			for range 2 {
				whole := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{3*n + 1}, DType: dt})
				outs = append(outs, &Buffer{aval: trace.AVal{Shape: []int{n, 3}, DType: dt}, dev: whole.dev, data: whole.data[size:]})
			}
			r.run([]*Buffer{xs, ys}, outs, nil)
			for i := range outs {
				if !bytes.Equal(outs[i].data, want[i].data) {
					t.Errorf("%s: unaligned output %d differs: %s", name, i, firstBitDifference(outs[i], want[i]))
				}
			}
		}
	}
}
