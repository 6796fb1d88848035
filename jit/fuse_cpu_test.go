package jit_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	_ "github.com/jaxsh/jaxsh/cpu"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// run compiles j with opts for the CPU backend and runs it on args.
func run(t *testing.T, j *trace.Jaxpr, opts jit.Options, args []jit.Buffer) [][]byte {
	t.Helper()
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	p, err := jit.CompileWith(j, opts)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := jit.LookupBackend("cpu").Compile(p, dev)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := exe.Execute(args, jit.NoHost)
	if err != nil {
		t.Fatal(err)
	}
	res := make([][]byte, len(outs))
	for i, b := range outs {
		if res[i], err = jit.ToHost(b); err != nil {
			t.Fatal(err)
		}
	}
	return res
}

// Every study example computes the same values fused as unfused (one
// kernel per equation, each the backend's eager kernel), and under random
// schedules: fusion changes where values live, never what they are.
// Float32 results may differ only by the summation order of reductions.
func TestFusedProgramsComputeWhatUnfusedOnesDo(t *testing.T) {
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cases := jit.StudyJaxprs(t)
	for name, j := range moreJaxprs(t) {
		cases[name] = j
	}
	for name, j := range cases {
		t.Run(name, func(t *testing.T) {
			var args []jit.Buffer
			for _, v := range append(append([]*trace.Var(nil), j.ConstVars...), j.InVars...) {
				a := v.Aval()
				data := make([]byte, a.Size()*a.DType.Size())
				for i := 0; i < a.Size(); i++ {
					binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(rng.Float32()*2-1))
				}
				buf, err := jit.FromHost(dev, a, data)
				if err != nil {
					t.Fatal(err)
				}
				args = append(args, buf)
			}
			want := run(t, j, jit.Options{Optimize: true}, args)
			for _, opts := range []jit.Options{
				{Optimize: true, Fuse: true},
				{Optimize: true, Fuse: true, ShuffleSeed: 7},
				jit.OptionsFor(dev),
			} {
				got := run(t, j, opts, args)
				for i := range want {
					if d := maxRelDiff(got[i], want[i]); d > 1e-5 {
						t.Errorf("%+v: result %d differs by %g relative", opts, i, d)
					}
				}
			}
		})
	}
}

// maxRelDiff compares two float32 arrays, relative to the largest
// magnitude in want.
func maxRelDiff(got, want []byte) float64 {
	scale, diff := 1e-30, 0.0
	for i := 0; i+4 <= len(want); i += 4 {
		w := float64(math.Float32frombits(binary.LittleEndian.Uint32(want[i:])))
		g := float64(math.Float32frombits(binary.LittleEndian.Uint32(got[i:])))
		scale = max(scale, math.Abs(w))
		if math.IsNaN(w) != math.IsNaN(g) {
			return math.Inf(1)
		}
		if !math.IsNaN(w) {
			diff = max(diff, math.Abs(g-w))
		}
	}
	return diff / scale
}

// moreJaxprs are shapes of programs the study does not cover: reductions
// feeding reductions, sibling reductions, outputs read through transposes,
// opaque equations between loops, a long chain stored for two readers.
func moreJaxprs(t *testing.T) map[string]*trace.Jaxpr {
	f32 := trace.Float32
	bind := func(b *trace.Builder, prim string, params trace.Params, in ...trace.Atom) *trace.Var {
		t.Helper()
		out, err := b.Bind(prim, in, params, trace.Pos{})
		if err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	build := func(b *trace.Builder, outs ...trace.Atom) *trace.Jaxpr {
		j, err := b.Build(outs)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	axes := func(a ...int) trace.Params { return trace.Params{"axes": a} }
	out := map[string]*trace.Jaxpr{}
	{
		b := trace.NewBuilder()
		x := b.Input(trace.NewAVal(f32, 300, 4))
		rows := bind(b, "reduce_sum", axes(1), bind(b, "exp", nil, x))
		out["a small reduction feeding a large one"] = build(b, bind(b, "reduce_max", axes(0), rows))
	}
	{
		b := trace.NewBuilder()
		x := b.Input(trace.NewAVal(f32, 64, 100))
		s := bind(b, "reduce_sum", axes(1), x)
		m := bind(b, "reduce_max", axes(1), bind(b, "abs", nil, x))
		out["sibling reductions"] = build(b, s, m, bind(b, "sin", nil, x))
	}
	{
		b := trace.NewBuilder()
		x := b.Input(trace.NewAVal(f32, 48, 48))
		y := bind(b, "sin", nil, x)
		tr := bind(b, "transpose", trace.Params{"permutation": []int{1, 0}}, y)
		out["a result read through a transpose"] = build(b, y, bind(b, "mul", nil, tr, x))
	}
	{
		b := trace.NewBuilder()
		x, w := b.Input(trace.NewAVal(f32, 32, 32)), b.Input(trace.NewAVal(f32, 32, 32))
		dims := trace.Params{"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
			"precision": nil, "preferred_element_type": nil}
		d := bind(b, "dot_general", dims, bind(b, "tanh", nil, x), w)
		e := bind(b, "exp", nil, bind(b, "neg", nil, d))
		out["loops around an opaque product"] = build(b, bind(b, "dot_general", dims, e, w), bind(b, "reduce_sum", axes(0, 1), e))
	}
	{
		b := trace.NewBuilder()
		x := b.Input(trace.NewAVal(f32, 1000))
		v := x
		for i := 0; i < 40; i++ {
			v = bind(b, "sin", nil, v)
		}
		out["a long chain stored for two readers"] = build(b, bind(b, "reduce_sum", axes(0), v), bind(b, "reduce_max", axes(0), bind(b, "neg", nil, v)))
	}
	return out
}
