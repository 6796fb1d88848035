package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// rampBuffer makes a buffer of shape whose element i is f(i).
func rampBuffer(t testing.TB, dt trace.DType, shape []int, f func(i int) any) *Buffer {
	t.Helper()
	n := trace.Shape(shape).Size()
	vals := make([]any, n)
	for i := range vals {
		vals[i] = f(i)
	}
	return bufferOf(t, dt, shape, vals...)
}

// broadcastIndex maps an index of outShape to the row-major index of an
// operand of shape s whose size-1 dimensions broadcast.
func broadcastIndex(i int, outShape, s []int) int {
	idx, stride := 0, 1
	for d := len(outShape) - 1; d >= 0; d-- {
		k := i % outShape[d]
		i /= outShape[d]
		if s[d] != 1 {
			idx += k * stride
			stride *= s[d]
		}
	}
	return idx
}

// Operands with size-1 dimensions broadcast along them (lax's shape rule
// allows it); large outputs run in parallel chunks.
func TestBroadcastAlongSizeOneDimensions(t *testing.T) {
	tests := []struct {
		prim   string
		dt     trace.DType
		shapes [][]int
		out    []int
	}{
		{"add", f32, [][]int{{3, 1}, {1, 4}}, []int{3, 4}},
		{"sub", i32, [][]int{{2, 1, 3}, {2, 4, 1}}, []int{2, 4, 3}},
		{"mul", f64, [][]int{{1, 5, 1, 2}, {3, 5, 7, 2}}, []int{3, 5, 7, 2}},
		{"add", f32, [][]int{{300, 1}, {1, 200}}, []int{300, 200}},     // parallel rows
		{"max", f16, [][]int{{40000, 1}, {40000, 3}}, []int{40000, 3}}, // short rows, 16-bit
		{"lt", i8, [][]int{{1, 9}, {9, 1}}, []int{9, 9}},
		{"add", i16, [][]int{{1, 1}, {1, 6}}, []int{1, 6}}, // all-ones operand: a scalar
	}
	for _, tt := range tests {
		what := fmt.Sprintf("%s %s %v", tt.prim, tt.dt, tt.shapes)
		a := rampBuffer(t, tt.dt, tt.shapes[0], func(i int) any { return float64(i%23) - 11 })
		b := rampBuffer(t, tt.dt, tt.shapes[1], func(i int) any { return float64(i%17) * 0.5 })
		out := apply(t, tt.prim, nil, a, b)[0]
		if !out.Shape().Equal(tt.out) {
			t.Fatalf("%s: shape %v, want %v", what, out.Shape(), tt.out)
		}
		step := max(1, out.Len()/1500) // a sample of large outputs, seams included
		for i := 0; i < out.Len(); i += step {
			x := bufferOf(t, tt.dt, []int{}, a.Element(broadcastIndex(i, tt.out, tt.shapes[0])))
			y := bufferOf(t, tt.dt, []int{}, b.Element(broadcastIndex(i, tt.out, tt.shapes[1])))
			want := apply(t, tt.prim, nil, x, y)[0].Element(0)
			if got := out.Element(i); !sameValue(got, want) {
				t.Fatalf("%s: element %d = %v, want %v", what, i, got, want)
			}
		}
	}
}

// Large arrays split across the worker pool and, for 16-bit floats, into
// widening pieces; every element must come out, including at the seams.
func TestLargeArraysAcrossChunks(t *testing.T) {
	const n = 3*grainElements + 777
	for _, dt := range []trace.DType{f32, f16, bf16, i64, u8} {
		a := rampBuffer(t, dt, []int{n}, func(i int) any { return float64(i % 61) })
		s := bufferOf(t, dt, []int{}, 3)
		out := apply(t, "add", nil, a, s)[0]
		for i := 0; i < n; i++ {
			want := a.Element(i)
			switch w := want.(type) {
			case int64:
				want = int64(i%61 + 3)
			case float64:
				want = w + 3
			}
			if got := out.Element(i); !sameValue(got, want) {
				t.Fatalf("%s add: element %d = %v, want %v", dt, i, got, want)
			}
		}
	}
	// sin on float32 over chunk boundaries agrees with the scalar form.
	x := rampBuffer(t, f32, []int{n}, func(i int) any { return float64(i) * 0.01 })
	out := apply(t, "sin", nil, x)[0]
	for _, i := range []int{0, grainElements - 1, grainElements, 2*grainElements + 5, n - 1} {
		want := float64(float32(math.Sin(x.Element(i).(float64))))
		if d := ulpDistance32(out.Element(i).(float64), want); d > 2 {
			t.Errorf("sin element %d: %v, want %v", i, out.Element(i), want)
		}
	}
}

// TestBlockOpsChainInPlace uses the block-op API as a fused kernel would:
// three ops over one register, in place, with a scalar operand.
func TestBlockOpsChainInPlace(t *testing.T) {
	const n = 1000
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i)*0.01 - 5
	}
	reg := append([]float32(nil), x...)
	two := []float32{2}
	exp, err := elementwiseBlock("exp", nil, dts(f32))
	if err != nil {
		t.Fatal(err)
	}
	mul, err := elementwiseBlock("mul", nil, dts(f32, f32))
	if err != nil {
		t.Fatal(err)
	}
	gt, err := elementwiseBlock("gt", nil, dts(f32, f32))
	if err != nil {
		t.Fatal(err)
	}
	if gt.out[0] != boolean || mul.in[1] != f32 {
		t.Fatalf("layouts: gt out %v, mul in %v", gt.out, mul.in)
	}
	r := bytesOf(reg)
	exp.op([][]byte{r}, [][]byte{r})
	mul.op([][]byte{r}, [][]byte{r, bytesOf(two)}) // scalar second operand
	pred := make([]bool, n)
	gt.op([][]byte{bytesOf(pred)}, [][]byte{r, bytesOf([]float32{1})})
	for i := range x {
		want := float64(float32(float32(math.Exp(float64(x[i]))) * 2))
		if d := ulpDistance32(float64(reg[i]), want); d > 1 {
			t.Fatalf("element %d: %v, want %v", i, reg[i], want)
		}
		if pred[i] != (reg[i] > 1) {
			t.Fatalf("gt element %d: %v for %v", i, pred[i], reg[i])
		}
	}
	// A 16-bit op reports float32 runs: the caller widens and rounds.
	k, err := elementwiseBlock("add", nil, dts(f16, f16))
	if err != nil {
		t.Fatal(err)
	}
	if k.in[0] != f32 || k.out[0] != f32 {
		t.Errorf("float16 add runs in %v -> %v, want float32", k.in, k.out)
	}
	k, err = elementwiseBlock("nextafter", nil, dts(bf16, bf16))
	if err != nil {
		t.Fatal(err)
	}
	if k.in[0] != bf16 || k.out[0] != bf16 {
		t.Errorf("bfloat16 nextafter runs in %v -> %v, want its own layout", k.in, k.out)
	}
}

// A block op rejects an operand run that is neither full nor one element.
func TestBlockOpRejectsMismatchedRuns(t *testing.T) {
	k, err := elementwiseBlock("add", nil, dts(i32, i32))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a 3-element operand run against a 4-element output")
		}
	}()
	k.op([][]byte{bytesOf(make([]int32, 4))}, [][]byte{bytesOf(make([]int32, 4)), bytesOf(make([]int32, 3))})
}

func TestEmptyArrays(t *testing.T) {
	a := bufferOf(t, f32, []int{0, 3})
	out := apply(t, "add", nil, a, bufferOf(t, f32, []int{}, 1.0))
	if out[0].Len() != 0 || !out[0].Shape().Equal(trace.Shape{0, 3}) {
		t.Errorf("add of an empty array: %v", out[0])
	}
}
