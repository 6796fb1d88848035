package jit

import (
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// summary describes a program's kernels in order, one per line: kind,
// primitives, and how many values it reads and writes through memory.
func summary(p *Program) string {
	var b strings.Builder
	for _, k := range p.Kernels {
		names := make([]string, len(k.Eqns))
		for i, e := range k.Eqns {
			names[i] = e.Prim.Name
		}
		b.WriteString(k.Kind.String() + " [" + strings.Join(names, " ") + "] in " + itoa(len(k.In)) + " out " + itoa(len(k.Out)) + "\n")
	}
	return b.String()
}

func TestFusion(t *testing.T) {
	dotDims := trace.Params{"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
		"precision": nil, "preferred_element_type": nil}
	tests := []struct {
		name  string
		build func(b *jb) *trace.Jaxpr
		want  string
	}{{
		name: "an elementwise chain with broadcasts, slices, reshapes and transposes of inputs is one loop",
		build: func(b *jb) *trace.Jaxpr {
			x, y := b.in(f32, 4, 6), b.in(f32, 6, 4)
			row := b.op("broadcast_in_dim", bcastP([]int{4, 6}, 1), b.op("squeeze", dimsP(0), b.op("slice", sliceP([]int{0, 0}, []int{1, 6}), x)))
			yt := b.op("transpose", trace.Params{"permutation": []int{1, 0}}, y)
			r := b.op("reshape", reshapeP(4, 6), b.op("iota", iotaP(f32, []int{24}, 0)))
			return b.build(b.op("mul", nil, b.op("add", nil, b.op("sin", nil, x), row), b.op("sub", nil, yt, r)))
		},
		want: "loop [slice squeeze broadcast_in_dim transpose iota reshape sin add sub mul] in 2 out 1\n",
	}, {
		name: "an opaque equation cuts: its operands and results go through memory",
		build: func(b *jb) *trace.Jaxpr {
			x, w := b.in(f32, 8, 8), b.in(f32, 8, 8)
			d := b.op("dot_general", dotDims, b.op("sin", nil, x), w)
			return b.build(b.op("exp", nil, d))
		},
		want: "loop [sin] in 1 out 1\nopaque [dot_general] in 2 out 1\nloop [exp] in 1 out 1\n",
	}, {
		name: "a large reduction absorbs its producers; a small one fuses into the loop that broadcasts it back",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 64, 4)
			e := b.op("exp", nil, x)
			total := b.op("reduce_sum", axesP(0), e)                                                   // extent 64: its own kernel
			rows := b.op("broadcast_in_dim", bcastP([]int{64, 1}, 0), b.op("reduce_max", axesP(1), e)) // extent 4: fused
			return b.build(total, b.op("sub", nil, e, rows))
		},
		want: "reduction [exp reduce_sum] in 1 out 1\nloop [exp reduce_max broadcast_in_dim sub] in 1 out 1\n",
	}, {
		name: "a value needed as a result and by a loop of its shape is an extra output of that loop",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 16)
			y := b.op("sin", nil, x)
			return b.build(y, b.op("mul", nil, y, lit(t, 2.0, f32, true)))
		},
		want: "loop [sin mul] in 1 out 2\n",
	}, {
		name: "sibling reductions over the same operand shape and axes share one kernel",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 8, 100)
			return b.build(b.op("reduce_sum", axesP(1), x), b.op("reduce_max", axesP(1), b.op("abs", nil, x)))
		},
		want: "reduction [abs reduce_sum reduce_max] in 1 out 2\n",
	}, {
		name: "sibling loops reading the same input share one kernel",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 16)
			return b.build(b.op("sin", nil, x), b.op("cos", nil, x))
		},
		want: "loop [sin cos] in 1 out 2\n",
	}, {
		name: "an exp broadcast a thousand times is stored once, not recomputed per element",
		build: func(b *jb) *trace.Jaxpr {
			x, y := b.in(f32, 64), b.in(f32, 64, 1000)
			e := b.op("broadcast_in_dim", bcastP([]int{64, 1000}, 0), b.op("exp", nil, x))
			return b.build(b.op("add", nil, e, y))
		},
		want: "loop [exp] in 1 out 1\nloop [broadcast_in_dim add] in 2 out 1\n",
	}, {
		name: "a long chain needed by two kernels is stored; a short one is recomputed in each",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 1000)
			long := x
			for i := 0; i < 40; i++ {
				long = b.op("sin", nil, long)
			}
			short := b.op("exp", nil, x)
			use := func(v *trace.Var) (*trace.Var, *trace.Var) {
				return b.op("reduce_sum", axesP(0), v), b.op("reduce_max", axesP(0), b.op("neg", nil, v))
			}
			s1, m1 := use(long)
			s2, m2 := use(short)
			return b.build(s1, m1, s2, m2)
		},
		want: "reduction [exp neg reduce_sum reduce_max] in 1 out 2\nloop [" + strings.Repeat("sin ", 39) + "sin] in 1 out 1\nreduction [neg reduce_sum reduce_max] in 1 out 2\n",
	}, {
		name: "an output read through a transpose is not merged into its reader's loop",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 8, 8)
			y := b.op("sin", nil, x)
			return b.build(y, b.op("add", nil, b.op("transpose", trace.Params{"permutation": []int{1, 0}}, y), x))
		},
		want: "loop [sin] in 1 out 1\nloop [transpose add] in 2 out 1\n",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := compileFused(t, tc.build(newJB(t)), Options{})
			if got := summary(p); got != tc.want {
				t.Errorf("got\n%swant\n%s\n%s", got, tc.want, p)
			}
		})
	}
}

// Nothing fuses across an optimization_barrier, and everything before it
// runs before anything after it: the study's f_fft_multi_barrier pattern
// (two independent branches serialised by a barrier).
func TestBarrierSeparatesAndOrders(t *testing.T) {
	b := newJB(t)
	x, y := b.in(f32, 1000), b.in(f32, 1000)
	s := b.op("sin", nil, x)
	outs := b.ops("optimization_barrier", nil, s, y)
	// After the barrier: a branch that reads only y, which without the
	// barrier could run (and fuse) anywhere.
	late := b.op("exp", nil, outs[1])
	p := compileFused(t, b.build(b.op("add", nil, outs[0], late), b.op("cos", nil, x)), Options{})
	got := summary(p)
	want := "loop [sin cos] in 1 out 2\nloop [exp add] in 2 out 1\n"
	if got != want {
		t.Errorf("got\n%swant\n%s\n%s", got, want, p)
	}
	for _, k := range p.Kernels {
		for _, e := range k.Eqns {
			if isBarrier(e) {
				t.Errorf("a barrier equation reached the program:\n%s", p)
			}
		}
	}
	if len(p.orderEdges) == 0 {
		t.Error("the barrier left no ordering constraint")
	}
}

// A barrier operand computed from literals alone (reverse mode's broadcast
// one cotangent at a checkpoint) is not written to memory: its reader
// computes it, and the other operands keep the barrier's meaning.
func TestBarrierLeavesConstantsToReaders(t *testing.T) {
	b := newJB(t)
	x := b.in(f32, 1000)
	ones := b.op("broadcast_in_dim", bcastP([]int{1000}), lit(t, 1.0, f32, false))
	outs := b.ops("optimization_barrier", nil, b.op("sin", nil, x), ones)
	p := compileFused(t, b.build(b.op("mul", nil, outs[0], b.op("exp", nil, outs[1]))), Options{})
	want := "loop [sin] in 1 out 1\nloop [broadcast_in_dim exp mul] in 1 out 1\n"
	if got := summary(p); got != want {
		t.Errorf("got\n%swant\n%s\n%s", got, want, p)
	}
	if p.TempSize != 0 {
		t.Errorf("temp %d bytes, want none (sin writes the result's memory, its reader updates it in place):\n%s", p.TempSize, p)
	}
}

// Effectful kernels keep their order; the rest may move around them.
func TestEffectsKeepTheirOrder(t *testing.T) {
	b := newJB(t)
	x := b.in(f32, 100)
	print := func(v *trace.Var, f string) { b.op("debug_print", trace.Params{"fmt": f + "{}", "ordered": true}, v) }
	print(b.op("exp", nil, x), "late-computed ")
	print(x, "plain ")
	print(b.op("sin", nil, x), "third ")
	p := compileFused(t, b.build(x), Options{})
	var fmts []string
	for _, k := range p.Kernels {
		if k.Eqns[0].Prim.Name == "debug_print" {
			fmts = append(fmts, k.Eqns[0].Params.Str("fmt"))
		}
	}
	if strings.Join(fmts, "|") != "late-computed {}|plain {}|third {}" {
		t.Errorf("prints ran as %v:\n%s", fmts, p)
	}
}

// Without fusion every equation is an opaque kernel (what backends without
// FusionCapable get), barriers still resolved.
func TestUnfusedProgramsAreOneKernelPerEquation(t *testing.T) {
	b := newJB(t)
	x := b.in(f32, 10)
	s := b.op("optimization_barrier", nil, b.op("sin", nil, x))
	j := b.build(b.op("mul", nil, s, s))
	p, err := CompileWith(j, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(p), "opaque [sin] in 1 out 1\nopaque [mul] in 1 out 1\n"; got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}

// Without the optimising passes, fusion still leaves out what nothing
// needs, and every equation of the program's jaxpr is in a kernel.
func TestFusionDropsDeadEquations(t *testing.T) {
	b := newJB(t)
	x := b.in(f32, 8)
	b.op("exp", nil, x)
	j := b.build(b.op("sin", nil, x))
	p, err := CompileWith(j, Options{Fuse: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p); got != "loop [sin] in 1 out 1\n" || len(p.Jaxpr.Eqns) != 1 {
		t.Errorf("got\n%s\n%s", got, p.Jaxpr)
	}
}
