package trace

import "fmt"

// The fft primitive is lax.fft: a discrete Fourier transform over the
// trailing len(fft_lengths) axes (1 to 3, as XLA allows) of its operand.
// fft_type says which (JAX's FftType):
//
//   - FFT: complex to complex, forward, unnormalised.
//   - IFFT: complex to complex, inverse, scaled by 1/n (XLA's inverse).
//   - RFFT: real to complex, forward; the last transformed axis keeps its
//     n//2+1 non-negative frequencies.
//   - IRFFT: complex to real, the inverse of RFFT: the last axis holds
//     n//2+1 frequencies of a Hermitian spectrum of length n (the
//     imaginary parts of its zero and Nyquist terms are ignored).
//
// float32 and complex64 transform in complex64, float64 and complex128 in
// complex128.

// The fft_type values, as JAX prints them.
const (
	FFTForward     Ident = "FftType.FFT"
	FFTInverse     Ident = "FftType.IFFT"
	FFTRealForward Ident = "FftType.RFFT"
	FFTRealInverse Ident = "FftType.IRFFT"
)

// MaxFFTRank is the most axes one fft equation transforms.
const MaxFFTRank = 3

func fftPrims() []*Primitive {
	return []*Primitive{{
		Name: "fft", MinIn: 1, MaxIn: 1,
		Params: []ParamSpec{{Name: "fft_type", Kind: ParamIdent}, {Name: "fft_lengths", Kind: ParamInts}},
		Rule:   fftRule,
	}}
}

func fftRule(in []AVal, p Params) ([]AVal, error) {
	x, lengths := in[0], p.Ints("fft_lengths")
	kind, _ := ParamAs[Ident](p, "fft_type")
	if len(lengths) < 1 || len(lengths) > MaxFFTRank {
		return nil, fmt.Errorf("fft_lengths must name 1 to %d axes, got %s", MaxFFTRank, pyIntTuple(lengths))
	}
	if len(lengths) > len(x.Shape) {
		return nil, fmt.Errorf("fft_lengths %s name more axes than the operand's rank %d", pyIntTuple(lengths), len(x.Shape))
	}
	for _, n := range lengths {
		if n < 0 {
			return nil, fmt.Errorf("fft_lengths %s must be non-negative", pyIntTuple(lengths))
		}
	}
	lead := len(x.Shape) - len(lengths)
	trailing := x.Shape[lead:]
	out := AVal{Shape: x.Shape.Clone(), DType: x.DType}
	last := len(x.Shape) - 1
	switch kind {
	case FFTForward, FFTInverse:
		if !x.DType.IsComplex() {
			return nil, fmt.Errorf("%s takes a complex operand, got %s", kind, x.DType)
		}
		if !Shape(lengths).Equal(trailing) {
			return nil, fmt.Errorf("fft_lengths %s must equal the operand's trailing dimensions %s", pyIntTuple(lengths), trailing)
		}
	case FFTRealForward:
		if x.DType != Float32 && x.DType != Float64 {
			return nil, fmt.Errorf("%s takes a float32 or float64 operand, got %s", kind, x.DType)
		}
		if !Shape(lengths).Equal(trailing) {
			return nil, fmt.Errorf("fft_lengths %s must equal the operand's trailing dimensions %s", pyIntTuple(lengths), trailing)
		}
		out.DType = ComplexOf(x.DType)
		out.Shape[last] = lengths[len(lengths)-1]/2 + 1
	case FFTRealInverse:
		if !x.DType.IsComplex() {
			return nil, fmt.Errorf("%s takes a complex operand, got %s", kind, x.DType)
		}
		n := lengths[len(lengths)-1]
		want := append(Shape(lengths[:len(lengths)-1]).Clone(), n/2+1)
		if !want.Equal(trailing) {
			return nil, fmt.Errorf("fft_lengths %s need trailing dimensions %s, got %s", pyIntTuple(lengths), want, trailing)
		}
		out.DType = x.DType.ComplexPart()
		out.Shape[last] = n
	default:
		return nil, fmt.Errorf("unknown fft_type %q (want FftType.FFT, IFFT, RFFT or IRFFT)", kind)
	}
	return one(out), nil
}
