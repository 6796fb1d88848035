package trace

import "fmt"

// The linear-algebra primitives of lax.linalg, each an opaque kernel over
// the trailing two axes of its operands, batched over the leading ones:
//
//   - cholesky(a) → l: the lower Cholesky factor of a symmetric positive
//     definite a (its lower triangle is read); NaNs where a is not
//     positive definite.
//   - lu(a) → lu, pivots, permutation: partial-pivoting LU of an m×n a,
//     L (unit lower, implied) and U packed in lu; pivots[i] is the row
//     swapped with row i (int32, min(m, n) of them), permutation the
//     resulting order of a's rows (int32, m).
//   - qr(a) → q, r: Householder QR; full_matrices gives q m×m and r m×n,
//     otherwise q m×k and r k×n with k = min(m, n).
//   - eigh(a) → v, w: eigenvectors (columns) and ascending eigenvalues of
//     a symmetric a, reading its lower (lower=True) or upper triangle.
//   - eig(a) → w[, vl][, vr]: eigenvalues of a general a, complex, with
//     left and right eigenvectors (columns, unit norm) as asked.
//   - svd(a) → s[, u, vt]: singular values, descending, and with
//     compute_uv the singular vectors; full_matrices as for qr.
//   - triangular_solve(a, b) → x: solves op(a)·x = b (left_side) or
//     x·op(a) = b, a triangular (lower or upper), op transposing and/or
//     conjugating as asked, unit_diagonal ignoring a's diagonal.
//
// Operands are float32, float64, complex64 or complex128; with complex
// operands "symmetric" means Hermitian, transposes are conjugate ones,
// and eigh's eigenvalues and svd's singular values are real (float32 for
// complex64, float64 for complex128).

var setLinalg = setOf(Float32, Float64, Complex64, Complex128)

func linalgPrims() []*Primitive {
	boolParam := func(name string) ParamSpec { return ParamSpec{Name: name, Kind: ParamBool} }
	subset := ParamSpec{Name: "subset_by_index", Kind: ParamInts, Optional: true}
	return []*Primitive{
		{Name: "cholesky", MinIn: 1, MaxIn: 1, Rule: choleskyRule},
		{Name: "lu", MinIn: 1, MaxIn: 1, Rule: luRule},
		{Name: "qr", MinIn: 1, MaxIn: 1, Params: []ParamSpec{boolParam("full_matrices"), boolParam("pivoting")}, Rule: qrRule},
		{Name: "eigh", MinIn: 1, MaxIn: 1, Params: []ParamSpec{boolParam("lower"), boolParam("sort_eigenvalues"), subset}, Rule: eighRule},
		{Name: "eig", MinIn: 1, MaxIn: 1, Params: []ParamSpec{
			boolParam("compute_left_eigenvectors"), boolParam("compute_right_eigenvectors")}, Rule: eigRule},
		{Name: "svd", MinIn: 1, MaxIn: 1, Params: []ParamSpec{boolParam("full_matrices"), boolParam("compute_uv"), subset}, Rule: svdRule},
		{Name: "triangular_solve", MinIn: 2, MaxIn: 2, Params: []ParamSpec{
			boolParam("left_side"), boolParam("lower"), boolParam("transpose_a"),
			boolParam("conjugate_a"), boolParam("unit_diagonal")}, Rule: triangularSolveRule},
	}
}

// matrixOperand checks that a is a (batch of) matrices of a dtype the
// kernels take, square when asked, and returns its batch shape and the
// matrix's rows and columns.
func matrixOperand(a AVal, square bool) (batch Shape, m, n int, err error) {
	if !setLinalg.has(a.DType) {
		return nil, 0, 0, fmt.Errorf("does not accept dtype %s; accepted: %s", a.DType, setLinalg)
	}
	r := len(a.Shape)
	if r < 2 {
		return nil, 0, 0, fmt.Errorf("the operand must have at least 2 dimensions, got shape %s", a.Shape)
	}
	m, n = a.Shape[r-2], a.Shape[r-1]
	if square && m != n {
		return nil, 0, 0, fmt.Errorf("the operand must be a (batch of) square matrices, got shape %s", a.Shape)
	}
	return a.Shape[:r-2], m, n, nil
}

// batched is batch followed by dims.
func batched(batch Shape, dims ...int) Shape {
	return append(batch.Clone(), dims...)
}

func choleskyRule(in []AVal, _ Params) ([]AVal, error) {
	if _, _, _, err := matrixOperand(in[0], true); err != nil {
		return nil, err
	}
	return one(AVal{Shape: in[0].Shape, DType: in[0].DType}), nil
}

func luRule(in []AVal, _ Params) ([]AVal, error) {
	batch, m, n, err := matrixOperand(in[0], false)
	if err != nil {
		return nil, err
	}
	return []AVal{
		{Shape: in[0].Shape, DType: in[0].DType},
		{Shape: batched(batch, min(m, n)), DType: Int32},
		{Shape: batched(batch, m), DType: Int32},
	}, nil
}

func qrRule(in []AVal, p Params) ([]AVal, error) {
	batch, m, n, err := matrixOperand(in[0], false)
	if err != nil {
		return nil, err
	}
	if p.Bool("pivoting") {
		return nil, fmt.Errorf("pivoting=True is not supported yet")
	}
	k := min(m, n)
	if p.Bool("full_matrices") {
		k = m
	}
	dt := in[0].DType
	return []AVal{{Shape: batched(batch, m, k), DType: dt}, {Shape: batched(batch, k, n), DType: dt}}, nil
}

func eighRule(in []AVal, p Params) ([]AVal, error) {
	batch, n, _, err := matrixOperand(in[0], true)
	if err != nil {
		return nil, err
	}
	if p["subset_by_index"] != nil {
		return nil, fmt.Errorf("subset_by_index is not supported yet")
	}
	dt := in[0].DType
	return []AVal{{Shape: in[0].Shape, DType: dt}, {Shape: batched(batch, n), DType: dt.ComplexPart()}}, nil
}

func eigRule(in []AVal, p Params) ([]AVal, error) {
	batch, n, _, err := matrixOperand(in[0], true)
	if err != nil {
		return nil, err
	}
	c := ComplexOf(in[0].DType)
	out := []AVal{{Shape: batched(batch, n), DType: c}}
	for _, name := range []string{"compute_left_eigenvectors", "compute_right_eigenvectors"} {
		if p.Bool(name) {
			out = append(out, AVal{Shape: in[0].Shape, DType: c})
		}
	}
	return out, nil
}

func svdRule(in []AVal, p Params) ([]AVal, error) {
	batch, m, n, err := matrixOperand(in[0], false)
	if err != nil {
		return nil, err
	}
	if p["subset_by_index"] != nil {
		return nil, fmt.Errorf("subset_by_index is not supported yet")
	}
	dt, k := in[0].DType, min(m, n)
	out := []AVal{{Shape: batched(batch, k), DType: dt.ComplexPart()}}
	if p.Bool("compute_uv") {
		ku, kv := k, k
		if p.Bool("full_matrices") {
			ku, kv = m, n
		}
		out = append(out, AVal{Shape: batched(batch, m, ku), DType: dt}, AVal{Shape: batched(batch, kv, n), DType: dt})
	}
	return out, nil
}

func triangularSolveRule(in []AVal, p Params) ([]AVal, error) {
	a, b := in[0], in[1]
	batch, m, _, err := matrixOperand(a, true)
	if err != nil {
		return nil, err
	}
	if _, _, _, err := matrixOperand(b, false); err != nil {
		return nil, err
	}
	if a.DType != b.DType {
		return nil, fmt.Errorf("a and b must have the same dtype, got %s and %s", a.DType, b.DType)
	}
	if len(b.Shape) != len(a.Shape) || !b.Shape[:len(batch)].Equal(batch) {
		return nil, fmt.Errorf("a and b must have the same batch dimensions, got shapes %s and %s", a.Shape, b.Shape)
	}
	side, which := b.Shape[len(batch)], "rows"
	if !p.Bool("left_side") {
		side, which = b.Shape[len(batch)+1], "columns"
	}
	if side != m {
		return nil, fmt.Errorf("b must have %d %s to match a of shape %s, got shape %s", m, which, a.Shape, b.Shape)
	}
	return one(AVal{Shape: b.Shape, DType: b.DType}), nil
}
