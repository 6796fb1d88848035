package arrayfmt

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func ExampleStr() {
	a := Array{DType: "float32", Shape: []int{2, 2}, Data: []float32{1, 2.5, -3, 4}}
	fmt.Println(Str(a, DefaultOptions()))
	fmt.Println(Str(Array{DType: "float32", Shape: []int{}, Data: []float32{3}}, DefaultOptions()))
	// Output:
	// [[ 1.   2.5]
	//  [-3.   4. ]]
	// 3.0
}

func ExampleRepr() {
	o := DefaultOptions()
	fmt.Println(Repr(Array{DType: "float32", Shape: []int{3}, Data: []float32{1, 2, 3}}, o))
	fmt.Println(Repr(Array{DType: "int32", Shape: []int{}, Data: []int32{3}}, o))
	fmt.Println(Repr(Array{DType: "bool", Shape: []int{2}, Data: []bool{true, false}}, o))
	fmt.Println(Repr(Array{DType: "float32", Shape: []int{0, 3}, Data: []float32{}}, o))
	// Output:
	// Array([1., 2., 3.], dtype=float32)
	// Array(3, dtype=int32)
	// Array([ True, False], dtype=bool)
	// Array([], shape=(0, 3), dtype=float32)
}

func TestDefaultOptionsAreNumPys(t *testing.T) {
	want := Options{Precision: 8, Threshold: 1000, EdgeItems: 3, LineWidth: 75}
	if got := DefaultOptions(); got != want {
		t.Fatalf("DefaultOptions() = %+v, want %+v", got, want)
	}
}

func TestInvalidInputGivesTextNotPanic(t *testing.T) {
	o := DefaultOptions()
	bad := []struct {
		name string
		a    Array
		o    Options
		want string
	}{
		{"wrong Go type", Array{DType: "float32", Shape: []int{1}, Data: []float64{1}}, o, "does not take data of type []float64"},
		{"unknown dtype", Array{DType: "str", Shape: []int{1}, Data: []string{"a"}}, o, `unsupported dtype "str"`},
		{"complex parts as floats", Array{DType: "complex64", Shape: []int{1}, Data: []float32{1, 2}}, o, "does not take data of type []float32"},
		{"complex128 as complex64", Array{DType: "complex128", Shape: []int{1}, Data: []complex64{1}}, o, "does not take data of type []complex64"},
		{"size mismatch", Array{DType: "int32", Shape: []int{2, 3}, Data: []int32{1}}, o, "shape (2, 3) needs 6"},
		{"negative dim", Array{DType: "int32", Shape: []int{-1}, Data: []int32{}}, o, "negative dimension"},
		{"nil data", Array{DType: "bool", Shape: []int{1}}, o, "does not take data of type <nil>"},
		{"negative precision", Array{DType: "int32", Shape: []int{}, Data: []int32{1}}, Options{Precision: -1}, "precision must be >= 0"},
		{"negative edgeitems", Array{DType: "int32", Shape: []int{}, Data: []int32{1}}, Options{EdgeItems: -1}, "edgeitems must be >= 0"},
	}
	for _, c := range bad {
		for what, got := range map[string]string{"Str": Str(c.a, c.o), "Repr": Repr(c.a, c.o)} {
			if !strings.HasPrefix(got, "<arrayfmt: ") || !strings.Contains(got, c.want) {
				t.Errorf("%s: %s = %q, want an <arrayfmt: ...> text containing %q", c.name, what, got, c.want)
			}
		}
	}
}

// Every float16 bit pattern converts to float64 and back unchanged (nan
// payloads aside), and midpoints between neighbours round to even.
func TestFloat16Conversions(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		v := float16ToFloat64(uint16(b))
		if math.IsNaN(v) {
			if got := float64ToFloat16(v); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Fatalf("nan %#04x -> %#04x, not a nan", b, got)
			}
			continue
		}
		if got := float64ToFloat16(v); got != uint16(b) {
			t.Fatalf("%#04x -> %v -> %#04x", b, v, got)
		}
	}
	for _, c := range []struct {
		in   float64
		want uint16
	}{
		{1 + 0x1p-11, 0x3c00},            // halfway 1 and next: to even 1
		{1 + 3*0x1p-11, 0x3c02},          // halfway, odd below: up
		{65519.99, 0x7bff},               // below the overflow midpoint
		{65520, 0x7c00},                  // overflow midpoint: to even = inf
		{0x1p-25, 0x0000},                // half the smallest subnormal: to even 0
		{0x1p-25 * 3, 0x0002},            // 1.5 subnormals: to even 2
		{0x1p-14 - 0x1p-25, 0x0400},      // rounds up to the smallest normal
		{math.Copysign(0, -1), 0x8000},   // sign of zero kept
		{math.Inf(-1), 0xfc00},           // infinities
		{math.SmallestNonzeroFloat64, 0}, // underflow to zero
	} {
		if got := float64ToFloat16(c.in); got != c.want {
			t.Errorf("float64ToFloat16(%v) = %#04x, want %#04x", c.in, got, c.want)
		}
	}
}

func TestBfloat16Conversion(t *testing.T) {
	for _, c := range []struct {
		bits uint16
		want float64
	}{{0x3f80, 1}, {0xc000, -2}, {0x3dcd, 0.10009765625}, {0x7f80, math.Inf(1)}, {0x8000, math.Copysign(0, -1)}} {
		got := bfloat16ToFloat64(c.bits)
		if got != c.want || math.Signbit(got) != math.Signbit(c.want) {
			t.Errorf("bfloat16ToFloat64(%#04x) = %v, want %v", c.bits, got, c.want)
		}
	}
}

// Summarising a large array must only format the elements it shows, so the
// cost does not grow with the array.
func TestSummaryFormatsOnlyShownElements(t *testing.T) {
	const n = 1 << 20
	data := make([]float64, n)
	for i := range data {
		data[i] = float64(i)
	}
	got := Str(Array{DType: "float64", Shape: []int{n}, Data: data}, DefaultOptions())
	// As np.arange(2**20, dtype=np.float64) prints.
	want := "[0.000000e+00 1.000000e+00 2.000000e+00 ... 1.048573e+06 1.048574e+06\n 1.048575e+06]"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	offsets := displayedOffsets([]int{n}, []int{1}, 3, true)
	if len(offsets) != 6 {
		t.Fatalf("displayed %d elements, want 6", len(offsets))
	}
}
