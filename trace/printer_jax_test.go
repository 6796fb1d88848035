package trace

import (
	"strings"
	"testing"
)

// These cases rebuild jaxprs whose printed text JAX's own test suite pins
// down (tests/pjit_test.py in jax-ml/jax: test_pretty_print and its
// siblings), and expect JAX's text exactly: nested jit bodies named like
// their call sites, shared jaxprs hoisted as `let f = ... in`, name clashes,
// literal outputs, line breaking at 80 columns.

// jitCall binds a nested jit of body.
func (tr *tracer) jitCall(name string, body *Jaxpr, ins ...Atom) []*Var {
	tr.t.Helper()
	return tr.bind("jit", Params{"name": Ident(name), "jaxpr": body}, ins...)
}

func TestPrintMatchesJAX(t *testing.T) {
	f32 := func(tr *tracer, n int) *Var { return tr.in(Float32, n) }
	tests := []struct {
		name  string
		build func(t *testing.T) *Jaxpr
		want  string
	}{
		{
			name: "test_pretty_print",
			build: func(t *testing.T) *Jaxpr {
				sq := newTracer(t)
				x := f32(sq, 1)
				square := sq.build(sq.bind1("integer_pow", Params{"y": 2}, x))
				g := newTracer(t)
				x = f32(g, 1)
				a := g.jitCall("<lambda>", square, x)[0]
				b := g.jitCall("<lambda>", square, x)[0]
				gj := g.build(g.bind1("add", nil, a, b))
				top := newTracer(t)
				x = f32(top, 1)
				return top.build(top.jitCall("<lambda>", gj, x)[0])
			},
			want: `
let lambda = { lambda ; a:f32[1]. let b:f32[1] = integer_pow[y=2] a in (b,) } in
{ lambda ; c:f32[1]. let
    d:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; c:f32[1]. let
          e:f32[1] = jit[name=<lambda> jaxpr=lambda] c
          f:f32[1] = jit[name=<lambda> jaxpr=lambda] c
          d:f32[1] = add e f
        in (d,) }
    ] c
  in (d,) }`,
		},
		{
			name: "test_pretty_print_nested_shared_jaxprs",
			build: func(t *testing.T) *Jaxpr {
				in := newTracer(t)
				x := f32(in, 1)
				inner := in.build(in.bind1("add", nil, x, lit(t, 1.0, Float32, true)))
				out := newTracer(t)
				x = f32(out, 1)
				y := out.jitCall("inner_fn", inner, x)[0]
				z := out.jitCall("inner_fn", inner, x)[0]
				outer := out.build(out.bind1("add", nil, y, z))
				top := newTracer(t)
				x = f32(top, 1)
				a := top.jitCall("outer_fn", outer, x)[0]
				b := top.jitCall("outer_fn", outer, x)[0]
				return top.build(top.bind1("add", nil, a, b))
			},
			want: `
let outer_fn = { lambda ; a:f32[1]. let
    b:f32[1] = jit[name=inner_fn jaxpr=inner_fn] a
    c:f32[1] = jit[name=inner_fn jaxpr=inner_fn] a
    d:f32[1] = add b c
  in (d,) } in
let inner_fn = { lambda ; e:f32[1]. let f:f32[1] = add e 1.0:f32[] in (f,) } in
{ lambda ; g:f32[1]. let
    h:f32[1] = jit[name=outer_fn jaxpr=outer_fn] g
    i:f32[1] = jit[name=outer_fn jaxpr=outer_fn] g
    j:f32[1] = add h i
  in (j,) }`,
		},
		{
			name: "test_pretty_print_pjit_id",
			build: func(t *testing.T) *Jaxpr {
				id := newTracer(t)
				x := f32(id, 1)
				f32(id, 1)
				fj := id.build(x)
				top := newTracer(t)
				y := f32(top, 1)
				r := top.jitCall("<lambda>", fj, y, y)[0]
				return top.build(top.bind1("add", nil, y, r))
			},
			want: `
{ lambda ; a:f32[1]. let
    b:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; a:f32[1] c:f32[1]. let  in (a,) }
    ] a a
    d:f32[1] = add a b
  in (d,) }`,
		},
		{
			name: "test_pretty_print_with_constant_pjit_arg",
			build: func(t *testing.T) *Jaxpr {
				in := newTracer(t)
				x, y := f32(in, 1), in.in(Float32)
				fj := in.build(in.bind1("mul", nil, x, y))
				top := newTracer(t)
				x = f32(top, 1)
				return top.build(top.jitCall("<lambda>", fj, x, lit(t, 1.0, Float32, false))[0])
			},
			want: `
{ lambda ; a:f32[1]. let
    b:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; a:f32[1] c:f32[]. let b:f32[1] = mul a c in (b,) }
    ] a 1.0:f32[]
  in (b,) }`,
		},
		{
			name: "test_pretty_print_with_aliased_args",
			build: func(t *testing.T) *Jaxpr {
				in := newTracer(t)
				x, y, z := f32(in, 1), f32(in, 1), f32(in, 1)
				fj := in.build(in.bind1("mul", nil, in.bind1("mul", nil, x, y), z))
				top := newTracer(t)
				x = f32(top, 1)
				return top.build(top.jitCall("<lambda>", fj, x, x, x)[0])
			},
			want: `
{ lambda ; a:f32[1]. let
    b:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; a:f32[1] c:f32[1] d:f32[1]. let
          e:f32[1] = mul a c
          b:f32[1] = mul e d
        in (b,) }
    ] a a a
  in (b,) }`,
		},
		{
			name: "test_pretty_print_with_literal_outvar",
			build: func(t *testing.T) *Jaxpr {
				in := newTracer(t)
				x := f32(in, 1)
				fj := in.build(lit(t, 2, Int32, false), x)
				top := newTracer(t)
				x = f32(top, 1)
				return top.build(atoms(top.jitCall("<lambda>", fj, x)...)...)
			},
			want: `
{ lambda ; a:f32[1]. let
    b:i32[] c:f32[1] = jit[
      name=<lambda>
      jaxpr={ lambda ; a:f32[1]. let  in (2:i32[], a) }
    ] a
  in (b, c) }`,
		},
		{
			name: "test_pretty_print_with_closure",
			build: func(t *testing.T) *Jaxpr {
				in := newTracer(t)
				y, x := f32(in, 1), f32(in, 1) // the closed-over y comes first
				fj := in.build(in.bind1("mul", nil, x, y))
				g := newTracer(t)
				x, y = f32(g, 1), f32(g, 1)
				a := g.jitCall("f", fj, y, x)[0]
				b := g.jitCall("f", fj, y, y)[0]
				gj := g.build(g.bind1("add", nil, a, b))
				top := newTracer(t)
				x, y = f32(top, 1), f32(top, 1)
				return top.build(top.jitCall("g", gj, x, y)[0])
			},
			want: `
let f = { lambda ; a:f32[1] b:f32[1]. let c:f32[1] = mul b a in (c,) } in
{ lambda ; d:f32[1] e:f32[1]. let
    g:f32[1] = jit[
      name=g
      jaxpr={ lambda ; d:f32[1] e:f32[1]. let
          h:f32[1] = jit[name=f jaxpr=f] e d
          i:f32[1] = jit[name=f jaxpr=f] e e
          g:f32[1] = add h i
        in (g,) }
    ] d e
  in (g,) }`,
		},
		{
			name: "test_pretty_print_with_name_clash",
			build: func(t *testing.T) *Jaxpr {
				identity := func(n int) *Jaxpr {
					id := newTracer(t)
					return id.build(f32(id, n))
				}
				f1, f2 := identity(1), identity(2)
				g := newTracer(t)
				x, y := f32(g, 1), f32(g, 2)
				xx := g.bind1("mul", nil, g.jitCall("f", f1, x)[0], g.jitCall("f", f1, x)[0])
				yy := g.bind1("mul", nil, g.jitCall("f", f2, y)[0], g.jitCall("f", f2, y)[0])
				gj := g.build(g.bind1("add", nil, xx, yy))
				top := newTracer(t)
				x, y = f32(top, 1), f32(top, 2)
				return top.build(top.jitCall("g", gj, x, y)[0])
			},
			want: `
let f = { lambda ; a:f32[1]. let  in (a,) } in
let f1 = { lambda ; b:f32[2]. let  in (b,) } in
{ lambda ; c:f32[1] d:f32[2]. let
    e:f32[2] = jit[
      name=g
      jaxpr={ lambda ; c:f32[1] d:f32[2]. let
          g:f32[1] = jit[name=f jaxpr=f] c
          h:f32[1] = jit[name=f jaxpr=f] c
          i:f32[1] = mul g h
          j:f32[2] = jit[name=f jaxpr=f1] d
          k:f32[2] = jit[name=f jaxpr=f1] d
          l:f32[2] = mul j k
          e:f32[2] = add i l
        in (e,) }
    ] c d
  in (e,) }`,
		},
		{
			name: "test_pretty_print_large_inner_jaxpr_inline",
			build: func(t *testing.T) *Jaxpr {
				one := lit(t, 1, Int32, true)
				small := newTracer(t)
				y := small.in(Int32, 2)
				smallJ := small.build(small.bind1("add", nil, y, one))
				large := newTracer(t)
				y = large.in(Int32, 2)
				for range 11 {
					y = large.bind1("add", nil, y, one)
				}
				largeJ := large.build(y)
				top := newTracer(t)
				x := top.in(Int32, 2)
				x = top.jitCall("inner_jit_small", smallJ, x)[0]
				return top.build(top.jitCall("inner_jit_large", largeJ, x)[0])
			},
			want: `
let inner_jit_large = { lambda ; a:i32[2]. let
    b:i32[2] = add a 1:i32[]
    c:i32[2] = add b 1:i32[]
    d:i32[2] = add c 1:i32[]
    e:i32[2] = add d 1:i32[]
    f:i32[2] = add e 1:i32[]
    g:i32[2] = add f 1:i32[]
    h:i32[2] = add g 1:i32[]
    i:i32[2] = add h 1:i32[]
    j:i32[2] = add i 1:i32[]
    k:i32[2] = add j 1:i32[]
    l:i32[2] = add k 1:i32[]
  in (l,) } in
{ lambda ; m:i32[2]. let
    n:i32[2] = jit[
      name=inner_jit_small
      jaxpr={ lambda ; m:i32[2]. let n:i32[2] = add m 1:i32[] in (n,) }
    ] m
    o:i32[2] = jit[name=inner_jit_large jaxpr=inner_jit_large] n
  in (o,) }`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.build(t).String()
			want := strings.TrimPrefix(tt.want, "\n")
			if got != want {
				t.Errorf("got:\n%s\nwant (JAX):\n%s", got, want)
			}
		})
	}
}
