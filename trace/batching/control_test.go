package batching_test

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/batching"
)

// The checker for control flow and nested jit: each construct with its
// predicate (index) batched and unbatched, its consts, carries and xs
// batched or not; and vmap of vmap of each.

// jb builds jaxprs in tests.
type jb struct {
	t testing.TB
	b *trace.Builder
}

func newJB(t testing.TB) *jb { return &jb{t, trace.NewBuilder()} }

func (j *jb) in(aval string) *trace.Var { return j.b.Input(av(aval)) }

func (j *jb) bind(prim string, p trace.Params, in ...trace.Atom) []*trace.Var {
	j.t.Helper()
	if p == nil {
		p = trace.Params{}
	}
	outs, err := j.b.Bind(prim, in, p, trace.Pos{File: "check.star", Line: 2, Col: 3})
	if err != nil {
		j.t.Fatalf("%s: %v", prim, err)
	}
	return outs
}

func (j *jb) one(prim string, p trace.Params, in ...trace.Atom) trace.Atom {
	return j.bind(prim, p, in...)[0]
}

func (j *jb) lit(v any, dt trace.DType) trace.Atom {
	l, err := trace.NewLiteral(v, dt, false)
	if err != nil {
		j.t.Fatal(err)
	}
	return l
}

func (j *jb) build(outs ...trace.Atom) *trace.Jaxpr {
	j.t.Helper()
	jx, err := j.b.Build(outs)
	if err != nil {
		j.t.Fatal(err)
	}
	if err := jx.Verify(); err != nil {
		j.t.Fatalf("%v\n%s", err, jx)
	}
	return jx
}

// body builds a sub-jaxpr with inputs of the given avals.
func body(t testing.TB, avals []string, fn func(b *jb, in []*trace.Var) []trace.Atom) *trace.Jaxpr {
	b := newJB(t)
	in := make([]*trace.Var, len(avals))
	for i, a := range avals {
		in[i] = b.in(a)
	}
	return b.build(fn(b, in)...)
}

type controlCase struct {
	name string
	j    *trace.Jaxpr
	in   []operand
}

func controlCases(t testing.TB) []controlCase {
	var cs []controlCase

	// cond with two branches, one output depending on the branch and one
	// only on y in one branch.
	br0 := body(t, []string{"f32[3]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
		return []trace.Atom{b.one("add", nil, in[0], in[1]), in[1]}
	})
	br1 := body(t, []string{"f32[3]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
		return []trace.Atom{b.one("mul", nil, b.one("sin", nil, in[0]), in[1]), b.one("neg", nil, in[1])}
	})
	br2 := body(t, []string{"f32[3]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
		return []trace.Atom{in[0], b.one("cos", nil, in[0])}
	})
	for _, branches := range [][]*trace.Jaxpr{{br0, br1}, {br0, br1, br2}} {
		b := newJB(t)
		idx, x, y := b.in("i32[]"), b.in("f32[3]"), b.in("f32[3]")
		outs := b.bind("cond", trace.Params{"branches": branches}, idx, x, y)
		name := "cond"
		if len(branches) == 3 {
			name = "switch"
		}
		cs = append(cs, controlCase{name, b.build(atomsOf(outs)...),
			ranged(ops("i32[]", "f32[3]", "f32[3]"), 0, 0, float64(len(branches)-1))})
	}

	// while i < n: i += 1; x = x*0.5 + s. n is the condition's const: when
	// it is batched, the predicate is.
	{
		cond := body(t, []string{"i32[]", "i32[]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("lt", nil, in[1], in[0])}
		})
		step := body(t, []string{"f32[3]", "i32[]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			half := b.one("mul", nil, in[2], b.lit(0.5, trace.Float32))
			return []trace.Atom{b.one("add", nil, in[1], b.lit(1, trace.Int32)), b.one("add", nil, half, in[0])}
		})
		b := newJB(t)
		n, s, i, x := b.in("i32[]"), b.in("f32[3]"), b.in("i32[]"), b.in("f32[3]")
		outs := b.bind("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 1, "body_jaxpr": step, "body_nconsts": 1}, n, s, i, x)
		cs = append(cs, controlCase{"while", b.build(atomsOf(outs)...),
			ranged(ranged(ops("i32[]", "f32[3]", "i32[]", "f32[3]"), 0, 0, 5), 2, 0, 2)})
	}
	// while sum(x) < 8: x = x + 1 — the predicate depends on the carry.
	{
		cond := body(t, []string{"f32[2]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("lt", nil, b.one("reduce_sum", trace.Params{"axes": []int{0}}, in[0]), b.lit(8.0, trace.Float32))}
		})
		step := body(t, []string{"f32[2]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("add", nil, in[0], b.lit(1.0, trace.Float32))}
		})
		b := newJB(t)
		x := b.in("f32[2]")
		outs := b.bind("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": step, "body_nconsts": 0}, x)
		cs = append(cs, controlCase{"while_carry_predicate", b.build(atomsOf(outs)...), ops("f32[2]")})
	}

	// scan: acc = acc*c + x; y = sin(acc), forwards and in reverse.
	for _, reverse := range []bool{false, true} {
		step := body(t, []string{"f32[3]", "f32[3]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			acc := b.one("add", nil, b.one("mul", nil, in[1], in[0]), in[2])
			return []trace.Atom{acc, b.one("sin", nil, acc)}
		})
		b := newJB(t)
		c, acc, xs := b.in("f32[3]"), b.in("f32[3]"), b.in("f32[4,3]")
		outs := b.bind("scan", trace.Params{"jaxpr": step, "length": 4, "reverse": reverse, "num_consts": 1, "num_carry": 1, "unroll": 1}, c, acc, xs)
		name := "scan"
		if reverse {
			name = "scan_reverse"
		}
		cs = append(cs, controlCase{name, b.build(atomsOf(outs)...), ranged(ops("f32[3]", "f32[3]", "f32[4,3]"), 0, -1, 1)})
	}
	// fori_loop(0, 3, lambda i, x: x * a + i): a scan over no xs carrying
	// (i, x).
	{
		step := body(t, []string{"f32[2]", "i32[]", "f32[2]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			fi := b.one("convert_element_type", trace.Params{"new_dtype": trace.Float32, "weak_type": false}, in[1])
			return []trace.Atom{b.one("add", nil, in[1], b.lit(1, trace.Int32)), b.one("add", nil, b.one("mul", nil, in[2], in[0]), fi)}
		})
		b := newJB(t)
		a, x := b.in("f32[2]"), b.in("f32[2]")
		outs := b.bind("scan", trace.Params{"jaxpr": step, "length": 3, "reverse": false, "num_consts": 1, "num_carry": 2, "unroll": 1}, a, b.lit(0, trace.Int32), x)
		cs = append(cs, controlCase{"fori_loop", b.build(outs[1]), ops("f32[2]", "f32[2]")})
	}

	// A nested jit.
	{
		inner := body(t, []string{"f32[3]", "f32[]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("mul", nil, b.one("sin", nil, in[0]), in[1]), in[1]}
		})
		b := newJB(t)
		x, y := b.in("f32[3]"), b.in("f32[]")
		outs := b.bind("jit", trace.Params{"name": trace.Ident("f"), "jaxpr": inner}, x, y)
		cs = append(cs, controlCase{"jit", b.build(atomsOf(outs)...), ops("f32[3]", "f32[]")})
	}

	// The autodiff calls: checkpoint, and custom_jvp/custom_vjp calls with
	// their rules (which batching must carry along, not drop).
	{
		inner := body(t, []string{"f32[3]", "f32[]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("mul", nil, b.one("sin", nil, in[0]), in[1])}
		})
		rule := body(t, []string{"f32[3]", "f32[]", "f32[3]", "f32[]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("mul", nil, b.one("sin", nil, in[0]), in[1]), in[2]}
		})
		fwd := body(t, []string{"f32[3]", "f32[]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("mul", nil, b.one("sin", nil, in[0]), in[1]), b.one("cos", nil, in[0])}
		})
		bwd := body(t, []string{"f32[3]", "f32[3]"}, func(b *jb, in []*trace.Var) []trace.Atom {
			return []trace.Atom{b.one("mul", nil, in[0], in[1]), b.one("reduce_sum", trace.Params{"axes": []int{0}}, in[1])}
		})
		for _, c := range []struct {
			prim   string
			params trace.Params
		}{
			{"checkpoint", trace.Params{"jaxpr": inner, "prevent_cse": true, "differentiated": false, "policy": nil}},
			{"custom_jvp_call", trace.Params{"call_jaxpr": inner, "jvp_jaxpr": rule, "num_consts": 0, "symbolic_zeros": false}},
			{"custom_vjp_call", trace.Params{"call_jaxpr": inner, "fwd_jaxpr": fwd, "bwd_jaxpr": bwd, "num_res": 1, "symbolic_zeros": false}},
		} {
			b := newJB(t)
			x, y := b.in("f32[3]"), b.in("f32[]")
			outs := b.bind(c.prim, c.params, x, y)
			cs = append(cs, controlCase{c.prim, b.build(atomsOf(outs)...), ops("f32[3]", "f32[]")})
		}
	}
	return cs
}

func TestControlFlowBatching(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, c := range controlCases(t) {
		t.Run(c.name, func(t *testing.T) { checkBatching(t, r, c.j, c.in) })
	}
}

// TestNestedVmap batches a batched jaxpr again: vmap(vmap(f)) equals f
// per element of both batches.
func TestNestedVmap(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	cases := controlCases(t)
	cases = append(cases, controlCase{"dot_general", oneEqn(t, "dot_general", trace.Params{
		"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
		"precision":         nil, "preferred_element_type": nil,
	}, ops("f32[2,3]", "f32[3]")), ops("f32[2,3]", "f32[3]")})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The inner vmap batches the last operand along its axis 0 and
			// the first along -1 (None for a scalar).
			dims := make([]int, len(c.in))
			for i := range dims {
				dims[i] = trace.NotBatched
			}
			dims[len(dims)-1] = 0
			if dims[0] == trace.NotBatched && c.in[0].aval.Rank() > 0 {
				dims[0] = c.in[0].aval.Rank()
			}
			inner, err := batching.Jaxpr(c.j, 2, dims, make([]int, len(c.j.OutVars)))
			if err != nil {
				t.Fatal(err)
			}
			in := slices.Clone(c.in)
			for i, d := range dims {
				if d != trace.NotBatched {
					in[i].aval = in[i].aval.WithShape(slices.Insert(slices.Clone(in[i].aval.Shape), d, 2))
				}
			}
			checkBatching(t, r, inner, in)
		})
	}
}
