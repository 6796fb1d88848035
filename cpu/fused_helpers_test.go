package cpu

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Helpers for fused-kernel tests: build a jaxpr with trace.Builder, run it
// once as one hand-made fused kernel and once unfused (an OpaqueKernel per
// equation, jit.Compile's cut), and compare the results.

type jaxprBuilder struct {
	t testing.TB
	b *trace.Builder
}

func newJaxprBuilder(t testing.TB) *jaxprBuilder {
	return &jaxprBuilder{t: t, b: trace.NewBuilder()}
}

func (jb *jaxprBuilder) input(dt trace.DType, shape ...int) *trace.Var {
	return jb.b.Input(trace.AVal{Shape: shape, DType: dt})
}

// lit is a strongly typed scalar literal.
func (jb *jaxprBuilder) lit(v any, dt trace.DType) *trace.Literal {
	l, err := trace.NewLiteral(v, dt, false)
	if err != nil {
		jb.t.Fatal(err)
	}
	return l
}

// bind applies prim and returns its first result.
func (jb *jaxprBuilder) bind(prim string, params trace.Params, in ...trace.Atom) *trace.Var {
	return jb.bindAll(prim, params, in...)[0]
}

func (jb *jaxprBuilder) bindAll(prim string, params trace.Params, in ...trace.Atom) []*trace.Var {
	jb.t.Helper()
	out, err := jb.b.Bind(prim, in, params, trace.Pos{})
	if err != nil {
		jb.t.Fatalf("bind %s: %v", prim, err)
	}
	return out
}

func (jb *jaxprBuilder) broadcast(x trace.Atom, shape []int, dims ...int) *trace.Var {
	if dims == nil {
		dims = []int{}
	}
	return jb.bind("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, x)
}

func (jb *jaxprBuilder) reduce(prim string, x trace.Atom, axes ...int) *trace.Var {
	if axes == nil {
		axes = []int{}
	}
	return jb.bind(prim, trace.Params{"axes": axes}, x)
}

func (jb *jaxprBuilder) convert(x trace.Atom, dt trace.DType) *trace.Var {
	return jb.bind("convert_element_type", trace.Params{"new_dtype": dt, "weak_type": false}, x)
}

func (jb *jaxprBuilder) build(outs ...*trace.Var) *trace.Jaxpr {
	atoms := make([]trace.Atom, len(outs))
	for i, v := range outs {
		atoms[i] = v
	}
	j, err := jb.b.Build(atoms)
	if err != nil {
		jb.t.Fatal(err)
	}
	return j
}

// fusedProgramOf puts every equation of j into one kernel of kind.
func fusedProgramOf(j *trace.Jaxpr, kind jit.KernelKind, shape trace.Shape) *jit.Program {
	k := &jit.Kernel{Kind: kind, Shape: shape, Eqns: j.Eqns,
		In: append(append([]*trace.Var(nil), j.ConstVars...), j.InVars...)}
	for _, a := range j.OutVars {
		k.Out = append(k.Out, a.(*trace.Var))
	}
	return &jit.Program{Jaxpr: j, Kernels: []*jit.Kernel{k}}
}

func execute(t testing.TB, p *jit.Program, in []*Buffer) []*Buffer {
	t.Helper()
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		t.Fatal(err)
	}
	args := make([]jit.Buffer, len(in))
	for i, b := range in {
		args[i] = b
	}
	res, err := exe.Execute(args, jit.NoHost)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*Buffer, len(res))
	for i, r := range res {
		out[i] = r.(*Buffer)
	}
	return out
}

// checkFused runs j fused (one kernel of kind over shape, which must
// compile without falling back) and unfused, and requires equal results:
// byte for byte, except that any NaN matches any NaN.
func checkFused(t testing.TB, name string, j *trace.Jaxpr, kind jit.KernelKind, shape trace.Shape, in ...*Buffer) []*Buffer {
	t.Helper()
	p := fusedProgramOf(j, kind, shape)
	if _, err := compileFused(p.Kernels[0]); err != nil {
		t.Fatalf("%s: fused compile: %v", name, err)
	}
	unfused, err := jit.Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	got, want := execute(t, p, in), execute(t, unfused, in)
	for i := range want {
		if !sameBuffers(got[i], want[i]) {
			t.Errorf("%s: output %d differs from unfused: %s", name, i, firstDifference(got[i], want[i]))
		}
	}
	return got
}

func sameBuffers(a, b *Buffer) bool {
	if !a.AVal().Equal(b.AVal()) && !(a.DType() == b.DType() && a.Shape().Equal(b.Shape())) {
		return false
	}
	if bytes.Equal(a.data, b.data) {
		return true
	}
	for i := range a.Len() {
		if !sameElement(a.Element(i), b.Element(i)) {
			return false
		}
	}
	return true
}

func sameElement(x, y any) bool {
	if cx, ok := x.(complex128); ok {
		cy := y.(complex128)
		return sameValue(real(cx), real(cy)) && sameValue(imag(cx), imag(cy))
	}
	return sameValue(x, y)
}

func firstDifference(a, b *Buffer) string {
	if !a.Shape().Equal(b.Shape()) || a.DType() != b.DType() {
		return fmt.Sprintf("%s against %s", a.AVal(), b.AVal())
	}
	for i := range a.Len() {
		if !sameElement(a.Element(i), b.Element(i)) {
			return fmt.Sprintf("element %d of %s: %v, want %v", i, a.AVal(), a.Element(i), b.Element(i))
		}
	}
	return "no element differs"
}

// randomBuffer fills a buffer with values that exercise each dtype: floats
// of mixed signs and magnitudes with a sprinkling of zeros of both signs,
// infinities and NaNs (unless finite), integers over their whole range.
func randomBuffer(t testing.TB, rng *rand.Rand, dt trace.DType, finite bool, shape ...int) *Buffer {
	b := newBuffer(testDevice().(*Device), trace.AVal{Shape: shape, DType: dt})
	for i := range b.Len() {
		var v any
		switch {
		case dt == trace.Bool:
			v = rng.IntN(2) == 1
		case dt.IsInteger():
			// Any bit pattern, wrapped to dt as convert_element_type does.
			v = int64(rng.Uint64())
		case dt.IsComplex():
			v = complex(randomFloat(rng, finite), randomFloat(rng, finite))
		default:
			v = randomFloat(rng, finite)
		}
		if err := setElement(b, i, v); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func randomFloat(rng *rand.Rand, finite bool) float64 {
	switch r := rng.IntN(64); {
	case r == 0:
		return 0
	case r == 1:
		return math.Copysign(0, -1)
	case r == 2 && !finite:
		return math.Inf(1 - 2*rng.IntN(2))
	case r == 3 && !finite:
		return math.NaN()
	}
	return rng.NormFloat64() * math.Exp2(float64(rng.IntN(9)-4))
}
