package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func TestInlineCalls(t *testing.T) {
	f32 := trace.Float32
	call := func(b *jb, name string, body *trace.Jaxpr, in ...trace.Atom) []*trace.Var {
		return b.ops("jit", trace.Params{"name": trace.Ident(name), "jaxpr": body}, in...)
	}
	tests := []struct {
		name  string
		build func(b *jb) *trace.Jaxpr
		want  string
	}{{
		name: "the study's f_with_subjit: finternal's body joins the caller",
		build: func(b *jb) *trace.Jaxpr {
			ib := newJB(t)
			x := ib.in(f32, 8)
			inner := ib.build(ib.op("add", nil, ib.op("mul", nil, x, lit(t, 2.0, f32, true)), lit(t, 25.0, f32, true)))
			a := b.in(f32, 8)
			r := call(b, "finternal", inner, a)[0]
			return b.build(b.op("add", nil, r, lit(t, 3.0, f32, true)))
		},
		want: "{ lambda ; a:f32[8]. let\n    b:f32[8] = mul a 2.0:f32[]\n    c:f32[8] = add b 25.0:f32[]\n    d:f32[8] = add c 3.0:f32[]\n  in (d,) }",
	}, {
		name: "calls inside calls, effects kept; a weak operand is converted to the body's strong input",
		build: func(b *jb) *trace.Jaxpr {
			lb := newJB(t)
			y := lb.in(f32, 2)
			lb.op("debug_print", trace.Params{"fmt": "{}", "ordered": true}, y)
			leaf := lb.build(lb.op("sin", nil, y))
			mb := newJB(t)
			z := mb.in(f32, 2)
			mid := mb.build(call(mb, "leaf", leaf, z)[0])
			w := b.b.Input(trace.AVal{Shape: trace.Shape{2}, DType: f32, Weak: true})
			return b.build(call(b, "mid", mid, w)[0])
		},
		want: "{ lambda ; a:f32[2]. let\n    b:f32[2] = convert_element_type[new_dtype=float32 weak_type=False] a\n    _:tok = debug_print[fmt='{}' ordered=True] b\n    c:f32[2] = sin b\n  in (c,) } : { Ordered(print) }",
	}, {
		name: "a body that returns its input passes the operand through",
		build: func(b *jb) *trace.Jaxpr {
			ib := newJB(t)
			x := ib.in(f32, 2)
			inner := ib.build(x, lit(t, 1.0, f32, false))
			outs := call(b, "ident", inner, b.in(f32, 2))
			return b.build(outs[0], outs[1])
		},
		want: "{ lambda ; a:f32[2]. let  in (a, 1.0:f32[]) }",
	}, {
		name: "a body with captured constants of its own stays a call",
		build: func(b *jb) *trace.Jaxpr {
			ib := newJB(t)
			c := ib.constant("device array", f32, 2)
			inner := ib.build(ib.op("add", nil, c, ib.in(f32, 2)))
			return b.build(call(b, "closure", inner, b.in(f32, 2))[0])
		},
		want: "{ lambda ; a:f32[2]. let\n    b:f32[2] = jit[\n      name=closure\n      jaxpr={ lambda c:f32[2] ; a:f32[2]. let b:f32[2] = add c a in (b,) }\n    ] a\n  in (b,) }",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runJaxprPass(t, inlineCalls, tc.build(newJB(t)), Options{})
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
