package cpu

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// fftTable is testdata/fft_numpy.json (gen_fft.py).
type fftTable struct {
	Cases []struct {
		Type  string    `json:"type"`
		N     int       `json:"n"`
		Norm  float64   `json:"norm"`
		Size  int       `json:"size"`
		Index []int     `json:"index"`
		Out   []float64 `json:"out"`
	} `json:"cases"`
	ND []struct {
		Type     string    `json:"type"`
		Shape    []int     `json:"shape"`
		Lengths  []int     `json:"lengths"`
		OutShape []int     `json:"out_shape"`
		Out      []float64 `json:"out"`
	} `json:"nd"`
}

func loadFFTTable(t *testing.T) fftTable {
	t.Helper()
	data, err := os.ReadFile("testdata/fft_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab fftTable
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	return tab
}

// fftSignal is gen_fft.py's input, exact in float32.
func fftSignal(n int) []complex128 {
	x := make([]complex128, n)
	for j := range x {
		re := float64((7919*j+13)%1009-504) / 1024
		im := float64((104729*j+7)%1013-506) / 1024
		x[j] = complex(re, im)
	}
	return x
}

var fftTypes = map[string]trace.Ident{
	"FFT": trace.FFTForward, "IFFT": trace.FFTInverse, "RFFT": trace.FFTRealForward, "IRFFT": trace.FFTRealInverse,
}

// fftOperand builds the operand of an fft of type kind from a complex
// signal of shape (the last axis cut to n/2+1 for IRFFT), in precision
// real (float32 or float64).
func fftOperand(t *testing.T, kind string, sig []complex128, shape []int, real trace.DType) *Buffer {
	last := shape[len(shape)-1]
	switch kind {
	case "RFFT":
		vals := make([]any, len(sig))
		for i, z := range sig {
			vals[i] = imagPart(z, true)
		}
		return bufferOf(t, real, shape, vals...)
	case "IRFFT":
		h := last/2 + 1
		var vals []any
		for i, z := range sig {
			if i%last < h {
				vals = append(vals, z)
			}
		}
		cut := append(append([]int(nil), shape[:len(shape)-1]...), h)
		return bufferOf(t, trace.ComplexOf(real), cut, vals...)
	}
	vals := make([]any, len(sig))
	for i, z := range sig {
		vals[i] = z
	}
	return bufferOf(t, trace.ComplexOf(real), shape, vals...)
}

// imagPart returns z's real part when re is set (a tiny helper that keeps
// the builtin name real free for the dtype argument above).
func imagPart(z complex128, re bool) float64 {
	if re {
		return real(z)
	}
	return imag(z)
}

func fftValue(b *Buffer, i int) complex128 {
	switch v := b.Element(i).(type) {
	case complex128:
		return v
	case float64:
		return complex(v, 0)
	}
	return cmplx.NaN()
}

func refValue(out []float64, i int, complexOut bool) complex128 {
	if complexOut {
		return complex(out[2*i], out[2*i+1])
	}
	return complex(out[i], 0)
}

// TestFFTAccuracyAgainstNumPy checks every fft type on lengths 1-64, 97,
// 100, 128, 1000, 4096, 8191 (a prime: Bluestein) and 2^20 in both
// precisions: the largest error, in units of the precision's epsilon times
// log2(n) times the output's RMS, must stay below fftErrorBound.
func TestFFTAccuracyAgainstNumPy(t *testing.T) {
	const fftErrorBound = 4.0
	tab := loadFFTTable(t)
	worst := map[string]float64{}
	for _, c := range tab.Cases {
		if testing.Short() && c.N > 8191 {
			continue
		}
		sig := fftSignal(c.N)
		for _, real := range []trace.DType{trace.Float32, trace.Float64} {
			x := fftOperand(t, c.Type, sig, []int{c.N}, real)
			y := apply(t, "fft", trace.Params{"fft_type": fftTypes[c.Type], "fft_lengths": []int{c.N}}, x)[0]
			if y.Len() != c.Size {
				t.Fatalf("%s n=%d: %d outputs, want %d", c.Type, c.N, y.Len(), c.Size)
			}
			eps := 0x1p-52
			if real == trace.Float32 {
				eps = 0x1p-23
			}
			rms := c.Norm / math.Sqrt(float64(c.Size))
			scale := eps * math.Max(1, math.Log2(float64(c.N))) * math.Max(rms, 1e-300)
			complexOut := c.Type != "IRFFT"
			maxErr := 0.0
			count := c.Size
			if c.Index != nil {
				count = len(c.Index)
			}
			for k := range count {
				i := k
				if c.Index != nil {
					i = c.Index[k]
				}
				maxErr = math.Max(maxErr, cmplx.Abs(fftValue(y, i)-refValue(c.Out, k, complexOut))/scale)
			}
			key := fmt.Sprintf("%s/%s", c.Type, real)
			worst[key] = math.Max(worst[key], maxErr)
			if maxErr > fftErrorBound {
				t.Errorf("%s of length %d in %s: error %.2f eps·log2(n)·rms, bound %.1f", c.Type, c.N, trace.ComplexOf(real), maxErr, fftErrorBound)
			}
		}
	}
	t.Logf("worst error per type, in eps·log2(n)·rms: %v", worst)
}

// TestFFTSeveralAxes: batched transforms over the trailing 1, 2 and 3
// axes against numpy.fft.fftn and friends.
func TestFFTSeveralAxes(t *testing.T) {
	tab := loadFFTTable(t)
	for _, c := range tab.ND {
		size := 1
		for _, d := range c.Shape {
			size *= d
		}
		for _, real := range []trace.DType{trace.Float32, trace.Float64} {
			x := fftOperand(t, c.Type, fftSignal(size), c.Shape, real)
			y := apply(t, "fft", trace.Params{"fft_type": fftTypes[c.Type], "fft_lengths": c.Lengths}, x)[0]
			if !y.Shape().Equal(trace.Shape(c.OutShape)) {
				t.Fatalf("%s %v over %v: shape %v, want %v", c.Type, c.Shape, c.Lengths, y.Shape(), c.OutShape)
			}
			tol := 1e-13
			if real == trace.Float32 {
				tol = 1e-5
			}
			for i := range y.Len() {
				want := refValue(c.Out, i, c.Type != "IRFFT")
				if got := fftValue(y, i); cmplx.Abs(got-want) > tol*math.Max(1, cmplx.Abs(want))*8 {
					t.Errorf("%s %v over %v in %s: element %d = %v, NumPy %v", c.Type, c.Shape, c.Lengths, real, i, got, want)
					break
				}
			}
		}
	}
}
