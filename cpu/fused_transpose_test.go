package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A loop kernel that only transposes its input runs the tiled transpose
// kernel, with the unfused program's results; a transpose feeding other
// work stays in the block machine.
func TestFusedLoneTransposeUsesTiledKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	for _, shape := range [][]int{{300, 200}, {5, 7, 3}} {
		perm := []int{1, 0}
		if len(shape) == 3 {
			perm = []int{2, 0, 1}
		}
		jb := newJaxprBuilder(t)
		x := jb.input(f32, shape...)
		y := jb.bind("transpose", trace.Params{"permutation": perm}, x)
		j := jb.build(y)
		r, err := compileFused(fusedProgramOf(j, jit.LoopKernel, y.Aval().Shape).Kernels[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.(transposeRunner); !ok {
			t.Errorf("%v: a lone transpose compiled to %T", shape, r)
		}
		checkFused(t, "lone transpose", j, jit.LoopKernel, y.Aval().Shape, randomBuffer(t, rng, f32, false, shape...))
	}
	jb := newJaxprBuilder(t)
	x := jb.input(f32, 30, 20)
	y := jb.bind("sin", nil, jb.bind("transpose", trace.Params{"permutation": []int{1, 0}}, x))
	j := jb.build(y)
	r, err := compileFused(fusedProgramOf(j, jit.LoopKernel, y.Aval().Shape).Kernels[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(transposeRunner); ok {
		t.Error("a transpose feeding sin ran as a lone transpose")
	}
}
