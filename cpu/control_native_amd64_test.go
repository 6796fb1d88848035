package cpu

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The trampoline's comparisons agree with Go's operators (the portable
// kernels' semantics) on every kind and predicate, at the values where
// kinds differ: NaN, signed zeros, infinities, the ends of integer ranges.
func TestLoopTrampolineComparisons(t *testing.T) {
	values := map[trace.DType][]float64{
		trace.Int32:   {math.MinInt32, -1, 0, 1, math.MaxInt32},
		trace.Int64:   {math.MinInt64, -1 << 40, -1, 0, 1, 1 << 40},
		trace.Uint32:  {0, 1, 1 << 31, math.MaxUint32},
		trace.Float32: {math.Inf(-1), -1.5, math.Copysign(0, -1), 0, 1e-40, 2.5, math.Inf(1), math.NaN()},
		trace.Float64: {math.Inf(-1), -1e300, math.Copysign(0, -1), 0, 5e-324, 1, math.Inf(1), math.NaN()},
	}
	for dt, vals := range values {
		for name, mask := range compareMasks {
			for _, x := range vals {
				for _, y := range vals {
					a, b := bufferOf(t, dt, []int{}, scalarOf(dt, x)), bufferOf(t, dt, []int{}, scalarOf(dt, y))
					want := goCompare(name, a.Element(0), b.Element(0))
					kind, _ := compareKind(dt)
					out := newBuffer(testDevice().(*Device), trace.AVal{Shape: trace.Shape{}, DType: trace.Bool})
					c := &loopCompare{a: a, b: b, out: out, kind: kind, mask: mask}
					c.run()
					if got := out.data[0] != 0; got != want {
						t.Errorf("%s %s(%v, %v) from Go = %v, want %v", dt, name, x, y, got, want)
					}
					out.data[0] = 2
					cond := &boundBody{steps: []boundStep{{compare: c}}}
					loop := nativeLoopOf(cond, out, &boundBody{}, nil, nil)
					_, _, ended := loop.run(1)
					if ended == want || out.data[0] != map[bool]byte{false: 0, true: 1}[want] {
						t.Errorf("%s %s(%v, %v) in the trampoline = %d (ended: %v), want %v", dt, name, x, y, out.data[0], ended, want)
					}
				}
			}
		}
	}
}

func scalarOf(dt trace.DType, v float64) any {
	if dt.IsInteger() {
		if v >= 1<<63 {
			return int64(uint64(v))
		}
		return int64(v)
	}
	return v
}

// goCompare applies Go's operator to two elements as Element returns them.
func goCompare(name string, x, y any) bool {
	var lt, eq, gt bool
	switch x := x.(type) {
	case int64:
		lt, eq, gt = x < y.(int64), x == y.(int64), x > y.(int64)
	case uint64:
		lt, eq, gt = x < y.(uint64), x == y.(uint64), x > y.(uint64)
	case float64:
		lt, eq, gt = x < y.(float64), x == y.(float64), x > y.(float64)
	}
	switch name {
	case "lt":
		return lt
	case "le":
		return lt || eq
	case "gt":
		return gt
	case "ge":
		return gt || eq
	case "eq":
		return eq
	}
	return !eq
}
