package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The FFT benchmarks: complex64 of 2^20 points, and a 1000x1000
// two-dimensional transform (bench/compare.py runs NumPy's beside them).

func benchmarkFFT(b *testing.B, shape []int) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	sig := fftSignal(n)
	vals := make([]any, n)
	for i, z := range sig {
		vals[i] = z
	}
	x := bufferOf(b, trace.Complex64, shape, vals...)
	params := trace.Params{"fft_type": trace.FFTForward, "fft_lengths": shape}
	apply(b, "fft", params, x) // plan and kernel caches
	b.ResetTimer()
	defer reportCPUTime(b)()
	for b.Loop() {
		apply(b, "fft", params, x)
	}
}

func BenchmarkFFTComplex64_1M(b *testing.B)        { benchmarkFFT(b, []int{1 << 20}) }
func BenchmarkFFTComplex64_1000x1000(b *testing.B) { benchmarkFFT(b, []int{1000, 1000}) }
