package trace

// Autodiff rules of the host operations. Callbacks see primal values only:
// a print is non-differentiable (it returns a token), a tap passes its
// operands' tangents through untouched, and a call has no derivative of
// its own — the user gives it one with custom_jvp or custom_vjp.

func hostAD() map[string]adRules {
	return map[string]adRules{
		"debug_print":  {nonDiff: true},
		"create_token": {nonDiff: true},
		"id_tap": {jvp: func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
			return e.Bind("id_tap", in, p), tangents
		}},
		"call": {jvp: func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
			e.Failf("call has no differentiation rule: a host callback's derivative is unknown to jaxsh; " +
				"wrap the function that uses call in custom_vjp (or custom_jvp) and give its derivative there")
			return nil, nil
		}},
		"optimization_barrier": {jvp: barrierJVP, transpose: barrierTranspose},
	}
}

// barrierJVP puts primals and tangents behind separate barriers, so that the
// primal barrier stays in the forward computation when reverse mode splits
// them.
func barrierJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	out := e.Bind("optimization_barrier", in, p)
	var live []Atom
	for _, t := range tangents {
		if t != nil {
			live = append(live, t)
		}
	}
	outT := make([]Atom, len(in))
	if len(live) == 0 {
		return out, outT
	}
	through := e.Bind("optimization_barrier", live, p)
	k := 0
	for i, t := range tangents {
		if t != nil {
			outT[i] = through[k]
			k++
		}
	}
	return out, outT
}

func barrierTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	var live []Atom
	for i, ct := range cts {
		if linear[i] && ct != nil {
			live = append(live, ct)
		}
	}
	out := make([]Atom, len(in))
	if len(live) == 0 {
		return out
	}
	through := e.Bind("optimization_barrier", live, p)
	k := 0
	for i, ct := range cts {
		if linear[i] && ct != nil {
			out[i] = through[k]
			k++
		}
	}
	return out
}
