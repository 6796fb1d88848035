package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Helpers for kernel tests: build buffers from Go values, apply one
// primitive through the eager path (jit.ApplyPrimitive), read results back.

// testDevice is cpu:0 (a function: package variables are initialised
// before the init function that registers the backend).
func testDevice() jit.Device {
	d, err := jit.LookupDevice("cpu:0")
	if err != nil {
		panic(err)
	}
	return d
}

// bufferOf makes a buffer of dtype dt and shape from values (bool, int,
// int64 or float64 each), converting as convert_element_type would.
func bufferOf(t testing.TB, dt trace.DType, shape []int, values ...any) *Buffer {
	t.Helper()
	aval := trace.AVal{Shape: shape, DType: dt}
	if len(values) != aval.Size() {
		t.Fatalf("bufferOf: %d values for %s", len(values), aval)
	}
	b := newBuffer(testDevice().(*Device), aval)
	for i, v := range values {
		if x, ok := v.(int); ok {
			v = int64(x)
		}
		if err := setElement(b, i, v); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// apply runs prim eagerly and returns its results.
func apply(t testing.TB, prim string, params trace.Params, in ...*Buffer) []*Buffer {
	t.Helper()
	out, err := applyErr(prim, params, in...)
	if err != nil {
		t.Fatalf("%s: %v", prim, err)
	}
	return out
}

func applyErr(prim string, params trace.Params, in ...*Buffer) ([]*Buffer, error) {
	p := trace.Lookup(prim)
	if p == nil {
		return nil, fmt.Errorf("unknown primitive %s", prim)
	}
	if params == nil {
		params = trace.Params{}
	}
	args := make([]jit.Buffer, len(in))
	for i, b := range in {
		args[i] = b
	}
	res, err := jit.ApplyPrimitive(testDevice(), p, params, args)
	if err != nil {
		return nil, err
	}
	out := make([]*Buffer, len(res))
	for i, r := range res {
		out[i] = r.(*Buffer)
	}
	return out, nil
}

// elements returns all elements via Buffer.Element.
func elements(b *Buffer) []any {
	out := make([]any, b.Len())
	for i := range out {
		out[i] = b.Element(i)
	}
	return out
}

// checkElements compares a buffer with expected values exactly (floats by
// bits, so -0.0 and nan are checked too: any nan matches any nan).
func checkElements(t testing.TB, what string, b *Buffer, want ...any) {
	t.Helper()
	got := elements(b)
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		w := want[i]
		if x, ok := w.(int); ok {
			w = int64(x)
		}
		if !sameValue(got[i], w) {
			t.Errorf("%s: element %d = %v (%T), want %v (%T)", what, i, got[i], got[i], w, w)
		}
	}
}

func sameValue(a, b any) bool {
	fa, aok := a.(float64)
	fb, bok := b.(float64)
	if aok && bok {
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return math.IsNaN(fa) && math.IsNaN(fb)
		}
		return math.Float64bits(fa) == math.Float64bits(fb)
	}
	return a == b
}

func TestConvertElementType(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		from, to trace.DType
		in, want []any
	}{
		{trace.Float32, trace.Int32, []any{1.9, -1.9, nan, inf, -inf, 3e9, -0.0},
			[]any{1, -1, 0, math.MaxInt32, math.MinInt32, math.MaxInt32, 0}},
		{trace.Float64, trace.Uint8, []any{-1.0, 255.5, 256.0, 7.0}, []any{0, 255, 255, 7}},
		{trace.Int32, trace.Int8, []any{127, 128, -129, 255}, []any{127, -128, 127, -1}},
		{trace.Int32, trace.Uint32, []any{-1, 5}, []any{int64(4294967295), 5}},
		{trace.Float64, trace.Float16, []any{1.0 + 1.0/2048, 65520.0, 1e-8, -0.0}, []any{1.0, inf, 0.0, -0.0}},
		{trace.Float32, trace.BFloat16, []any{1.00390625, 3.0}, []any{1.0, 3.0}},
		{trace.Float32, trace.Bool, []any{0.0, -0.0, nan, 0.5}, []any{false, false, true, true}},
		{trace.Bool, trace.Float32, []any{true, false}, []any{1.0, 0.0}},
		{trace.Int64, trace.Float32, []any{int64(1) << 40, 16777217}, []any{float64(int64(1) << 40), 16777216.0}},
		{trace.Uint8, trace.Int16, []any{200}, []any{200}},
	}
	for _, tt := range tests {
		what := fmt.Sprintf("%s->%s", tt.from, tt.to)
		in := bufferOf(t, tt.from, []int{len(tt.in)}, tt.in...)
		out := apply(t, "convert_element_type", trace.Params{"new_dtype": tt.to, "weak_type": false}, in)
		if out[0].DType() != tt.to {
			t.Fatalf("%s: result dtype %s", what, out[0].DType())
		}
		checkElements(t, what, out[0], tt.want...)
	}
}
