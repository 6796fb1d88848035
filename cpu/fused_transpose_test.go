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

// A transpose feeding elementwise work runs its loop in tiles (rows whose
// lengths are no multiple of a tile's, and bands of rows that are not
// either), with the unfused program's results; a loop without a transpose
// of its last axis keeps the row order. (The block machine's loops: native
// code is off.)
func TestFusedTransposeFeedingWorkRunsInTiles(t *testing.T) {
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	rng := rand.New(rand.NewPCG(42, 43))
	for _, c := range []struct {
		shape, perm []int
		tiled       bool
	}{
		{[]int{300, 70}, []int{1, 0}, true},       // loop (70, 300)
		{[]int{3, 200, 40}, []int{0, 2, 1}, true}, // loop (3, 40, 200)
		{[]int{40, 300}, []int{0, 1}, false},
		{[]int{10, 40, 300}, []int{1, 0, 2}, false}, // the last axis stays
		{[]int{300, 8}, []int{1, 0}, false},         // too few rows to tile
	} {
		jb := newJaxprBuilder(t)
		x := jb.input(f32, c.shape...)
		xt := jb.bind("transpose", trace.Params{"permutation": c.perm}, x)
		y := jb.bind("add", nil, jb.bind("mul", nil, jb.bind("sin", nil, xt), f32Lit(jb, 2)), f32Lit(jb, 1))
		j := jb.build(y)
		r, err := compileFused(fusedProgramOf(j, jit.LoopKernel, y.Aval().Shape).Kernels[0])
		if err != nil {
			t.Fatal(err)
		}
		lk, ok := r.(*loopKernel)
		if !ok {
			t.Fatalf("%v permuted by %v compiled to %T", c.shape, c.perm, r)
		}
		if (lk.rowLen > 0) != c.tiled {
			t.Errorf("%v permuted by %v: tiled %v, want %v", c.shape, c.perm, lk.rowLen > 0, c.tiled)
		}
		checkFused(t, "transpose feeding work", j, jit.LoopKernel, y.Aval().Shape, randomBuffer(t, rng, f32, false, c.shape...))
	}
}
