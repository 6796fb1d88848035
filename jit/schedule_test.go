package jit

import (
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

var dotParams = trace.Params{"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
	"precision": nil, "preferred_element_type": nil}

// twoBranches is sum(exp(x1 @ w)) and sum(exp(x2 @ w)), written with both
// products first, as a Python loop over branches might trace them. Each
// product is a 16 KiB temporary.
func twoBranches(t *testing.T) *trace.Jaxpr {
	b := newJB(t)
	x1, x2, w := b.in(f32, 64, 64), b.in(f32, 64, 64), b.in(f32, 64, 64)
	d1 := b.op("dot_general", dotParams, x1, w)
	d2 := b.op("dot_general", dotParams, x2, w)
	r1 := b.op("reduce_sum", axesP(0, 1), b.op("exp", nil, d1))
	r2 := b.op("reduce_sum", axesP(0, 1), b.op("exp", nil, d2))
	return b.build(r1, r2)
}

// The scheduler finishes a branch (freeing its temporary) before starting
// the next, so the two products share the arena.
func TestScheduleFreesTemporariesEarly(t *testing.T) {
	p := compileFused(t, twoBranches(t), Options{})
	if got, want := summary(p), "opaque [dot_general] in 2 out 1\nreduction [exp reduce_sum] in 1 out 1\nopaque [dot_general] in 2 out 1\nreduction [exp reduce_sum] in 1 out 1\n"; got != want {
		t.Errorf("order\n%swant\n%s", got, want)
	}
	if p.TempSize != 16<<10 {
		t.Errorf("temp %d bytes, want one 16 KiB product at a time:\n%s", p.TempSize, p)
	}
	d1, d2 := p.Kernels[0].Out[0], p.Kernels[2].Out[0]
	if p.Slices[d1].Offset != p.Slices[d2].Offset {
		t.Errorf("the products do not share memory: %+v %+v", p.Slices[d1], p.Slices[d2])
	}
	// The order the jaxpr gives (both products first) needs both at once.
	c := &compilation{opts: &Options{}}
	q := compileFused(t, twoBranches(t), Options{})
	q.Kernels = []*Kernel{q.Kernels[0], q.Kernels[2], q.Kernels[1], q.Kernels[3]}
	if err := assignBuffers(c, q); err != nil || q.TempSize <= 16<<10 {
		t.Errorf("interleaved order: temp %d bytes, %v; want more than one product", q.TempSize, err)
	}
}

// Random schedules (a test-only option) still respect every dependency and
// the order of effects: the verifier runs after each pass.
func TestShuffledSchedulesKeepEffectOrder(t *testing.T) {
	build := func() *trace.Jaxpr {
		b := newJB(t)
		x := b.in(f32, 100)
		var outs []trace.Atom
		for i := 0; i < 6; i++ {
			v := b.op("reduce_sum", axesP(0), b.op("mul", nil, x, lit(t, float64(i), f32, true)))
			b.op("debug_print", trace.Params{"fmt": "step " + itoa(i) + " {}", "ordered": true}, v)
			outs = append(outs, b.op("dot_general", dotParams, b.op("reshape", reshapeP(10, 10), x), b.op("reshape", reshapeP(10, 10), x)))
		}
		return b.build(outs...)
	}
	orders := map[string]bool{}
	for seed := int64(1); seed <= 20; seed++ {
		p := compileFused(t, build(), Options{ShuffleSeed: seed})
		var prints []string
		for _, k := range p.Kernels {
			if e := k.Eqns[0]; e.Prim.Name == "debug_print" {
				prints = append(prints, e.Params.Str("fmt"))
			}
		}
		if got := strings.Join(prints, ","); got != "step 0 {},step 1 {},step 2 {},step 3 {},step 4 {},step 5 {}" {
			t.Fatalf("seed %d printed in the order %s", seed, got)
		}
		orders[summary(p)] = true
	}
	if len(orders) < 2 {
		t.Errorf("20 seeds gave %d schedule(s); the option does not shuffle", len(orders))
	}
}
