package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func TestDeadCodeElimination(t *testing.T) {
	f32 := trace.Float32
	tests := []struct {
		name     string
		build    func(b *jb) *trace.Jaxpr
		captured int // leading ConstVars that are the caller's
		want     string
	}{{
		name: "unused pure chain goes",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			s := b.op("sin", nil, x)
			b.op("exp", nil, s)
			return b.build(b.op("cos", nil, x))
		},
		want: "{ lambda ; a:f32[3]. let b:f32[3] = cos a in (b,) }",
	}, {
		name: "an effect stays though its token is unused, and keeps its operands",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			s := b.op("sin", nil, x)
			b.op("debug_print", trace.Params{"fmt": "s={}", "ordered": true}, s)
			return b.build(x)
		},
		want: "{ lambda ; a:f32[3]. let\n    b:f32[3] = sin a\n    _:tok = debug_print[fmt='s={}' ordered=True] b\n  in (a,) } : { Ordered(print) }",
	}, {
		name: "an equation with one result used stays whole",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 4)
			y := b.in(trace.Int32, 4)
			outs := b.ops("sort", trace.Params{"dimension": 0, "is_stable": true, "num_keys": 1}, x, y)
			return b.build(outs[1])
		},
		want: "{ lambda ; a:f32[4] b:i32[4]. let\n    _:f32[4] c:i32[4] = sort[dimension=0 is_stable=True num_keys=1] a b\n  in (c,) }",
	}, {
		name: "a barrier whose results are unused goes",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 3)
			b.op("optimization_barrier", nil, x)
			return b.build(x)
		},
		want: "{ lambda ; a:f32[3]. let  in (a,) }",
	}, {
		name:     "an unused captured constant stays (calling convention), an unused embedded one goes",
		captured: 1,
		build: func(b *jb) *trace.Jaxpr {
			b.constant("device array", f32, 1000)
			b.constant(&Constant{AVal: trace.NewAVal(f32, 2), Data: make([]byte, 8)}, f32, 2)
			return b.build(b.op("neg", nil, b.in(f32, 3)))
		},
		want: "{ lambda a:f32[1000] ; b:f32[3]. let c:f32[3] = neg b in (c,) }",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := tc.build(newJB(t))
			c := &compilation{opts: &Options{}, numCapturedConsts: tc.captured}
			out, err := eliminateDeadCode(c, j)
			if err != nil {
				t.Fatal(err)
			}
			if err := out.Verify(); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
