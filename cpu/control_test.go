package cpu

import (
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Control flow follows the plan too: TestExecuteFollowsPlan runs these
// fused and planned against unfused and unplanned, and checks that an
// execution allocates exactly what memory_analysis reports (nothing per
// iteration).
func init() { planCases = append(planCases, controlPlanCases...) }

// body builds a sub-jaxpr with inputs of the given avals.
func body(t testing.TB, avals []trace.AVal, fn func(jb *jaxprBuilder, in []*trace.Var) []trace.Atom) *trace.Jaxpr {
	jb := newJaxprBuilder(t)
	in := make([]*trace.Var, len(avals))
	for i, a := range avals {
		in[i] = jb.b.Input(a)
	}
	j, err := jb.b.Build(fn(jb, in))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

var (
	i32Scalar = trace.AVal{Shape: trace.Shape{}, DType: trace.Int32}
	boolAVal  = trace.AVal{Shape: trace.Shape{}, DType: trace.Bool}
)

func f32s(n ...int) trace.AVal { return trace.AVal{Shape: n, DType: trace.Float32} }

// fFor is the study's f_for: fori_loop(0, 4, lambda i, x: x*x + 1, x) as
// a scan carrying (i, x), unrolled k times.
func fFor(k int) func(jb *jaxprBuilder) *trace.Jaxpr {
	return func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, planN)
		b := body(jb.t, []trace.AVal{i32Scalar, f32s(planN)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			sq := ib.bind("mul", nil, in[1], in[1])
			// keep values bounded: x*x*0.25 + 0.5
			return []trace.Atom{ib.bind("add", nil, in[0], ib.lit(1, trace.Int32)),
				ib.bind("add", nil, ib.bind("mul", nil, sq, f32Lit(ib, 0.25)), f32Lit(ib, 0.5))}
		})
		outs := jb.bindAll("scan", trace.Params{"jaxpr": b, "length": 4, "reverse": false, "num_consts": 0,
			"num_carry": 2, "unroll": k}, jb.lit(0, trace.Int32), x)
		return jb.build(outs[0], outs[1])
	}
}

// newton: while i < 25: x = 0.5*(x + a/x); consts a, carry (i, x).
func newton(jb *jaxprBuilder) *trace.Jaxpr {
	a := jb.input(trace.Float32, 64)
	x0 := jb.bind("abs", nil, a)
	cond := body(jb.t, []trace.AVal{i32Scalar, f32s(64)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
		return []trace.Atom{ib.bind("lt", nil, in[0], ib.lit(25, trace.Int32))}
	})
	b := body(jb.t, []trace.AVal{f32s(64), i32Scalar, f32s(64)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
		q := ib.bind("div", nil, in[0], in[2])
		return []trace.Atom{ib.bind("add", nil, in[1], ib.lit(1, trace.Int32)),
			ib.bind("mul", nil, ib.bind("add", nil, in[2], q), f32Lit(ib, 0.5))}
	})
	absA := jb.bind("abs", nil, a)
	outs := jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": b, "body_nconsts": 1},
		absA, jb.lit(0, trace.Int32), jb.bind("add", nil, x0, f32Lit(jb, 1)))
	return jb.build(outs[1])
}

// cumsum: a reversed scan with xs, ys, a const and a swapped pair of
// carries (which need spares).
func cumsum(k int) func(jb *jaxprBuilder) *trace.Jaxpr {
	return func(jb *jaxprBuilder) *trace.Jaxpr {
		xs := jb.input(trace.Float32, 7, 16)
		c := jb.input(trace.Float32, 16)
		b := body(jb.t, []trace.AVal{f32s(16), f32s(16), f32s(16), f32s(16), f32s(16)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			s := ib.bind("add", nil, in[1], in[4])
			return []trace.Atom{s, in[3], in[2], ib.bind("mul", nil, s, in[0]), in[4]}
		})
		outs := jb.bindAll("scan", trace.Params{"jaxpr": b, "length": 7, "reverse": true, "num_consts": 1,
			"num_carry": 3, "unroll": k}, c, jb.broadcast(f32Lit(jb, 0), []int{16}), c, jb.bind("neg", nil, c), xs)
		return jb.build(outs...)
	}
}

var controlPlanCases = []planCase{
	{name: "f_for rolled", build: fFor(1)},
	{name: "f_for unroll=3", build: fFor(3)},
	{name: "f_for unrolled", build: fFor(4)},
	{name: "newton while", build: newton},
	{name: "reverse cumsum scan", build: cumsum(1)},
	{name: "reverse cumsum scan unroll=3", build: cumsum(3)},
	{name: "switch", build: func(jb *jaxprBuilder) *trace.Jaxpr {
		idx := jb.input(trace.Int32)
		x := jb.input(trace.Float32, 32)
		var branches []*trace.Jaxpr
		for _, prim := range []string{"sin", "exp", "neg"} {
			branches = append(branches, body(jb.t, []trace.AVal{f32s(32)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
				return []trace.Atom{ib.bind(prim, nil, in[0]), in[0]}
			}))
		}
		clamped := jb.bind("clamp", nil, jb.lit(0, trace.Int32), idx, jb.lit(2, trace.Int32))
		outs := jb.bindAll("cond", trace.Params{"branches": branches}, clamped, x)
		return jb.build(outs...)
	}},
	{name: "scan inside while", build: func(jb *jaxprBuilder) *trace.Jaxpr {
		x := jb.input(trace.Float32, 3, 8)
		inner := body(jb.t, []trace.AVal{f32s(8), f32s(8)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("add", nil, in[0], ib.bind("sin", nil, in[1]))}
		})
		cond := body(jb.t, []trace.AVal{i32Scalar, f32s(8)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			return []trace.Atom{ib.bind("lt", nil, in[0], ib.lit(3, trace.Int32))}
		})
		b := body(jb.t, []trace.AVal{f32s(3, 8), i32Scalar, f32s(8)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
			o := ib.bindAll("scan", trace.Params{"jaxpr": inner, "length": 3, "reverse": false, "num_consts": 0,
				"num_carry": 1, "unroll": 1}, in[2], in[0])
			return []trace.Atom{ib.bind("add", nil, in[1], ib.lit(1, trace.Int32)), o[0]}
		})
		outs := jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": b, "body_nconsts": 1},
			x, jb.lit(0, trace.Int32), jb.broadcast(f32Lit(jb, 0), []int{8}))
		return jb.build(outs...)
	}},
}

// Newton's iteration converges to sqrt(|a|) + ... : check the values, not
// only fused == unfused.
func TestNewtonWhileLoop(t *testing.T) {
	jb := newJaxprBuilder(t)
	j := newton(jb)
	p, err := jit.CompileWith(j, jit.OptionsFor(testDevice()))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]any, 64)
	for i := range vals {
		vals[i] = float64(i*i) * 0.37
	}
	out, err := exe.Execute([]jit.Buffer{bufferOf(t, trace.Float32, []int{64}, vals...)}, jit.NoHost)
	if err != nil {
		t.Fatal(err)
	}
	b := out[0].(*Buffer)
	for i := range 64 {
		got := b.Element(i).(float64)
		want := math.Sqrt(vals[i].(float64))
		if math.Abs(got-want) > 1e-5*max(1, want) {
			t.Errorf("sqrt(%g) = %g, want %g", vals[i], got, want)
		}
	}
}

// A loop's iterations allocate nothing: 10^6 iterations of an empty body.
func BenchmarkForiLoopEmptyBody(b *testing.B) { benchmarkFori(b, false) }

// 10^6 iterations updating a 4-element carry (x*0.5 + 1).
func BenchmarkForiLoop4Elements(b *testing.B) { benchmarkFori(b, true) }

func benchmarkFori(b *testing.B, update bool) {
	const steps = 1_000_000
	jb := newJaxprBuilder(b)
	x := jb.input(trace.Float32, 4)
	bd := body(b, []trace.AVal{i32Scalar, f32s(4)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
		next := ib.bind("add", nil, in[0], ib.lit(1, trace.Int32))
		if !update {
			return []trace.Atom{next, in[1]}
		}
		return []trace.Atom{next, ib.bind("add", nil, ib.bind("mul", nil, in[1], f32Lit(ib, 0.5)), f32Lit(ib, 1))}
	})
	outs := jb.bindAll("scan", trace.Params{"jaxpr": bd, "length": steps, "reverse": false, "num_consts": 0,
		"num_carry": 2, "unroll": 1}, jb.lit(0, trace.Int32), x)
	j := jb.build(outs[1])
	p, err := jit.CompileWith(j, jit.OptionsFor(testDevice()))
	if err != nil {
		b.Fatal(err)
	}
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		b.Fatal(err)
	}
	in := []jit.Buffer{bufferOf(b, trace.Float32, []int{4}, 1.0, 2.0, 3.0, 4.0)}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := exe.Execute(in, jit.NoHost); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/steps, "ns/iter")
}

// Unrolled loops compute what rolled ones do.
func TestUnrolledEqualsRolled(t *testing.T) {
	runOn := func(build func(*jaxprBuilder) *trace.Jaxpr, in []*Buffer) []*Buffer {
		j := build(newJaxprBuilder(t))
		p, err := jit.CompileWith(j, jit.OptionsFor(testDevice()))
		if err != nil {
			t.Fatal(err)
		}
		return execute(t, p, in)
	}
	xs := make([]any, 7*16)
	c := make([]any, 16)
	for i := range xs {
		xs[i] = float64(i%13) - 4.5
	}
	for i := range c {
		c[i] = 0.25 * float64(i)
	}
	scanIn := []*Buffer{bufferOf(t, trace.Float32, []int{7, 16}, xs...), bufferOf(t, trace.Float32, []int{16}, c...)}
	fv := make([]any, planN)
	for i := range fv {
		fv[i] = float64(i%7) * 0.1
	}
	forIn := []*Buffer{bufferOf(t, trace.Float32, []int{planN}, fv...)}
	for _, tc := range []struct {
		name          string
		rolled, other func(*jaxprBuilder) *trace.Jaxpr
		in            []*Buffer
	}{
		{"f_for unroll=2", fFor(1), fFor(2), forIn},
		{"f_for unroll=3", fFor(1), fFor(3), forIn},
		{"f_for unroll=4", fFor(1), fFor(4), forIn},
		{"scan unroll=2", cumsum(1), cumsum(2), scanIn},
		{"scan unroll=3", cumsum(1), cumsum(3), scanIn},
		{"scan unroll=7", cumsum(1), cumsum(7), scanIn},
		{"scan unroll=9", cumsum(1), cumsum(9), scanIn},
	} {
		want, got := runOn(tc.rolled, tc.in), runOn(tc.other, tc.in)
		for i := range want {
			if !sameBuffers(got[i], want[i]) {
				t.Errorf("%s: output %d differs: %s", tc.name, i, firstDifference(got[i], want[i]))
			}
		}
	}
}
