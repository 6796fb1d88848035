package jit

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func TestSimplify(t *testing.T) {
	f32, i32 := trace.Float32, trace.Int32
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name  string
		build func(b *jb) *trace.Jaxpr
		want  string
	}{{
		name: "x*1 and 1*x are x, for floats and ints",
		build: func(b *jb) *trace.Jaxpr {
			x, n := b.in(f32, 3), b.in(i32, 3)
			return b.build(b.op("mul", nil, x, lit(t, 1.0, f32, true)), b.op("mul", nil, lit(t, 1, i32, true), n))
		},
		want: "{ lambda ; a:f32[3] b:i32[3]. let  in (a, b) }",
	}, {
		name: "x+0.0 stays for a float that may be -0.0; x+(-0.0), int x+0 and x-0.0 go",
		build: func(b *jb) *trace.Jaxpr {
			x, n := b.in(f32, 3), b.in(i32, 3)
			return b.build(
				b.op("add", nil, x, lit(t, 0.0, f32, true)),
				b.op("add", nil, x, lit(t, negZero, f32, true)),
				b.op("add", nil, n, lit(t, 0, i32, true)),
				b.op("sub", nil, x, lit(t, 0.0, f32, true)),
				b.op("sub", nil, x, lit(t, negZero, f32, true)))
		},
		want: "{ lambda ; a:f32[3] b:i32[3]. let\n    c:f32[3] = add a 0.0:f32[]\n    d:f32[3] = sub a -0.0:f32[]\n  in (c, a, b, a, d) }",
	}, {
		name: "x+0.0 goes where x cannot be -0.0: converted from an integer",
		build: func(b *jb) *trace.Jaxpr {
			n := b.in(i32, 3)
			c := b.op("convert_element_type", convertP(f32), n)
			return b.build(b.op("add", nil, c, lit(t, 0.0, f32, true)))
		},
		want: "{ lambda ; a:i32[3]. let\n    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a\n  in (b,) }",
	}, {
		name: "a replacement keeps the weak type: weak x times a strong 1.0 is strong, so it stays",
		build: func(b *jb) *trace.Jaxpr {
			x := b.b.Input(trace.AVal{Shape: trace.Shape{3}, DType: f32, Weak: true})
			return b.build(b.op("mul", nil, x, lit(t, 1.0, f32, false)))
		},
		want: "{ lambda ; a:f32[3]. let b:f32[3] = mul a 1.0:f32[] in (b,) }",
	}, {
		name: "complex products mix components: x*(1+0j) stays",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(trace.Complex64, 3)
			return b.build(b.op("mul", nil, x, lit(t, complex(1, 0), trace.Complex64, true)))
		},
		want: "{ lambda ; a:c64[3]. let b:c64[3] = mul a (1+0j):c64[] in (b,) }",
	}, {
		name: "x/1, neg(neg x), not(not x), copy, integer_pow y=1, max(x, x) are x",
		build: func(b *jb) *trace.Jaxpr {
			x, n := b.in(f32, 3), b.in(i32, 3)
			return b.build(
				b.op("div", nil, x, lit(t, 1.0, f32, true)),
				b.op("neg", nil, b.op("neg", nil, x)),
				b.op("not", nil, b.op("not", nil, n)),
				b.op("copy", nil, x),
				b.op("integer_pow", trace.Params{"y": 1}, x),
				b.op("max", nil, x, x))
		},
		want: "{ lambda ; a:f32[3] b:i32[3]. let\n    _:f32[3] = neg a\n    _:i32[3] = not b\n  in (a, a, b, a, a, a) }",
	}, {
		name: "no-op conversions and index maps go; a conversion that changes the weak flag stays",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 2, 3)
			return b.build(
				b.op("convert_element_type", convertP(f32), x),
				b.op("convert_element_type", trace.Params{"new_dtype": f32, "weak_type": true}, x),
				b.op("reshape", reshapeP(2, 3), x),
				b.op("broadcast_in_dim", bcastP([]int{2, 3}, 0, 1), x),
				b.op("transpose", trace.Params{"permutation": []int{0, 1}}, x),
				b.op("squeeze", dimsP(), x),
				b.op("rev", dimsP(), x),
				b.op("slice", sliceP([]int{0, 0}, []int{2, 3}), x),
				b.op("pad", trace.Params{"padding_config": trace.PaddingConfig{{}, {}}}, x, lit(t, 0.0, f32, false)),
				b.op("concatenate", trace.Params{"dimension": 0}, x),
				b.op("reduce_sum", axesP(), x))
		},
		want: "{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=True] a\n  in (a, b, a, a, a, a, a, a, a, a, a) }",
	}, {
		name: "chains of reshapes, broadcasts and transposes become one",
		build: func(b *jb) *trace.Jaxpr {
			x := b.in(f32, 2, 3)
			r := b.op("reshape", reshapeP(3, 2), b.op("reshape", reshapeP(6), x))
			v := b.in(f32, 4)
			bb := b.op("broadcast_in_dim", bcastP([]int{5, 4, 2}, 1, 2), b.op("broadcast_in_dim", bcastP([]int{4, 1}, 0), v))
			tt := b.op("transpose", trace.Params{"permutation": []int{1, 0}}, b.op("transpose", trace.Params{"permutation": []int{1, 0}}, x))
			z := b.in(f32, 2, 3, 4)
			t3 := b.op("transpose", trace.Params{"permutation": []int{2, 0, 1}}, b.op("transpose", trace.Params{"permutation": []int{1, 2, 0}}, z))
			t4 := b.op("transpose", trace.Params{"permutation": []int{1, 0, 2}}, b.op("transpose", trace.Params{"permutation": []int{1, 2, 0}}, z))
			return b.build(r, bb, tt, t3, t4)
		},
		want: "{ lambda ; a:f32[2,3] b:f32[4] c:f32[2,3,4]. let\n    _:f32[6] = reshape[new_sizes=(6,)] a\n    d:f32[3,2] = reshape[new_sizes=(3, 2)] a\n    _:f32[4,1] = broadcast_in_dim[broadcast_dimensions=(0,) shape=(4, 1)] b\n    e:f32[5,4,2] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(5, 4, 2)] b\n    _:f32[3,2] = transpose[permutation=(1, 0)] a\n    _:f32[3,4,2] = transpose[permutation=(1, 2, 0)] c\n    _:f32[3,4,2] = transpose[permutation=(1, 2, 0)] c\n    f:f32[4,3,2] = transpose[permutation=(2, 1, 0)] c\n  in (d, e, a, c, f) }",
	}, {
		name: "select_n of equal cases, or with a literal selector, is a case",
		build: func(b *jb) *trace.Jaxpr {
			p, x, y := b.in(trace.Bool, 3), b.in(f32, 3), b.in(f32, 3)
			return b.build(b.op("select_n", nil, p, x, x), b.op("select_n", nil, lit(t, true, trace.Bool, false), x, y))
		},
		want: "{ lambda ; a:bool[3] b:f32[3] c:f32[3]. let  in (b, c) }",
	}, {
		name: "elementwise ops on splats become the scalar op, broadcast once; index maps of splats are splats",
		build: func(b *jb) *trace.Jaxpr {
			two := b.op("broadcast_in_dim", bcastP([]int{2, 3}), lit(t, 2.0, f32, false))
			three := b.op("broadcast_in_dim", bcastP([]int{2, 3}), lit(t, 3.0, f32, false))
			m := b.op("mul", nil, two, three)
			return b.build(b.op("reshape", reshapeP(6), m))
		},
		want: "{ lambda ; . let\n    _:f32[2,3] = broadcast_in_dim[broadcast_dimensions=() shape=(2, 3)] 2.0:f32[]\n    _:f32[2,3] = broadcast_in_dim[broadcast_dimensions=() shape=(2, 3)] 3.0:f32[]\n    a:f32[] = mul 2.0:f32[] 3.0:f32[]\n    _:f32[2,3] = broadcast_in_dim[broadcast_dimensions=() shape=(2, 3)] a\n    b:f32[6] = broadcast_in_dim[broadcast_dimensions=() shape=(6,)] a\n  in (b,) }",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := runJaxprPass(t, simplify, tc.build(newJB(t)), Options{})
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
