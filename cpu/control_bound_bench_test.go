package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// fori_loop(0, 10^6, body, x) on a float32 scalar, as the scan JAX lowers
// it to: the acceptance case of compiled loops. Each benchmark runs the
// loop three ways in one process, so their ratios see the same load:
// per-iteration (JAXSH_CPU_CODEGEN=0: program executions of portable
// kernels), bound-go (the body bound once, its steps called from Go) and
// compiled (the loop trampoline).

func BenchmarkForiLoopScalar(b *testing.B) {
	benchmarkForiScalar(b, func(ib *jaxprBuilder, i, c *trace.Var) trace.Atom {
		return ib.bind("add", nil, ib.bind("mul", nil, c, f32Lit(ib, 1.0000001)), f32Lit(ib, 1))
	})
}

// The body reads the counter: c*0.999 + float(i).
func BenchmarkForiLoopScalarUsesI(b *testing.B) {
	benchmarkForiScalar(b, func(ib *jaxprBuilder, i, c *trace.Var) trace.Atom {
		return ib.bind("add", nil, ib.bind("mul", nil, c, f32Lit(ib, 0.999)), ib.convert(i, trace.Float32))
	})
}

func foriScalar(t testing.TB, steps int, update func(ib *jaxprBuilder, i, c *trace.Var) trace.Atom) *trace.Jaxpr {
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32)
	bd := body(t, []trace.AVal{i32Scalar, f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
		return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)), update(ib, in[0], in[1])}
	})
	outs := jb.bindAll("scan", trace.Params{"jaxpr": bd, "length": steps, "reverse": false, "num_consts": 0,
		"num_carry": 2, "unroll": 1}, jb.lit(0, trace.Int32), x)
	return jb.build(outs[1])
}

// fori_loop with traced bounds, as JAX lowers it: a while loop carrying
// (i, upper, c) whose predicate is i < upper.
func BenchmarkWhileLoopScalar(b *testing.B) {
	benchmarkLoopScalar(b, func(t testing.TB, steps int) *trace.Jaxpr {
		jb := newJaxprBuilder(t)
		x := jb.input(trace.Float32)
		cond := body(t, []trace.AVal{i32Scalar, i32Scalar, f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("lt", nil, in[0], in[1])}
		})
		bd := body(t, []trace.AVal{i32Scalar, i32Scalar, f32s()}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)), in[1], affine(ib, in[2], 1.0000001, 1)}
		})
		outs := jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": bd, "body_nconsts": 0},
			jb.lit(0, trace.Int32), jb.lit(steps, trace.Int32), x)
		return jb.build(outs[2])
	})
}

func benchmarkForiScalar(b *testing.B, update func(ib *jaxprBuilder, i, c *trace.Var) trace.Atom) {
	benchmarkLoopScalar(b, func(t testing.TB, steps int) *trace.Jaxpr { return foriScalar(t, steps, update) })
}

func benchmarkLoopScalar(b *testing.B, build func(t testing.TB, steps int) *trace.Jaxpr) {
	const steps = 1_000_000
	compile := func(codegen bool) jit.Executable {
		if !codegen {
			b.Setenv("JAXSH_CPU_CODEGEN", "0")
		}
		p, err := jit.CompileWith(build(b, steps), jit.OptionsFor(testDevice()))
		if err != nil {
			b.Fatal(err)
		}
		exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
		if err != nil {
			b.Fatal(err)
		}
		return exe
	}
	in := []jit.Buffer{bufferOf(b, trace.Float32, []int{}, 1.0)}
	for _, mode := range []string{"compiled", "bound-go", "per-iteration"} {
		b.Run(mode, func(b *testing.B) {
			exe := compile(mode != "per-iteration")
			if mode == "per-iteration" {
				b.Setenv("JAXSH_CPU_CODEGEN", "0")
			}
			loopTrampolineOff = mode == "bound-go"
			defer func() { loopTrampolineOff = false }()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := exe.Execute(in, jit.NoHost); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/steps, "ns/iter")
		})
	}
}
