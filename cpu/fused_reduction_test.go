package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// ReductionKernels and small reductions against the unfused reduction
// kernel: equal bit for bit, because the fused kernels reduce in the
// kernel's own order (its line and leaf functions, its row-fold tree).

// reductionCase reduces f(x) = x*x + x (or x&1|x for integers, x!=y for
// bool) over axes.
func reductionKernelOf(t testing.TB, prims []string, dt trace.DType, shape, axes []int) *trace.Jaxpr {
	jb := newJaxprBuilder(t)
	x := jb.input(dt, shape...)
	var y *trace.Var
	switch {
	case dt == trace.Bool:
		y = jb.bind("xor", nil, x, jb.bind("rev", trace.Params{"dimensions": []int{0}}, x))
	case dt.IsInteger():
		y = jb.bind("or", nil, jb.bind("and", nil, x, jb.lit(1, dt)), jb.bind("mul", nil, x, jb.lit(3, dt)))
	default:
		y = jb.bind("add", nil, jb.bind("mul", nil, x, x), x)
	}
	var outs []*trace.Var
	for _, p := range prims {
		outs = append(outs, jb.reduce(p, y, axes...))
	}
	return jb.build(outs...)
}

func TestFusedReductionKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	type geometry struct {
		shape, axes []int
	}
	geometries := []geometry{
		{[]int{37, 5}, []int{1}},                // short lines
		{[]int{37, 5}, []int{0}},                // rows
		{[]int{37, 5}, []int{0, 1}},             // everything
		{[]int{3, 5000}, []int{1}},              // lines longer than a window
		{[]int{5000, 3}, []int{0}},              // many short rows
		{[]int{3, 70, 1500}, []int{1}},          // rows wider than a column block
		{[]int{4, 30, 5}, []int{0, 2}},          // two stages
		{[]int{1, 6, 1}, []int{0, 2}},           // size-1 reduced dims: copies
		{[]int{0, 4}, []int{0}},                 // empty operand: identities
		{[]int{2 * grainElements, 2}, nil},      // no axes
		{[]int{2 * grainElements, 2}, []int{1}}, // parallel short lines
	}
	ops := map[trace.DType][]string{
		f32:     {"reduce_sum", "reduce_max"},
		f64:     {"reduce_prod", "reduce_min"},
		f16:     {"reduce_sum", "reduce_min"},
		c64:     {"reduce_sum", "reduce_max"},
		i32:     {"reduce_sum", "reduce_and", "reduce_max"},
		boolean: {"reduce_or", "reduce_and"},
	}
	for _, dt := range []trace.DType{f32, f64, f16, c64, i32, boolean} {
		for _, g := range geometries {
			j := reductionKernelOf(t, ops[dt], dt, g.shape, g.axes)
			name := fmt.Sprintf("%v %s %v axes %v", ops[dt], dt, g.shape, g.axes)
			checkFused(t, name, j, jit.ReductionKernel, g.shape, randomBuffer(t, rng, dt, true, g.shape...))
		}
	}
}

// Large reductions: long lines split across workers and rows folded by
// halves on two workers follow the same trees as the unfused kernel.
func TestFusedReductionKernelLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large reductions")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for _, g := range []struct{ shape, axes []int }{
		{[]int{1, 2*parallelLine + 777}, []int{1}},
		{[]int{parallelLine + 333, 3}, []int{0}},
		{[]int{600, 1200}, []int{0, 1}},
	} {
		for _, dt := range []trace.DType{f32, f64} {
			j := reductionKernelOf(t, []string{"reduce_sum", "reduce_max", "reduce_prod"}, dt, g.shape, g.axes)
			checkFused(t, fmt.Sprintf("large %s %v %v", dt, g.shape, g.axes), j, jit.ReductionKernel, g.shape,
				randomBuffer(t, rng, dt, true, g.shape...))
		}
	}
}

// A reduction whose operand holds a small reduction of its own, and one
// whose operand is a broadcast scalar (hoisted).
func TestFusedReductionOfFusedProducers(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	n := 3000
	jb := newJaxprBuilder(t)
	x := jb.input(f32, n, 2)
	s := jb.broadcast(jb.reduce("reduce_sum", x, 1), []int{n, 2}, 0)
	y := jb.bind("sub", nil, x, s)
	r0, r1 := jb.reduce("reduce_sum", y, 0), jb.reduce("reduce_min", y, 0)
	checkFused(t, "sum of x - sum(x, 1)", jb.build(r0, r1), jit.ReductionKernel, trace.Shape{n, 2},
		randomBuffer(t, rng, f32, true, n, 2))

	jb = newJaxprBuilder(t)
	c := jb.input(f32)
	z := jb.bind("mul", nil, jb.broadcast(c, []int{n, 3}), jb.lit(1.5, f32))
	checkFused(t, "sum of a scalar", jb.build(jb.reduce("reduce_sum", z, 0, 1)), jit.ReductionKernel, trace.Shape{n, 3},
		randomBuffer(t, rng, f32, true))
}

// TestFusedSmallReductionOrder: a small reduction unrolled in a loop
// equals the reduction kernel for every length up to SmallReduction, as a
// line (innermost axis) and as rows (leading axis), for every op and
// dtype family: the unrolled order mirrors the kernel's leaf functions.
func TestFusedSmallReductionOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, tt := range []struct {
		dt    trace.DType
		prims []string
	}{
		{f32, []string{"reduce_sum", "reduce_prod", "reduce_max"}}, {f64, []string{"reduce_sum", "reduce_prod", "reduce_min"}},
		{c64, []string{"reduce_sum", "reduce_prod"}}, {c128, []string{"reduce_sum", "reduce_prod", "reduce_max"}},
		{f16, []string{"reduce_sum"}}, {bf16, []string{"reduce_prod"}},
		{i32, []string{"reduce_sum", "reduce_prod", "reduce_or"}}, {u8, []string{"reduce_max"}},
		{boolean, []string{"reduce_and", "reduce_max"}},
	} {
		dt := tt.dt
		for _, prim := range tt.prims {
			for n := 1; n <= jit.SmallReduction; n++ {
				for _, lineAxis := range []bool{true, false} {
					shape, axis, keep := []int{40, n}, 1, 0
					if !lineAxis {
						shape, axis, keep = []int{n, 40}, 0, 1
					}
					jb := newJaxprBuilder(t)
					x := jb.input(dt, shape...)
					r := jb.reduce(prim, x, axis)
					out := jb.bind("copy", nil, jb.broadcast(r, shape, keep))
					finite := prim == "reduce_prod" // keep products away from inf*0
					in := randomBuffer(t, rng, dt, finite, shape...)
					if dt.IsComplex() {
						signedZeroParts(t, rng, in)
					}
					checkFused(t, fmt.Sprintf("%s %s n=%d line=%v", prim, dt, n, lineAxis), jb.build(out), jit.LoopKernel, shape, in)
				}
			}
		}
	}
}

// signedZeroParts sets a real or imaginary part of every third element to
// +0 or -0: complex arithmetic treats their signs in ways a reordering (or
// a dropped 1·x) changes.
func signedZeroParts(t testing.TB, rng *rand.Rand, b *Buffer) {
	for i := 0; i < b.Len(); i += 3 {
		z := b.Element(i).(complex128)
		zero := math.Copysign(0, float64(rng.IntN(2)*2-1))
		if rng.IntN(2) == 0 {
			z = complex(zero, imag(z))
		} else {
			z = complex(real(z), zero)
		}
		if err := setElement(b, i, z); err != nil {
			t.Fatal(err)
		}
	}
}

// Every elementwise primitive that may fuse, on every dtype it has a block
// op for, in a loop kernel with one operand broadcast from a row.
func TestFusedEveryElementwisePrimitive(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ran := map[string]bool{}
	for _, name := range elementwisePrimitives {
		p := trace.Lookup(name)
		if jit.FusionClassOf(p) != jit.FuseElementwise {
			continue
		}
		for _, dt := range trace.DTypes() {
			params := testParamsFor(name, dt)
			if !dt.IsArray() {
				continue
			}
			in := slices.Repeat([]trace.DType{dt}, p.MinIn)
			switch name {
			case "select_n":
				in = []trace.DType{i32, dt, dt, dt}
			case "pow":
				in = []trace.DType{dt, i32}
			}
			if _, err := elementwiseBlock(name, params, in); err != nil {
				continue
			}
			shape := []int{70, 3}
			jb := newJaxprBuilder(t)
			var args []trace.Atom
			var bufs []*Buffer
			for i, d := range in {
				s := shape
				if i == 0 && len(in) > 1 {
					s = []int{3}
				}
				v := jb.input(d, s...)
				bufs = append(bufs, randomBuffer(t, rng, d, false, s...))
				if len(s) == 1 {
					args = append(args, jb.broadcast(v, shape, 1))
				} else {
					args = append(args, v)
				}
			}
			if name == "select_n" {
				bufs[0] = rampBuffer(t, i32, []int{3}, func(i int) any { return i - 1 })
			}
			out, err := jb.b.Bind(name, args, params, trace.Pos{})
			if err != nil {
				continue // the shape rule rejects the combination
			}
			checkFused(t, fmt.Sprintf("%s(%s)", name, dtypeList(in)), jb.build(out...), jit.LoopKernel, shape, bufs...)
			ran[name] = true
		}
	}
	for _, name := range elementwisePrimitives {
		if jit.FusionClassOf(trace.Lookup(name)) == jit.FuseElementwise && !ran[name] {
			t.Errorf("%s ran fused on no dtype", name)
		}
	}
}

// A kernel the fused compiler refuses still runs, equation by equation.
func TestUnfusableKernelFallsBack(t *testing.T) {
	jb := newJaxprBuilder(t)
	x := jb.input(f32, 40, 20)
	y := jb.bind("mul", nil, jb.reduce("reduce_sum", x, 1), jb.lit(2.0, f32)) // 20 > SmallReduction
	j := jb.build(jb.bind("add", nil, jb.broadcast(y, []int{40, 20}, 0), x))
	p := fusedProgramOf(j, jit.LoopKernel, trace.Shape{40, 20})
	if _, err := compileFused(p.Kernels[0]); err == nil {
		t.Fatal("a reduction of 20 elements per result compiled into a loop")
	}
	// Nested small reductions of a long chain: past maxFusedCode.
	jb = newJaxprBuilder(t)
	x = jb.input(f32, 16, 16, 16, 4)
	v := x
	for range 10 {
		v = jb.bind("sin", nil, v)
	}
	r := jb.reduce("reduce_sum", jb.reduce("reduce_sum", jb.reduce("reduce_sum", v, 3), 2), 1)
	huge := fusedProgramOf(jb.build(jb.broadcast(r, []int{16, 16}, 0)), jit.LoopKernel, trace.Shape{16, 16})
	if _, err := compileFused(huge.Kernels[0]); err == nil {
		t.Error("a kernel of 16·16·4 copies of a chain of ten ops compiled")
	}
	in := randomBuffer(t, rand.New(rand.NewPCG(23, 24)), f32, true, 40, 20)
	unfused, err := jit.Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := execute(t, p, []*Buffer{in}), execute(t, unfused, []*Buffer{in}); !sameBuffers(got[0], want[0]) {
		t.Errorf("fallback: %s", firstDifference(got[0], want[0]))
	}
}
