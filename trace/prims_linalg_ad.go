package trace

// Autodiff rules of the linalg primitives: JAX's (jax/_src/lax/linalg.py),
// written with the same textbook formulas. Every rule works on batches:
// matrices are the trailing two axes.
//
//   - triangular_solve is linear in b; for a, op(a)·x = b gives
//     op(a)·ẋ = ḃ - op(ȧ)·x (and x·op(a) = b: ẋ·op(a) = ḃ - x·op(ȧ)),
//     ȧ cut to the triangle the solve reads. Its transpose in b solves
//     with op(a) transposed.
//   - cholesky: L̇ = L·Φ(L⁻¹·Ȧ·L⁻ᵀ), Φ the lower triangle with the
//     diagonal halved, Ȧ symmetrised as the kernel reads it.
//   - eigh: with Ȧ the symmetric matrix of the triangle read, D = Vᵀ·Ȧ·V,
//     ẇ = diag(D), V̇ = V·(F∘D), F_ij = 1/(w_j - w_i) off the diagonal.
//   - qr (m ≥ n, reduced): JAX's formula through Ȧ·R⁻¹.
//   - svd (reduced): JAX's formula; full_matrices with compute_uv has no
//     JVP, as in JAX.
//   - lu (square): L̇ = L·tril(X, -1), U̇ = triu(X)·U with
//     X = L⁻¹·P·Ȧ·U⁻¹.
//   - eig: eigenvalues only, ẇ_i = (u_iᴴ·Ȧ·v_i)/(u_iᴴ·v_i) with left and
//     right eigenvectors; eigenvector derivatives are not implemented (as
//     in JAX).
//
// The formulas are written for real operands (transposes, not conjugate
// transposes); complex operands are refused by name rather than given
// wrong derivatives.

func init() {
	installAD(map[string]adRules{
		"triangular_solve": {jvp: realOnlyJVP("triangular_solve", triangularSolveJVP), transpose: triangularSolveTranspose},
		"cholesky":         {jvp: realOnlyJVP("cholesky", choleskyJVP)},
		"eigh":             {jvp: realOnlyJVP("eigh", eighJVP)},
		"qr":               {jvp: realOnlyJVP("qr", qrJVP)},
		"svd":              {jvp: realOnlyJVP("svd", svdJVP)},
		"lu":               {jvp: realOnlyJVP("lu", luJVP)},
		"eig":              {jvp: realOnlyJVP("eig", eigJVP)},
	})
}

func realOnlyJVP(name string, rule JVPRule) JVPRule {
	return func(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
		if in[0].Aval().DType.IsComplex() {
			e.Failf("differentiating %s with complex operands (%s) is not supported yet", name, in[0].Aval().DType)
		}
		return rule(e, in, tangents, p)
	}
}

// mT swaps the last two axes.
func (e *Emitter) mT(x Atom) Atom {
	r := x.Aval().Rank()
	perm := AllAxes(r)
	perm[r-1], perm[r-2] = perm[r-2], perm[r-1]
	return e.Transpose(x, perm)
}

// matmul multiplies batches of matrices.
func (e *Emitter) matmul(a, b Atom) Atom {
	r := a.Aval().Rank()
	batch := AllAxes(r - 2)
	return e.Bind1("dot_general", Params{
		"dimension_numbers": DotDimensionNumbers{
			LhsContracting: []int{r - 1}, RhsContracting: []int{r - 2}, LhsBatch: batch, RhsBatch: batch},
		"precision": nil, "preferred_element_type": nil,
	}, a, b)
}

// triangle keeps the elements of x with col - row ≤ k (lower) or
// col - row ≥ k (upper), zeroing the rest.
func (e *Emitter) triangle(x Atom, lower bool, k int) Atom {
	s := x.Aval().Shape
	r := s.Rank()
	diff := e.Sub(e.Iota(s, r-1), e.Iota(s, r-2))
	var keep Atom
	if lower {
		keep = e.Compare("le", diff, e.Lit(float64(k), Int32))
	} else {
		keep = e.Compare("ge", diff, e.Lit(float64(k), Int32))
	}
	return e.Select(keep, e.Zeros(x.Aval()), x)
}

// eyeLike is the identity broadcast to x's shape and dtype.
func (e *Emitter) eyeLike(x Atom) Atom {
	s := x.Aval().Shape
	r := s.Rank()
	return e.AsFloat(e.Compare("eq", e.Iota(s, r-1), e.Iota(s, r-2)), x.Aval().DType)
}

// diagonal is the main diagonal of square matrices x, a batch of vectors.
func (e *Emitter) diagonal(x Atom) Atom {
	return e.ReduceSum(e.Mul(x, e.eyeLike(x)), []int{x.Aval().Rank() - 1})
}

// asRows broadcasts a batch of vectors v (…, n) as matrix rows (…, m, n).
func (e *Emitter) asRows(v Atom, m int) Atom {
	s := v.Aval().Shape
	r := s.Rank()
	shape := append(s[:r-1].Clone(), m, s[r-1])
	dims := AllAxes(r - 1)
	return e.BroadcastInDim(v, shape, append(dims, r))
}

// symmetricFromTriangle is the symmetric matrix whose lower (or upper)
// triangle is x's.
func (e *Emitter) symmetricFromTriangle(x Atom, lower bool) Atom {
	strict := -1
	if !lower {
		strict = 1
	}
	return e.Add(e.triangle(x, lower, 0), e.mT(e.triangle(x, lower, strict)))
}

func triSolve(e *Emitter, a, b Atom, left, lower, transpose, unit bool) Atom {
	return e.Bind1("triangular_solve", Params{"left_side": left, "lower": lower, "transpose_a": transpose,
		"conjugate_a": false, "unit_diagonal": unit}, a, b)
}

func triangularSolveJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	a, b := in[0], in[1]
	x := e.Bind1("triangular_solve", p, a, b)
	left, lower, trans, unit := p.Bool("left_side"), p.Bool("lower"), p.Bool("transpose_a"), p.Bool("unit_diagonal")
	rhs := tangents[1]
	if da := tangents[0]; da != nil {
		k := 0
		if unit {
			k = -1
			if !lower {
				k = 1
			}
		}
		opDA := e.triangle(da, lower, k)
		if trans {
			opDA = e.mT(opDA)
		}
		var prod Atom
		if left {
			prod = e.matmul(opDA, x)
		} else {
			prod = e.matmul(x, opDA)
		}
		if rhs == nil {
			rhs = e.Neg(prod)
		} else {
			rhs = e.Sub(rhs, prod)
		}
	}
	return []Atom{x}, []Atom{triSolve(e, a, rhs, left, lower, trans, unit)}
}

func triangularSolveTranspose(e *Emitter, cts, in []Atom, linear []bool, p Params) []Atom {
	if linear[0] {
		e.Failf("triangular_solve is linear in b only, not in a")
	}
	if cts[0] == nil {
		return []Atom{nil, nil}
	}
	return []Atom{nil, triSolve(e, in[0], cts[0], p.Bool("left_side"), p.Bool("lower"), !p.Bool("transpose_a"), p.Bool("unit_diagonal"))}
}

func choleskyJVP(e *Emitter, in, tangents []Atom, _ Params) ([]Atom, []Atom) {
	l := e.Bind1("cholesky", nil, in[0])
	da := e.symmetricFromTriangle(tangents[0], true)
	// L⁻¹·Ȧ·L⁻ᵀ: solve from the right with Lᵀ, then from the left with L.
	t := triSolve(e, l, triSolve(e, l, da, false, true, true, false), true, true, false, false)
	phi := e.Sub(e.triangle(t, true, 0), e.Scale(e.Mul(t, e.eyeLike(t)), 0.5))
	return []Atom{l}, []Atom{e.matmul(l, phi)}
}

// offDiagonalInverse is F_ij = 1/(w_j - w_i), 0 on the diagonal, for a
// batch of vectors w and matrices like like.
func offDiagonalInverse(e *Emitter, w, like Atom) Atom {
	n := w.Aval().Shape[w.Aval().Rank()-1]
	rows := e.asRows(w, n)
	diff := e.Sub(rows, e.mT(rows))
	eye := e.eyeLike(like)
	return e.Sub(e.Div(e.Full(1, like.Aval()), e.Add(diff, eye)), eye)
}

func eighJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	outs := e.Bind("eigh", in, p)
	v, w := outs[0], outs[1]
	da := e.symmetricFromTriangle(tangents[0], p.Bool("lower"))
	d := e.matmul(e.matmul(e.mT(v), da), v)
	dv := e.matmul(v, e.Mul(offDiagonalInverse(e, w, d), d))
	return outs, []Atom{dv, e.diagonal(d)}
}

func qrJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	s := in[0].Aval().Shape
	m, n := s[s.Rank()-2], s[s.Rank()-1]
	if m < n || (p.Bool("full_matrices") && m != n) {
		e.Failf("the derivative of qr is implemented for m >= n and reduced matrices only, got shape %s", s)
	}
	outs := e.Bind("qr", in, p)
	q, r := outs[0], outs[1]
	dxRinv := triSolve(e, r, tangents[0], false, false, false, false)
	qtDxRinv := e.matmul(e.mT(q), dxRinv)
	lowerPart := e.triangle(qtDxRinv, true, -1)
	do := e.Sub(lowerPart, e.mT(lowerPart))
	dq := e.Add(e.matmul(q, e.Sub(do, qtDxRinv)), dxRinv)
	dr := e.matmul(e.Sub(qtDxRinv, do), r)
	return outs, []Atom{dq, dr}
}

func svdJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	computeUV := p.Bool("compute_uv")
	if computeUV && p.Bool("full_matrices") {
		e.Failf("the derivative of svd with full_matrices=True is not implemented (as in JAX); use full_matrices=False")
	}
	reduced := Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil}
	outs := e.Bind("svd", in, reduced)
	sv, u, vt := outs[0], outs[1], outs[2]
	da := tangents[0]
	v := e.mT(vt)
	dS := e.matmul(e.matmul(e.mT(u), da), v)
	ds := e.diagonal(dS)
	if !computeUV {
		return []Atom{sv}, []Atom{ds}
	}
	k := sv.Aval().Shape[sv.Aval().Rank()-1]
	sRows := e.asRows(sv, k) // s_j in column j
	sCols := e.mT(sRows)
	eye := e.eyeLike(dS)
	sDiffs := e.Mul(e.Add(sRows, sCols), e.Sub(sRows, sCols))
	f := e.Sub(e.Div(e.Full(1, dS.Aval()), e.Add(sDiffs, eye)), eye)
	dSS := e.Mul(sRows, dS)
	sdS := e.Mul(sCols, dS)
	du := e.matmul(u, e.Mul(f, e.Add(dSS, e.mT(dSS))))
	dv := e.matmul(v, e.Mul(f, e.Add(sdS, e.mT(sdS))))
	s := in[0].Aval().Shape
	m, n := s[s.Rank()-2], s[s.Rank()-1]
	if m > n {
		dAV := e.matmul(da, v)
		du = e.Add(du, e.Div(e.Sub(dAV, e.matmul(u, e.matmul(e.mT(u), dAV))), e.asRows(sv, m)))
	}
	if n > m {
		dAHU := e.matmul(e.mT(da), u)
		dv = e.Add(dv, e.Div(e.Sub(dAHU, e.matmul(v, e.matmul(vt, dAHU))), e.asRows(sv, n)))
	}
	return outs, []Atom{ds, du, e.mT(dv)}
}

func luJVP(e *Emitter, in, tangents []Atom, _ Params) ([]Atom, []Atom) {
	s := in[0].Aval().Shape
	r := s.Rank()
	if s[r-2] != s[r-1] {
		e.Failf("the derivative of lu is implemented for square matrices only, got shape %s", s)
	}
	outs := e.Bind("lu", in, nil)
	lu, perm := outs[0], outs[2]
	eye := e.eyeLike(lu)
	l := e.Add(e.triangle(lu, true, -1), eye)
	u := e.triangle(lu, false, 0)
	// P·Ȧ: row i of Ȧ's permutation, as a one-hot matrix product.
	pm := e.AsFloat(e.Compare("eq", e.BroadcastInDim(perm, s, append(AllAxes(r-2), r-2)), e.Iota(s, r-1)), lu.Aval().DType)
	pda := e.matmul(pm, tangents[0])
	x := triSolve(e, u, triSolve(e, l, pda, true, true, false, true), false, false, false, false)
	dl := e.matmul(l, e.triangle(x, true, -1))
	du := e.matmul(e.triangle(x, false, 0), u)
	return outs, []Atom{e.Add(dl, du), nil, nil}
}

func eigJVP(e *Emitter, in, tangents []Atom, p Params) ([]Atom, []Atom) {
	if p.Bool("compute_left_eigenvectors") || p.Bool("compute_right_eigenvectors") {
		e.Failf("the derivatives of eigenvectors are not implemented, only eigenvalues (as in JAX)")
	}
	both := Params{"compute_left_eigenvectors": true, "compute_right_eigenvectors": true}
	outs := e.Bind("eig", in, both)
	w, vl, vr := outs[0], outs[1], outs[2]
	c := w.Aval().DType
	da := e.Convert(tangents[0], c)
	ul := e.Bind1("conj", Params{"input_dtype": c}, vl)
	rank := vr.Aval().Rank()
	num := e.ReduceSum(e.Mul(ul, e.matmul(da, vr)), []int{rank - 2})
	den := e.ReduceSum(e.Mul(ul, vr), []int{rank - 2})
	return []Atom{w}, []Atom{e.Div(num, den)}
}
