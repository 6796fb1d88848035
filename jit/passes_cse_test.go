package jit

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func TestCommonSubexpressionElimination(t *testing.T) {
	f32 := trace.Float32
	tests := []struct {
		name  string
		build func(b *jb) *trace.Jaxpr
		want  string
	}{{
		name: "equal chains merge, and so do their users",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			e1 := b.op("exp", nil, b.op("sin", nil, x))
			e2 := b.op("exp", nil, b.op("sin", nil, x))
			return b.build(b.op("add", nil, e1, e2))
		},
		want: "{ lambda ; a:f32[3]. let\n    b:f32[3] = sin a\n    c:f32[3] = exp b\n    d:f32[3] = add c c\n  in (d,) }",
	}, {
		name: "iotas with no operands merge (the two aranges of the study's kvec_mesh)",
		build: func(b *jb) *trace.Jaxpr {
			i1 := b.op("iota", iotaP(trace.Int32, []int{8}, 0))
			i2 := b.op("iota", iotaP(trace.Int32, []int{8}, 0))
			i3 := b.op("iota", iotaP(trace.Int32, []int{9}, 0))
			return b.build(i1, i2, i3)
		},
		want: "{ lambda ; . let\n    a:i32[8] = iota[dimension=0 dtype=int32 shape=(8,)]\n    b:i32[9] = iota[dimension=0 dtype=int32 shape=(9,)]\n  in (a, a, b) }",
	}, {
		name: "commutative operands meet in either order; others do not",
		build: func(b *jb) *trace.Jaxpr {
			x, y := b.in(f32, 3), b.in(f32, 3)
			return b.build(b.op("add", nil, x, y), b.op("add", nil, y, x), b.op("sub", nil, x, y), b.op("sub", nil, y, x))
		},
		want: "{ lambda ; a:f32[3] b:f32[3]. let\n    c:f32[3] = add a b\n    d:f32[3] = sub a b\n    e:f32[3] = sub b a\n  in (c, c, d, e) }",
	}, {
		name: "params must be equal",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 2, 3)
			return b.build(b.op("reduce_sum", axesP(0), x), b.op("reduce_sum", axesP(0), x), b.op("reduce_max", axesP(0), x))
		},
		want: "{ lambda ; a:f32[2,3]. let\n    b:f32[3] = reduce_sum[axes=(0,)] a\n    c:f32[3] = reduce_max[axes=(0,)] a\n  in (b, b, c) }",
	}, {
		name: "literals compare by type and bits: 0.0 is not -0.0, weak is not strong",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			return b.build(
				b.op("mul", nil, x, lit(t, 0.0, f32, true)),
				b.op("mul", nil, x, lit(t, math.Copysign(0, -1), f32, true)),
				b.op("mul", nil, x, lit(t, 0.0, f32, false)),
				b.op("mul", nil, x, lit(t, 0.0, f32, true)))
		},
		want: "{ lambda ; a:f32[3]. let\n    b:f32[3] = mul a 0.0:f32[]\n    c:f32[3] = mul a -0.0:f32[]\n    d:f32[3] = mul a 0.0:f32[]\n  in (b, c, d, b) }",
	}, {
		name: "effects and barriers never merge",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			p := trace.Params{"fmt": "{}", "ordered": true}
			b.op("debug_print", p, x)
			b.op("debug_print", p, x)
			return b.build(b.op("optimization_barrier", nil, x), b.op("optimization_barrier", nil, x))
		},
		want: "{ lambda ; a:f32[3]. let\n    _:tok = debug_print[fmt='{}' ordered=True] a\n    _:tok = debug_print[fmt='{}' ordered=True] a\n    b:f32[3] = optimization_barrier a\n    c:f32[3] = optimization_barrier a\n  in (b, c) } : { Ordered(print) }",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runJaxprPass(t, eliminateCommonSubexpressions, tc.build(newJB(t)), Options{})
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// Calls are scopes: CSE compares their bodies by identity and never looks
// inside, so two separately traced but identical bodies stay two calls,
// and a body's equations never merge with the caller's.
func TestCSEKeepsScopesApart(t *testing.T) {
	f32 := trace.Float32
	body := func() *trace.Jaxpr {
		b := newJB(t)
		return b.build(b.op("sin", nil, b.in(f32, 3)))
	}
	b1, b2 := body(), body()
	b := newJB(t)
	x := b.in(f32, 3)
	call := func(j *trace.Jaxpr) *trace.Var {
		return b.op("jit", trace.Params{"name": trace.Ident("f"), "jaxpr": j}, x)
	}
	s := b.op("sin", nil, x)
	c1, c2, c3 := call(b1), call(b1), call(b2)
	out := runJaxprPass(t, eliminateCommonSubexpressions, b.build(s, c1, c2, c3), Options{})
	if n := len(out.Eqns); n != 3 {
		t.Fatalf("want sin and two calls, got\n%s", out)
	}
	if out.OutVars[1] != out.OutVars[2] || out.OutVars[2] == out.OutVars[3] || out.OutVars[0] == out.OutVars[1] {
		t.Errorf("calls merged wrongly:\n%s", out)
	}
}

func TestParamsEqual(t *testing.T) {
	f1, f2 := &namedCallback{"f"}, &namedCallback{"f"}
	tests := []struct {
		a, b trace.Params
		want bool
	}{
		{trace.Params{"axes": []int{0, 1}}, trace.Params{"axes": []int{0, 1}}, true},
		{trace.Params{"axes": []int{0, 1}}, trace.Params{"axes": []int{1, 0}}, false},
		{trace.Params{"axes": []int{}}, trace.Params{"axes": []int(nil)}, true},
		{trace.Params{"strides": nil}, trace.Params{"strides": []int{1}}, false},
		{trace.Params{"y": 2}, trace.Params{"y": 2, "z": 1}, false},
		{trace.Params{"v": 0.0}, trace.Params{"v": math.Copysign(0, -1)}, false},
		{trace.Params{"v": math.NaN()}, trace.Params{"v": math.NaN()}, true},
		{trace.Params{"d": trace.Float32}, trace.Params{"d": trace.Float64}, false},
		{trace.Params{"d": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}}},
			trace.Params{"d": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}}}, true},
		{trace.Params{"d": trace.DotDimensionNumbers{LhsContracting: []int{1}}},
			trace.Params{"d": trace.DotDimensionNumbers{LhsContracting: []int{0}}}, false},
		{trace.Params{"p": trace.PaddingConfig{{Lo: 1}}}, trace.Params{"p": trace.PaddingConfig{{Lo: 1}}}, true},
		{trace.Params{"p": trace.PaddingConfig{{Lo: 1}}}, trace.Params{"p": trace.PaddingConfig{{Hi: 1}}}, false},
		{trace.Params{"r": []trace.AVal{trace.NewAVal(trace.Float32, 2)}}, trace.Params{"r": []trace.AVal{trace.NewAVal(trace.Float32, 2)}}, true},
		{trace.Params{"f": f1}, trace.Params{"f": f1}, true},
		{trace.Params{"f": f1}, trace.Params{"f": f2}, false},
	}
	for i, tc := range tests {
		if got := paramsEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("%d: paramsEqual(%v, %v) = %v, want %v", i, tc.a, tc.b, got, tc.want)
		}
	}
}

// namedCallback is a host function as the IR sees it: two with the same
// name are still different functions.
type namedCallback struct{ name string }

func (c *namedCallback) CallbackName() string { return "<function " + c.name + ">" }
