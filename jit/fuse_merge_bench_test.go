package jit

import (
	"fmt"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// allIntermediates is a chain of n elementwise equations over a small
// input that returns every intermediate: one multi-output kernel, built by
// n merges into one growing group.
func allIntermediates(b testing.TB, n int) *trace.Jaxpr {
	j := newJB(b)
	x := j.in(f32, 4)
	v := x
	outs := make([]trace.Atom, 0, n)
	for i := range n {
		if i%2 == 0 {
			v = j.op("sin", nil, v)
		} else {
			v = j.op("add", nil, v, x)
		}
		outs = append(outs, v)
	}
	return j.build(outs...)
}

// BenchmarkCompileAllIntermediates compiles functions returning all N
// intermediates at several N: the time per equation (ns/eqn) stays flat
// when compilation is linear in N.
func BenchmarkCompileAllIntermediates(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			saved := forceVerify
			forceVerify = false
			defer func() { forceVerify = saved }()
			j := allIntermediates(b, n)
			opts := Options{Optimize: true, Fuse: true, EmbedConstants: true, Evaluator: &testEvaluator{}}
			for b.Loop() {
				if _, err := CompileWith(j, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/eqn")
		})
	}
}
