package trace

// Autodiff rules of fft, as JAX's: the transform is linear. The DFT matrix
// is symmetric, so FFT and IFFT are their own transposes; RFFT transposes
// as the full FFT of its zero-padded cotangent, real part taken (the
// transpose of the naive "FFT then keep n//2+1 frequencies"); IRFFT as JAX
// writes it, an RFFT of the cotangent with the doubled frequencies
// weighted, scaled and conjugated.

func init() {
	installAD(map[string]adRules{"fft": {jvp: linearJVP("fft"), transpose: fftTranspose}})
}

func fftTranspose(e *Emitter, cts, in []Atom, _ []bool, p Params) []Atom {
	ct := cts[0]
	if ct == nil {
		return []Atom{nil}
	}
	kind, _ := ParamAs[Ident](p, "fft_type")
	lengths := p.Ints("fft_lengths")
	x := in[0].Aval()
	switch kind {
	case FFTRealForward:
		a := ct.Aval()
		config := make(PaddingConfig, a.Rank())
		config[a.Rank()-1] = PadDim{Hi: x.Shape[x.Rank()-1] - a.Shape[a.Rank()-1]}
		full := e.Bind1("pad", Params{"padding_config": config}, ct, e.Lit(0, a.DType))
		spectrum := e.Bind1("fft", Params{"fft_type": FFTForward, "fft_lengths": lengths}, full)
		return []Atom{e.Bind1("real", nil, spectrum)}
	case FFTRealInverse:
		spectrum := e.Bind1("fft", Params{"fft_type": FFTRealForward, "fft_lengths": lengths}, ct)
		s := spectrum.Aval()
		m := s.Shape[s.Rank()-1]
		odd := lengths[len(lengths)-1] % 2
		parts := []Atom{e.Full(1, AVal{Shape: Shape{1}, DType: s.DType})}
		if twos := m - 2 + odd; twos > 0 {
			parts = append(parts, e.Full(2, AVal{Shape: Shape{twos}, DType: s.DType}))
		}
		if odd == 0 && m > 1 {
			parts = append(parts, e.Full(1, AVal{Shape: Shape{1}, DType: s.DType}))
		}
		mask := parts[0]
		if len(parts) > 1 {
			mask = e.Bind1("concatenate", Params{"dimension": 0}, parts...)
		}
		size := 1
		for _, n := range lengths {
			size *= n
		}
		weighted := e.Mul(e.BroadcastInDim(mask, s.Shape, []int{s.Rank() - 1}), spectrum)
		scaled := e.Mul(weighted, e.Lit(1/float64(size), s.DType))
		return []Atom{e.Bind1("conj", Params{"input_dtype": s.DType}, scaled)}
	}
	return []Atom{e.Bind1("fft", p, ct)}
}
