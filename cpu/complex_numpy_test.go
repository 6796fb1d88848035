package cpu

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// complexTable is testdata/complex_numpy.json (gen_complex.py): NumPy's
// values for the complex primitives.
type complexTable struct {
	NumPy       string `json:"numpy"`
	Elementwise []struct {
		Op    string              `json:"op"`
		DType string              `json:"dtype"`
		In    [][]json.RawMessage `json:"in"`
		Out   []json.RawMessage   `json:"out"`
	} `json:"elementwise"`
	Reductions []struct {
		Op    string            `json:"op"`
		DType string            `json:"dtype"`
		Axis  int               `json:"axis"`
		In    []json.RawMessage `json:"in"`
		RHS   []json.RawMessage `json:"rhs"`
		Out   []json.RawMessage `json:"out"`
	} `json:"reductions"`
}

func loadComplexTable(t *testing.T) complexTable {
	t.Helper()
	data, err := os.ReadFile("testdata/complex_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab complexTable
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	return tab
}

// decodeValue reads a table element: [re, im], a number or a bool.
func decodeValue(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var pair [2]float64
	if json.Unmarshal(raw, &pair) == nil {
		return complex(pair[0], pair[1])
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("bad table value %s", raw)
	}
	return f
}

func decodeValues(t *testing.T, raws []json.RawMessage) []any {
	out := make([]any, len(raws))
	for i, r := range raws {
		out[i] = decodeValue(t, r)
	}
	return out
}

// complexTolerance is the relative error allowed against NumPy: a few ulp
// of the dtype's components (NumPy computes complex64 functions in float32,
// we in float64 rounded once, so both sides carry rounding error).
func complexTolerance(dt trace.DType) float64 {
	if dt.ComplexPart() == trace.Float32 {
		return 8 * 0x1p-23
	}
	return 16 * 0x1p-52
}

// closeTo compares got with NumPy's want relative to |want| (absolutely
// near zero), component errors measured together as a complex distance.
func closeTo(got, want any, tol float64) bool {
	switch w := want.(type) {
	case bool:
		return got == w
	case float64:
		g, ok := got.(float64)
		return ok && math.Abs(g-w) <= tol*math.Max(math.Abs(w), 1e-3)
	case complex128:
		g, ok := got.(complex128)
		return ok && cmplx.Abs(g-w) <= tol*math.Max(cmplx.Abs(w), 1e-3)
	}
	return false
}

var complexTableParams = map[string]trace.Params{"integer_pow": {"y": 3}}

// TestComplexAgainstNumPy runs every complex elementwise primitive eagerly
// and in a fused loop kernel, on complex64 and complex128, against NumPy.
func TestComplexAgainstNumPy(t *testing.T) {
	tab := loadComplexTable(t)
	seen := map[string]bool{}
	for _, c := range tab.Elementwise {
		dt, err := trace.ParseDType(c.DType)
		if err != nil {
			t.Fatal(err)
		}
		params := complexTableParams[c.Op]
		if c.Op == "conj" {
			params = trace.Params{"input_dtype": dt}
		}
		in := make([]*Buffer, len(c.In))
		for i, vals := range c.In {
			in[i] = bufferOf(t, dt, []int{len(vals)}, decodeValues(t, vals)...)
		}
		want := decodeValues(t, c.Out)
		eager := apply(t, c.Op, params, in...)[0]
		fused := runFusedOne(t, c.Op, params, in)
		tol := complexTolerance(trace.ComplexOf(dt))
		for what, got := range map[string]*Buffer{"eager": eager, "fused": fused} {
			for i, g := range elements(got) {
				if !closeTo(g, want[i], tol) {
					t.Errorf("%s %s(%s) element %d: got %v, NumPy %v", what, c.Op, c.DType, i, g, want[i])
				}
			}
		}
		seen[c.Op+"/"+c.DType] = true
	}
	for _, p := range trace.Primitives() {
		if !p.Has(trace.Elementwise) || p.Name == "convert_element_type" || p.Name == "select_n" || p.Name == "copy" {
			continue
		}
		for _, dt := range []trace.DType{trace.Complex64, trace.Complex128} {
			in := make([]trace.AVal, max(p.MinIn, 1))
			for i := range in {
				in[i] = trace.AVal{Shape: trace.Shape{}, DType: dt}
			}
			params := complexTableParams[p.Name]
			if p.Name == "conj" {
				params = trace.Params{"input_dtype": dt}
			}
			if _, _, err := p.Infer(in, params); err == nil && !seen[p.Name+"/"+dt.Name()] {
				t.Errorf("%s accepts %s but the NumPy table has no case for it", p.Name, dt)
			}
		}
	}
}

// runFusedOne runs prim on in as a one-equation loop kernel.
func runFusedOne(t *testing.T, prim string, params trace.Params, in []*Buffer) *Buffer {
	t.Helper()
	jb := newJaxprBuilder(t)
	args := make([]trace.Atom, len(in))
	for i, b := range in {
		args[i] = jb.input(b.DType(), b.Shape()...)
	}
	out := jb.bind(prim, params, args...)
	j := jb.build(out)
	p := fusedProgramOf(j, jit.LoopKernel, out.Aval().Shape)
	if _, err := compileFused(p.Kernels[0]); err != nil {
		t.Fatalf("%s: fused compile: %v", prim, err)
	}
	return execute(t, p, in)[0]
}

// TestComplexReductionsAgainstNumPy: sums, products, cumulative ops and
// matmul of complex arrays.
func TestComplexReductionsAgainstNumPy(t *testing.T) {
	tab := loadComplexTable(t)
	for _, c := range tab.Reductions {
		dt, _ := trace.ParseDType(c.DType)
		x := bufferOf(t, dt, []int{4, 6}, decodeValues(t, c.In)...)
		var got *Buffer
		switch c.Op {
		case "reduce_sum", "reduce_prod":
			got = apply(t, c.Op, trace.Params{"axes": []int{c.Axis}}, x)[0]
		case "cumsum", "cumprod":
			got = apply(t, c.Op, trace.Params{"axis": c.Axis, "reverse": false}, x)[0]
		case "dot_general":
			y := bufferOf(t, dt, []int{6, 3}, decodeValues(t, c.RHS)...)
			dn := trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}}
			got = apply(t, c.Op, trace.Params{"dimension_numbers": dn, "precision": nil, "preferred_element_type": nil}, x, y)[0]
		default:
			t.Fatalf("unknown op %s", c.Op)
		}
		want := decodeValues(t, c.Out)
		what := fmt.Sprintf("%s(%s, axis %d)", c.Op, c.DType, c.Axis)
		if got.Len() != len(want) {
			t.Fatalf("%s: %d elements, want %d", what, got.Len(), len(want))
		}
		for i, g := range elements(got) {
			if !closeTo(g, want[i], 4*complexTolerance(dt)) {
				t.Errorf("%s element %d: got %v, NumPy %v", what, i, g, want[i])
			}
		}
	}
}
