package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// elementwiseChain is a jaxpr of n elementwise equations over a (1024, 1024) input, each
// reading the previous one (and sometimes the input).
func elementwiseChain(b testing.TB, n int) *trace.Jaxpr {
	j := newJB(b)
	x := j.in(f32, 1024, 1024)
	v := x
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			v = j.op("sin", nil, v)
		case 1:
			v = j.op("mul", nil, v, lit(b, 1.5, f32, true))
		case 2:
			v = j.op("add", nil, v, x)
		case 3:
			v = j.op("neg", nil, v)
		}
	}
	return j.build(v)
}

// BenchmarkCompileChain1000 compiles a 1,000-equation elementwise chain with
// every pass and fusion on (the target is well under 100 ms: the pipeline
// is near-linear). Verification between passes is off, as in production.
func BenchmarkCompileChain1000(b *testing.B) {
	benchmarkCompile(b, elementwiseChain(b, 1000))
}

// BenchmarkCompileChain4000 shows the growth: four times the equations
// should take about four times as long.
func BenchmarkCompileChain4000(b *testing.B) {
	benchmarkCompile(b, elementwiseChain(b, 4000))
}

func benchmarkCompile(b *testing.B, j *trace.Jaxpr) {
	saved := forceVerify
	forceVerify = false
	defer func() { forceVerify = saved }()
	opts := Options{Optimize: true, Fuse: true, EmbedConstants: true, Evaluator: &testEvaluator{}}
	b.ReportAllocs()
	for b.Loop() {
		p, err := CompileWith(j, opts)
		if err != nil || p.KernelCount() != 1 {
			b.Fatalf("%v, %d kernels", err, p.KernelCount())
		}
	}
}
