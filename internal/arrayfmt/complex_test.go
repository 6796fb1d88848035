package arrayfmt

import (
	"math"
	"testing"
)

// complexCase is one row of complexCases (complex_cases_test.go, generated
// from the real NumPy by testdata/gen_complex.py).
type complexCase struct {
	name      string
	dtype     string
	shape     []int
	data      []float64 // real and imaginary parts interleaved
	o         Options
	str, repr string
}

// Values the generated table cannot write as constants.
var (
	nan     = math.NaN()
	inf     = math.Inf(1)
	negZero = math.Copysign(0, -1)
)

func (c complexCase) array(t *testing.T) Array {
	t.Helper()
	if len(c.data)%2 != 0 {
		t.Fatalf("%s: odd number of parts", c.name)
	}
	n := len(c.data) / 2
	switch c.dtype {
	case "complex64":
		xs := make([]complex64, n)
		for i := range xs {
			re, im := float32(c.data[2*i]), float32(c.data[2*i+1])
			if float64(re) != c.data[2*i] && !math.IsNaN(c.data[2*i]) ||
				float64(im) != c.data[2*i+1] && !math.IsNaN(c.data[2*i+1]) {
				t.Fatalf("%s: element %d is not a complex64", c.name, i)
			}
			xs[i] = complex(re, im)
		}
		return Array{DType: c.dtype, Shape: c.shape, Data: xs}
	case "complex128":
		xs := make([]complex128, n)
		for i := range xs {
			xs[i] = complex(c.data[2*i], c.data[2*i+1])
		}
		return Array{DType: c.dtype, Shape: c.shape, Data: xs}
	}
	t.Fatalf("%s: dtype %q", c.name, c.dtype)
	return Array{}
}

func TestComplexAgainstNumPy(t *testing.T) {
	if len(complexCases) < 100 {
		t.Fatalf("only %d complex cases", len(complexCases))
	}
	for _, c := range complexCases {
		a := c.array(t)
		if got := Str(a, c.o); got != c.str {
			t.Errorf("%s: Str\n got: %q\nwant: %q\n got:\n%s\nwant:\n%s", c.name, got, c.str, got, c.str)
		}
		if got := Repr(a, c.o); got != c.repr {
			t.Errorf("%s: Repr\n got: %q\nwant: %q\n got:\n%s\nwant:\n%s", c.name, got, c.repr, got, c.repr)
		}
	}
}

// The signs of -0.0 parts survive the conversion to the Go slices.
func TestComplexNegativeZeroParts(t *testing.T) {
	a := Array{DType: "complex64", Shape: []int{}, Data: []complex64{complex(float32(negZero), float32(negZero))}}
	if got, want := Str(a, DefaultOptions()), "(-0-0j)"; got != want {
		t.Fatalf("Str = %q, want %q", got, want)
	}
}
