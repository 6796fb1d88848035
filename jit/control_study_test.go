package jit

import (
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The study's loop figures (shared/seeds/optimizing-jit.txt, "Loops" and
// "CSE and scoping"), with x of shape (1024*128, 2) float32 (1 MiB). Each
// fori_loop is built as lax.fori_loop lowers it with static bounds: a scan
// carrying (i, x).

// foriScan is lax.fori_loop(lower, upper, body, init, unroll=unroll) with
// static bounds: a scan of upper-lower iterations carrying (i, *init);
// body gets the inner builder, i and the carry, and the loop's closed-over
// values are consts (the values of outer, in order, become the inner ones).
func foriScan(t *testing.T, b *jb, lower, upper, unroll int, outer []*trace.Var, init []trace.Atom,
	body func(ib *jb, i *trace.Var, consts []*trace.Var, carry []*trace.Var) []trace.Atom) []*trace.Var {
	ib := newJB(t)
	var consts []*trace.Var
	for _, v := range outer {
		consts = append(consts, ib.in(v.Aval().DType, v.Aval().Shape...))
	}
	i := ib.in(i32)
	var carry []*trace.Var
	for _, a := range init {
		carry = append(carry, ib.in(a.Aval().DType, a.Aval().Shape...))
	}
	next := ib.op("add", nil, i, lit(t, 1, i32, false))
	outs := append([]trace.Atom{next}, body(ib, i, consts, carry)...)
	j := ib.build(outs...)
	in := []trace.Atom{}
	for _, v := range outer {
		in = append(in, v)
	}
	in = append(in, lit(t, lower, i32, false))
	in = append(in, init...)
	res := b.ops("scan", trace.Params{
		"jaxpr": j, "length": upper - lower, "reverse": false, "num_consts": len(outer),
		"num_carry": 1 + len(init), "unroll": unroll,
	}, in...)
	return res[1:]
}

// getImIn is getIm built in a body.
func getImIn(t *testing.T, b *jb) *trace.Var { return getIm(t, b, "sin", nil) }

var loopStudyCases = []studyCase{{
	name: "f_for unroll=1",
	build: func(t *testing.T, b *jb) *trace.Jaxpr {
		x := b.in(f32, studyN, 2)
		y := foriScan(t, b, 0, 4, 1, nil, []trace.Atom{x}, func(ib *jb, _ *trace.Var, _, c []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.op("add", nil, ib.op("mul", nil, c[0], c[0]), lit(t, 1.0, f32, true))}
		})
		return b.build(y[0])
	},
	// The loop counter (4 B) is the only temporary (XLA: 513 B).
	xlaKernels: -1, xlaTemp: 513, kernels: 1, temp: 4,
}, {
	name: "f_for unroll=2",
	build: func(t *testing.T, b *jb) *trace.Jaxpr {
		x := b.in(f32, studyN, 2)
		y := foriScan(t, b, 0, 4, 2, nil, []trace.Atom{x}, func(ib *jb, _ *trace.Var, _, c []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.op("add", nil, ib.op("mul", nil, c[0], c[0]), lit(t, 1.0, f32, true))}
		})
		return b.build(y[0])
	},
	xlaKernels: -1, xlaTemp: 513, kernels: 1, temp: 4,
}, {
	name: "f_for unroll=4",
	build: func(t *testing.T, b *jb) *trace.Jaxpr {
		x := b.in(f32, studyN, 2)
		y := foriScan(t, b, 0, 4, 4, nil, []trace.Atom{x}, func(ib *jb, _ *trace.Var, _, c []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.op("add", nil, ib.op("mul", nil, c[0], c[0]), lit(t, 1.0, f32, true))}
		})
		return b.build(y[0])
	},
	xlaKernels: 1, xlaTemp: 0, kernels: 1, temp: 0,
}, {
	name: "f_cse_loop_impl",
	build: func(t *testing.T, b *jb) *trace.Jaxpr {
		x := b.in(f32, studyN, 2)
		init := b.op("add", nil, x, getImIn(t, b))
		y := foriScan(t, b, 0, 5, 1, nil, []trace.Atom{init}, func(ib *jb, _ *trace.Var, _, c []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.op("add", nil, c[0], getImIn(t, ib))}
		})
		return b.build(y[0])
	},
	// get_im is recomputed inside the loop: no 1 MiB temporary.
	xlaKernels: -1, xlaTemp: 513, kernels: 2, temp: 4,
}, {
	name: "f_cse_loop_expl",
	build: func(t *testing.T, b *jb) *trace.Jaxpr {
		x := b.in(f32, studyN, 2)
		im := getImIn(t, b)
		init := b.op("add", nil, x, im)
		y := foriScan(t, b, 0, 5, 1, []*trace.Var{im}, []trace.Atom{init}, func(ib *jb, _ *trace.Var, k, c []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.op("add", nil, c[0], k[0])}
		})
		return b.build(y[0])
	},
	// im, computed once outside, is a loop-invariant input in memory, as
	// in XLA (1 MiB).
	xlaKernels: -1, xlaTemp: 1 << 20, kernels: 2, temp: 1<<20 + 4,
}}

func TestStudyLoopExamples(t *testing.T) {
	var table strings.Builder
	table.WriteString("| example | XLA temp | kernels | temp |\n")
	for _, sc := range loopStudyCases {
		t.Run(sc.name, func(t *testing.T) {
			p := compileFused(t, sc.build(t, newJB(t)), Options{Evaluator: &testEvaluator{}, EmbedConstants: true})
			m := p.MemoryAnalysis()
			if got := p.KernelCount(); got != sc.kernels || (sc.xlaKernels >= 0 && got > sc.xlaKernels) {
				t.Errorf("%d kernels, want %d (XLA %d):\n%s", got, sc.kernels, sc.xlaKernels, p)
			}
			if m.TempSizeInBytes != sc.temp {
				t.Errorf("temp %d bytes, want %d (XLA %d):\n%s", m.TempSizeInBytes, sc.temp, sc.xlaTemp, p)
			}
			table.WriteString("| " + sc.name + " | " + itoa(sc.xlaTemp) + " | " + itoa(p.KernelCount()) + " | " + byteSize(m.TempSizeInBytes) + " |\n")
		})
	}
	t.Log("\n" + table.String())
}
