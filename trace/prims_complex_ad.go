package trace

// Autodiff rules of the complex-number primitives: all four are linear
// over the reals, and transpose as JAX's do (no conjugation: a transpose,
// not an adjoint).

func init() { installAD(complexAD()) }

func complexAD() map[string]adRules {
	return map[string]adRules{
		"real": {jvp: linearJVP("real"), transpose: func(e *Emitter, cts, _ []Atom, _ []bool, _ Params) []Atom {
			if cts[0] == nil {
				return []Atom{nil}
			}
			return []Atom{e.Bind1("complex", nil, cts[0], e.Zeros(cts[0].Aval()))}
		}},
		"imag": {jvp: linearJVP("imag"), transpose: func(e *Emitter, cts, _ []Atom, _ []bool, _ Params) []Atom {
			if cts[0] == nil {
				return []Atom{nil}
			}
			return []Atom{e.Bind1("complex", nil, e.Zeros(cts[0].Aval()), e.Neg(cts[0]))}
		}},
		"conj": {jvp: linearJVP("conj"), transpose: func(e *Emitter, cts, in []Atom, _ []bool, p Params) []Atom {
			if cts[0] == nil {
				return []Atom{nil}
			}
			if in[0].Aval().DType.IsComplex() {
				return []Atom{e.Bind1("conj", p, cts[0])}
			}
			return []Atom{e.Bind1("real", nil, cts[0])}
		}},
		"complex": {
			jvp: func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
				out := e.Bind("complex", in, p)
				re := e.Instantiate(tangents[0], in[0].Aval())
				im := e.Instantiate(tangents[1], in[1].Aval())
				return out, []Atom{e.Bind1("complex", nil, e.BroadcastTo(re, out[0].Aval().Shape), e.BroadcastTo(im, out[0].Aval().Shape))}
			},
			transpose: func(e *Emitter, cts, in []Atom, linear []bool, _ Params) []Atom {
				out := make([]Atom, 2)
				if cts[0] == nil {
					return out
				}
				if linear[0] {
					out[0] = e.Unbroadcast(e.Bind1("real", nil, cts[0]), in[0].Aval())
				}
				if linear[1] {
					out[1] = e.Unbroadcast(e.Neg(e.Bind1("imag", nil, cts[0])), in[1].Aval())
				}
				return out
			},
		},
	}
}
