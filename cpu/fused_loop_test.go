package cpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// LoopKernels against the same equations run unfused. Every comparison is
// exact (NaN matching NaN): fused kernels run the eager block ops, round
// 16-bit floats after every op as the eager kernels do, and reduce small
// reductions in the reduction kernel's own order.

// loopShapes: rank 0, empty, sizes that are no multiple of a block, and
// one large enough to be split across the pool.
var loopShapes = [][]int{{}, {0, 3}, {37, 3}, {1, 1031}, {3*grainElements + 5, 2}}

// chain builds a chain of elementwise ops with scalar literals on two
// inputs of dtype dt, whatever ops dt has.
func chain(jb *jaxprBuilder, dt trace.DType, shape []int) *trace.Var {
	x, y := jb.input(dt, shape...), jb.input(dt, shape...)
	switch {
	case dt == trace.Bool:
		a := jb.bind("and", nil, x, jb.bind("not", nil, y))
		b := jb.bind("xor", nil, a, jb.lit(true, dt))
		c := jb.bind("or", nil, b, jb.bind("eq", nil, x, y))
		return jb.bind("select_n", nil, y, c, x)
	case dt.IsInteger():
		a := jb.bind("add", nil, jb.bind("mul", nil, x, jb.lit(3, dt)), y)
		b := jb.bind("sub", nil, jb.bind("max", nil, a, y), jb.bind("shift_right_arithmetic", nil, x, jb.lit(2, dt)))
		c := jb.bind("xor", nil, b, x)
		return jb.bind("select_n", nil, jb.bind("lt", nil, c, jb.lit(0, dt)), c, jb.bind("neg", nil, c))
	}
	a := jb.bind("mul", nil, x, jb.lit(2.0, dt))
	b := jb.bind("add", nil, a, y)
	c := jb.bind("sub", nil, jb.bind("sin", nil, a), b)
	d := jb.bind("div", nil, c, jb.bind("add", nil, jb.bind("abs", nil, y), jb.lit(1.0, dt)))
	e := jb.bind("max", nil, d, x)
	return jb.bind("select_n", nil, jb.bind("gt", nil, e, jb.lit(0.0, dt)), jb.bind("neg", nil, e), jb.bind("exp", nil, e))
}

func TestFusedElementwiseChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []trace.DType{f32, f16, bf16, f64, i32, i8, boolean} {
		for _, shape := range loopShapes {
			jb := newJaxprBuilder(t)
			j := jb.build(chain(jb, dt, shape))
			x, y := randomBuffer(t, rng, dt, false, shape...), randomBuffer(t, rng, dt, false, shape...)
			checkFused(t, fmt.Sprintf("chain %s%v", dt, shape), j, jit.LoopKernel, shape, x, y)
		}
	}
}

// A rank-0 input and size-1 dimensions broadcast inside elementwise ops,
// as lax's shape rule allows; broadcast_in_dim of a row and of a column.
func TestFusedBroadcasts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 2*grainElements + 3} {
		shape := []int{n, 5}
		jb := newJaxprBuilder(t)
		x, row, col := jb.input(f32, shape...), jb.input(f32, 5), jb.input(f32, n)
		s, c1 := jb.input(f32), jb.input(f32, n, 1)
		a := jb.bind("mul", nil, x, jb.broadcast(row, shape, 1))
		b := jb.bind("add", nil, a, jb.broadcast(col, shape, 0))
		c := jb.bind("sub", nil, b, c1)
		d := jb.bind("mul", nil, c, s)
		j := jb.build(d)
		checkFused(t, fmt.Sprintf("broadcasts %v", shape), j, jit.LoopKernel, shape,
			randomBuffer(t, rng, f32, false, shape...), randomBuffer(t, rng, f32, false, 5),
			randomBuffer(t, rng, f32, false, n), randomBuffer(t, rng, f32, false),
			randomBuffer(t, rng, f32, false, n, 1))
	}
}

// wellFused is the study's f_well_fused on x of shape (n, 2):
// a = x*2; b = arange(n)[:, None]*3; c = x[0] + x - a; sin(a) + a**2 + b + c.
func wellFused(jb *jaxprBuilder, dt trace.DType, n int) *trace.Var {
	shape := []int{n, 2}
	x := jb.input(dt, shape...)
	a := jb.bind("mul", nil, x, jb.lit(2.0, dt))
	io := jb.bind("iota", trace.Params{"dtype": i32, "shape": []int{n}, "dimension": 0})
	b := jb.bind("mul", nil, jb.broadcast(io, []int{n, 1}, 0), jb.lit(3, i32))
	bf := jb.broadcast(jb.convert(b, dt), shape, 0, 1)
	x0 := jb.bind("squeeze", trace.Params{"dimensions": []int{0}},
		jb.bind("slice", trace.Params{"start_indices": []int{0, 0}, "limit_indices": []int{1, 2}, "strides": nil}, x))
	c := jb.bind("sub", nil, jb.bind("add", nil, jb.broadcast(x0, shape, 1), x), a)
	sa := jb.bind("add", nil, jb.bind("sin", nil, a), jb.bind("integer_pow", trace.Params{"y": 2}, a))
	return jb.bind("add", nil, jb.bind("add", nil, sa, bf), c)
}

func TestFusedWellFused(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dt := range []trace.DType{f32, f16, f64} {
		for _, n := range []int{1, 513, 3 * grainElements} {
			jb := newJaxprBuilder(t)
			j := jb.build(wellFused(jb, dt, n))
			checkFused(t, fmt.Sprintf("f_well_fused %s n=%d", dt, n), j, jit.LoopKernel, trace.Shape{n, 2},
				randomBuffer(t, rng, dt, false, n, 2))
		}
	}
}

// Iotas of every kind of dtype along each dimension, and one whose
// coordinate is fixed by a slice (computed once).
func TestFusedIota(t *testing.T) {
	for _, dt := range []trace.DType{i32, i8, u8, f32, f16, bf16, f64, c64} {
		shape := []int{300, 3}
		jb := newJaxprBuilder(t)
		a := jb.bind("iota", trace.Params{"dtype": dt, "shape": shape, "dimension": 0})
		b := jb.bind("iota", trace.Params{"dtype": dt, "shape": shape, "dimension": 1})
		c := jb.bind("iota", trace.Params{"dtype": dt, "shape": []int{4, 300, 3}, "dimension": 0})
		d := jb.bind("slice", trace.Params{"start_indices": []int{2, 0, 0}, "limit_indices": []int{3, 300, 3}, "strides": nil}, c)
		e := jb.bind("reshape", trace.Params{"new_sizes": shape}, d)
		j := jb.build(jb.bind("add", nil, jb.bind("mul", nil, a, b), e))
		checkFused(t, "iota "+dt.String(), j, jit.LoopKernel, shape)
	}
}

// Index maps of inputs: strided slices, rev, transpose, reshapes that
// split, merge and regroup dimensions, pad (negative, interior), and
// concatenate (with an empty operand), each feeding an elementwise op.
func TestFusedIndexMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	type indexCase struct {
		name  string
		in    [][]int
		build func(jb *jaxprBuilder, x []*trace.Var) *trace.Var
	}
	cases := []indexCase{
		{"slice", [][]int{{40, 9}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			return jb.bind("slice", trace.Params{"start_indices": []int{3, 1}, "limit_indices": []int{38, 9}, "strides": []int{2, 3}}, x[0])
		}},
		{"rev", [][]int{{200, 4, 5}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			return jb.bind("rev", trace.Params{"dimensions": []int{0, 2}}, x[0])
		}},
		{"transpose", [][]int{{6, 70, 5}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			return jb.bind("transpose", trace.Params{"permutation": []int{2, 0, 1}}, x[0])
		}},
		{"reshape split", [][]int{{60, 7}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			return jb.bind("reshape", trace.Params{"new_sizes": []int{4, 15, 7}}, x[0])
		}},
		{"reshape of a transpose", [][]int{{6, 10}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			t := jb.bind("transpose", trace.Params{"permutation": []int{1, 0}}, x[0])
			return jb.bind("reshape", trace.Params{"new_sizes": []int{4, 15}}, t)
		}},
		{"reshape regroup", [][]int{{6, 10}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			r := jb.bind("rev", trace.Params{"dimensions": []int{1}}, x[0])
			return jb.bind("reshape", trace.Params{"new_sizes": []int{4, 1, 15}}, r)
		}},
		{"pad", [][]int{{20, 6}, {}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			cfg := trace.PaddingConfig{{Lo: 2, Hi: -3, Interior: 1}, {Lo: -1, Hi: 4, Interior: 0}}
			return jb.bind("pad", trace.Params{"padding_config": cfg}, x[0], x[1])
		}},
		{"pad of an empty operand", [][]int{{0, 3}, {}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			cfg := trace.PaddingConfig{{Lo: 2, Hi: 1, Interior: 0}, {Lo: 0, Hi: 0, Interior: 0}}
			return jb.bind("pad", trace.Params{"padding_config": cfg}, x[0], x[1])
		}},
		{"concatenate", [][]int{{9, 3}, {9, 0}, {9, 5}, {9, 1}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			return jb.bind("concatenate", trace.Params{"dimension": 1}, x[0], x[1], x[2], x[3])
		}},
		{"concatenate of broadcasts", [][]int{{500}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			a := jb.broadcast(x[0], []int{500, 1}, 0)
			return jb.bind("concatenate", trace.Params{"dimension": 1}, a, jb.bind("rev", trace.Params{"dimensions": []int{0}}, a))
		}},
		{"copy and squeeze", [][]int{{1, 30, 1}}, func(jb *jaxprBuilder, x []*trace.Var) *trace.Var {
			return jb.bind("copy", nil, jb.bind("squeeze", trace.Params{"dimensions": []int{0, 2}}, x[0]))
		}},
	}
	for _, dt := range []trace.DType{f32, f16, i32, boolean, c128} {
		for _, c := range cases {
			jb := newJaxprBuilder(t)
			var ins []*trace.Var
			var bufs []*Buffer
			for _, s := range c.in {
				ins = append(ins, jb.input(dt, s...))
				bufs = append(bufs, randomBuffer(t, rng, dt, false, s...))
			}
			y := c.build(jb, ins)
			// An op after the index map, on itself at other indices too.
			shape := y.Aval().Shape
			out := jb.bind("ne", nil, y, jb.bind("rev", trace.Params{"dimensions": []int{0}}, y))
			z := jb.bind("select_n", nil, out, y, jb.bind("rev", trace.Params{"dimensions": []int{0}}, y))
			checkFused(t, fmt.Sprintf("%s %s", c.name, dt), jb.build(z, y), jit.LoopKernel, shape, bufs...)
		}
	}
}

// fSumJax is the study's f_sum_jax on x of shape (n, 2):
// kvm = stack((arange(n), arange(n)), -1); x*2 + sum(kvm*x, axis=1, keepdims=True),
// with the small reduction fused into the loop.
func fSumJax(jb *jaxprBuilder, dt trace.DType, n int) *trace.Var {
	shape := []int{n, 2}
	x := jb.input(dt, shape...)
	io := jb.broadcast(jb.bind("iota", trace.Params{"dtype": dt, "shape": []int{n}, "dimension": 0}), []int{n, 1}, 0)
	kvm := jb.bind("concatenate", trace.Params{"dimension": 1}, io, io)
	s := jb.reduce("reduce_sum", jb.bind("mul", nil, kvm, x), 1)
	return jb.bind("add", nil, jb.bind("mul", nil, x, jb.lit(2, dt)), jb.broadcast(s, shape, 0))
}

func TestFusedSmallReductionInLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dt := range []trace.DType{f32, f16, f64, i32} {
		for _, n := range []int{1, 300, 3 * grainElements} {
			jb := newJaxprBuilder(t)
			j := jb.build(fSumJax(jb, dt, n))
			checkFused(t, fmt.Sprintf("f_sum_jax %s n=%d", dt, n), j, jit.LoopKernel, trace.Shape{n, 2},
				randomBuffer(t, rng, dt, false, n, 2))
		}
	}
	// Reductions over leading and several axes, of every op, broadcast back.
	for _, tt := range []struct {
		prim string
		dt   trace.DType
		axes []int
	}{
		{"reduce_max", f32, []int{0, 2}}, {"reduce_min", f64, []int{2}}, {"reduce_prod", f32, []int{0}},
		{"reduce_or", boolean, []int{0, 2}}, {"reduce_and", i32, []int{2}}, {"reduce_sum", c64, []int{0, 2}},
		{"reduce_max", boolean, []int{0}}, {"reduce_sum", i8, []int{0}},
	} {
		shape := []int{3, 700, 4}
		jb := newJaxprBuilder(t)
		x := jb.input(tt.dt, shape...)
		r := jb.reduce(tt.prim, x, tt.axes...)
		var keep []int
		for d := range shape {
			if !slices.Contains(tt.axes, d) {
				keep = append(keep, d)
			}
		}
		out := jb.bind("max", nil, x, jb.broadcast(r, shape, keep...))
		checkFused(t, fmt.Sprintf("%s%v %s", tt.prim, tt.axes, tt.dt), jb.build(out), jit.LoopKernel, shape,
			randomBuffer(t, rng, tt.dt, false, shape...))
	}
}

// Several outputs of one loop, of different dtypes, one of them also read
// by another output, one an input passed through, one a scalar broadcast.
func TestFusedMultiOutputLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, dt := range []trace.DType{f32, f16} {
		shape := []int{1000, 3}
		jb := newJaxprBuilder(t)
		x, y, s := jb.input(dt, shape...), jb.input(dt, shape...), jb.input(dt)
		a := jb.bind("mul", nil, x, y)
		b := jb.bind("add", nil, a, jb.lit(1.0, dt))
		c := jb.bind("lt", nil, a, b)
		d := jb.convert(b, f64)
		e := jb.broadcast(s, shape)
		f := jb.bind("copy", nil, x)
		checkFused(t, "multi-output "+dt.String(), jb.build(a, b, c, d, e, f), jit.LoopKernel, shape,
			randomBuffer(t, rng, dt, false, shape...), randomBuffer(t, rng, dt, false, shape...),
			randomBuffer(t, rng, dt, false))
	}
}

// Programs cut by jit's own fusion pass (on, because this backend says it
// runs fused kernels) compile here without falling back, and equal the
// unfused programs.
func TestJitFusedProgramsMatchUnfused(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	n := 1000
	type program struct {
		name string
		j    *trace.Jaxpr
		in   []*Buffer
	}
	var programs []program
	jb := newJaxprBuilder(t)
	programs = append(programs, program{"f_well_fused", jb.build(wellFused(jb, f32, n)), []*Buffer{randomBuffer(t, rng, f32, false, n, 2)}})
	jb = newJaxprBuilder(t)
	programs = append(programs, program{"f_sum_jax", jb.build(fSumJax(jb, f32, n)), []*Buffer{randomBuffer(t, rng, f32, false, n, 2)}})
	jb = newJaxprBuilder(t)
	x := jb.input(f32, n, 40)
	y := jb.bind("exp", nil, jb.bind("mul", nil, x, jb.lit(0.5, f32)))
	s := jb.reduce("reduce_sum", y, 1)
	programs = append(programs, program{"softmax", jb.build(jb.bind("div", nil, y, jb.broadcast(s, []int{n, 40}, 0))),
		[]*Buffer{randomBuffer(t, rng, f32, true, n, 40)}})
	for _, pr := range programs {
		p, _, err := jit.CompileOn(testDevice(), pr.j)
		if err != nil {
			t.Fatal(err)
		}
		fused := 0
		for _, k := range p.Kernels {
			if k.Kind == jit.OpaqueKernel {
				continue
			}
			fused++
			if _, err := compileFused(k); err != nil {
				t.Errorf("%s: %s kernel from jit's fusion pass does not compile: %v", pr.name, k.Kind, err)
			}
		}
		if fused == 0 {
			t.Errorf("%s: jit made no fused kernel:\n%v", pr.name, p)
		}
		unfused, err := jit.Compile(pr.j)
		if err != nil {
			t.Fatal(err)
		}
		got, want := execute(t, p, pr.in), execute(t, unfused, pr.in)
		for i := range want {
			if !sameBuffers(got[i], want[i]) {
				t.Errorf("%s: output %d: %s", pr.name, i, firstDifference(got[i], want[i]))
			}
		}
	}
}

// One compiled fused program run from several goroutines at once: each
// run takes its own worker states.
func TestFusedConcurrentExecutes(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	n := 3 * grainElements
	jb := newJaxprBuilder(t)
	j := jb.build(fSumJax(jb, f32, n))
	exe, err := jit.LookupBackend("cpu").Compile(fusedProgramOf(j, jit.LoopKernel, trace.Shape{n, 2}), testDevice())
	if err != nil {
		t.Fatal(err)
	}
	unfused, err := jit.Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	const runs = 4
	ins, wants := make([]*Buffer, runs), make([]*Buffer, runs)
	for i := range ins {
		ins[i] = randomBuffer(t, rng, f32, false, n, 2)
		wants[i] = execute(t, unfused, ins[i:i+1])[0]
	}
	errs := make(chan string, runs)
	for i := range runs {
		go func() {
			for range 3 {
				res, err := exe.Execute([]jit.Buffer{ins[i]}, jit.NoHost)
				if err != nil {
					errs <- err.Error()
					return
				}
				if got := res[0].(*Buffer); !sameBuffers(got, wants[i]) {
					errs <- firstDifference(got, wants[i])
					return
				}
			}
			errs <- ""
		}()
	}
	for range runs {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// A loop kernel whose output shares memory with the input it reads
// element for element (jit's buffer plan allows it) reads each block
// before writing it, so the result is the same as into fresh memory.
func TestFusedLoopInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	n := 2*grainElements + 11
	jb := newJaxprBuilder(t)
	x := jb.input(f32, n)
	a := jb.bind("mul", nil, x, jb.lit(2.0, f32)) // computed first, into x's memory
	b := jb.bind("add", nil, jb.bind("sin", nil, x), a)
	j := jb.build(a, b)
	fk, err := compileFused(fusedProgramOf(j, jit.LoopKernel, trace.Shape{n}).Kernels[0])
	if err != nil {
		t.Fatal(err)
	}
	in := randomBuffer(t, rng, f32, false, n)
	want := []*Buffer{newBuffer(in.dev, in.AVal()), newBuffer(in.dev, in.AVal())}
	fk.run([]*Buffer{in}, want, nil)
	got := newBuffer(in.dev, in.AVal())
	fk.run([]*Buffer{in}, []*Buffer{in, got}, nil)
	if !sameBuffers(in, want[0]) || !sameBuffers(got, want[1]) {
		t.Errorf("in place: %s; %s", firstDifference(in, want[0]), firstDifference(got, want[1]))
	}
}
