package ad_test

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
)

func TestValueAndGradSmoke(t *testing.T) {
	j := build(t, []trace.AVal{trace.NewAVal(trace.Float64, 3)}, func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		y := e.Mul(e.Unary("sin", a[0]), a[0])
		return []trace.Atom{e.ReduceSum(y, []int{0})}
	})
	g, err := ad.ValueAndGrad(j, []bool{true})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(g)
	x := []float64{0.5, 1, 2}
	out := run(t, g, f64([]int{3}, x...))
	for i, xi := range x {
		want := math.Cos(xi)*xi + math.Sin(xi)
		if !close(out[1].data[i], want, 1e-12) {
			t.Errorf("grad[%d] = %v, want %v", i, out[1].data[i], want)
		}
	}
}
