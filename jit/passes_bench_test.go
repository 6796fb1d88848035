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

// wide is n branches (a loop, a product, a loop and a reduction each)
// summed at the end: hundreds of kernels for the scheduler, merging and
// buffer assignment.
func wide(b testing.TB, n int) *trace.Jaxpr {
	j := newJB(b)
	x, w := j.in(f32, 16, 16), j.in(f32, 16, 16)
	var total *trace.Var
	for i := 0; i < n; i++ {
		s := j.op("mul", nil, j.op("sin", nil, x), lit(b, float64(i), f32, true))
		d := j.op("dot_general", dotParams, s, w)
		r := j.op("reduce_sum", axesP(0, 1), j.op("exp", nil, d))
		if total == nil {
			total = r
		} else {
			total = j.op("add", nil, total, r)
		}
	}
	return j.build(total)
}

// BenchmarkCompileWide300 compiles 300 independent branches (about 1,200
// kernels before merging).
func BenchmarkCompileWide300(b *testing.B) {
	saved := forceVerify
	forceVerify = false
	defer func() { forceVerify = saved }()
	j := wide(b, 300)
	opts := Options{Optimize: true, Fuse: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileWith(j, opts); err != nil {
			b.Fatal(err)
		}
	}
}
