package export_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
)

// gradOf is the jaxpr of grad(j) for a function of one scalar.
func gradOf(j *trace.Jaxpr) (*trace.Jaxpr, error) {
	vg, err := ad.ValueAndGrad(j, []bool{true})
	if err != nil {
		return nil, err
	}
	g := *vg
	g.OutVars = vg.OutVars[len(j.OutVars):]
	return &g, nil
}

// The seed's example under grad: a loaded 7*x^3 serialized with
// vjp_order=3, called inside a program, differentiates three times with
// its stored VJPs (21x^2, 42x, 42 at 0.1), and a fourth time is "No VJP is
// available".
func TestCallUnderGradUpToVJPOrder(t *testing.T) {
	j := newJB(t)
	x := j.in(trace.Float32)
	y := j.one("mul", nil, j.one("mul", nil, j.one("mul", nil, lit(t, 7.0, trace.Float32, true), x), x), x)
	data, err := mustExport(t, "f", j.build(y)).Serialize(3)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := export.Deserialize(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, consts, err := loaded.CallJaxpr()
	if err != nil {
		t.Fatal(err)
	}
	if len(consts) != 0 {
		t.Fatalf("%d constants", len(consts))
	}
	b := trace.NewBuilder()
	in := b.Input(trace.NewAVal(trace.Float32))
	out, err := b.Bind("jit", []trace.Atom{in}, trace.Params{"name": trace.Ident("f"), "jaxpr": body}, trace.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := b.Build([]trace.Atom{out[0]})
	if err != nil {
		t.Fatal(err)
	}
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	arg, err := jit.FromHost(dev, trace.NewAVal(trace.Float32), binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.1)))
	if err != nil {
		t.Fatal(err)
	}
	g := f
	for k, want := range []float32{0.007, 0.21, 4.2, 42} {
		if k > 0 {
			if g, err = gradOf(g); err != nil {
				t.Fatalf("grad order %d: %v", k, err)
			}
		}
		_, exe, err := jit.CompileOn(dev, g)
		if err != nil {
			t.Fatalf("order %d: %v", k, err)
		}
		outs, err := exe.Execute([]jit.Buffer{arg}, jit.NoHost)
		if err != nil {
			t.Fatalf("order %d: %v", k, err)
		}
		raw, _ := jit.ToHost(outs[0])
		if got := math.Float32frombits(binary.LittleEndian.Uint32(raw)); math.Abs(float64(got-want)) > 1e-5*math.Max(1, float64(want)) {
			t.Errorf("order %d: %v, want %v", k, got, want)
		}
	}
	if _, err := gradOf(g); err == nil || !strings.Contains(err.Error(), "No VJP is available") {
		t.Errorf("a fourth grad: %v, want No VJP is available", err)
	}
}
