package numpy

import (
	"fmt"
	"math"
	"slices"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Solving and inverting, on the LU factorization as JAX's are: solve
// permutes b's rows and runs two triangular solves; inv solves against the
// identity; det is the product of U's diagonal times the permutation's
// parity; slogdet its sign and log magnitude. lstsq and pinv go through the
// SVD with JAX's default cutoffs (rcond = eps·max(m, n) for lstsq,
// 10·eps·max(m, n) relative to the largest singular value for pinv);
// matrix_rank counts singular values above max(m, n)·eps·s_max.

func init() {
	jstarlark.Register(linalgModule, "solve", solveBuiltin)
	jstarlark.Register(linalgModule, "inv", invBuiltin)
	jstarlark.Register(linalgModule, "det", detBuiltin(false))
	jstarlark.Register(linalgModule, "slogdet", detBuiltin(true))
	jstarlark.Register(linalgModule, "lstsq", lstsqBuiltin)
	jstarlark.Register(linalgModule, "pinv", pinvBuiltin)
	jstarlark.Register(linalgModule, "matrix_power", matrixPowerBuiltin)
	jstarlark.Register(linalgModule, "matrix_rank", matrixRankBuiltin)
	jstarlark.Register(linalgModule, "cond", condBuiltin)
	jstarlark.Register(linalgModule, "tensorinv", tensorinvBuiltin)
	jstarlark.Register(linalgModule, "tensorsolve", tensorsolveBuiltin)
}

func triParams(left, lower, unit bool) trace.Params {
	return trace.Params{"left_side": left, "lower": lower, "transpose_a": false, "conjugate_a": false, "unit_diagonal": unit}
}

// luSolve solves a·x = b for matrices b of a's batch shape.
func (c *la) luSolve(a, b *jstarlark.Array) *jstarlark.Array {
	f := c.multi("lu", nil, a)
	if c.Err != nil {
		return nil
	}
	pb := c.mm(c.permutationMatrix(f[2], a.DType()), b)
	y := c.Prim("triangular_solve", triParams(true, true, true), f[0], pb)
	return c.Prim("triangular_solve", triParams(true, false, false), f[0], y)
}

// solve is jnp.linalg.solve on arrays: b a vector (…, n) when it has one
// axis fewer than a (or one axis), else matrices (…, n, k); batch axes
// broadcast.
func solve(fn string, a, b *jstarlark.Array) (*jstarlark.Array, error) {
	if a.DType() != b.DType() {
		t, err := trace.ResultType(a.AVal().Type(), b.AVal().Type())
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		if a, err = jstarlark.Astype(a, t.DType); err != nil {
			return nil, err
		}
		if b, err = jstarlark.Astype(b, t.DType); err != nil {
			return nil, err
		}
	}
	n := a.Shape()[a.NDim()-1]
	vector := b.NDim() == 1 || b.NDim() == a.NDim()-1
	c := newLA(fn)
	if vector {
		b = c.ExpandDims(b, b.NDim())
	}
	if !c.OK(b) {
		return nil, c.Err
	}
	if b.NDim() < 2 || b.Shape()[b.NDim()-2] != n {
		return nil, fmt.Errorf("%s: incompatible shapes: a is %s, b is %s", fn, a.Shape(), b.Shape())
	}
	batch, err := trace.BroadcastShapes(a.Shape()[:a.NDim()-2], b.Shape()[:b.NDim()-2])
	if err != nil {
		return nil, fmt.Errorf("%s: batch dimensions do not broadcast: a is %s, b is %s", fn, a.Shape(), b.Shape())
	}
	a = c.call(jstarlark.BroadcastTo(a, append(batch.Clone(), n, n)))
	b = c.call(jstarlark.BroadcastTo(b, append(batch.Clone(), b.Shape()[b.NDim()-2:]...)))
	x := c.luSolve(a, b)
	if vector {
		x = c.Reshape(x, x.Shape()[:x.NDim()-1])
	}
	return c.Done(x)
}

func solveBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.solve"
	var x, y starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "b", &y); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, true)
	if err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, y)
	if err != nil {
		return nil, err
	}
	b, err := inexactArray(fn, arrs[0])
	if err != nil {
		return nil, err
	}
	return solve(fn, a, b)
}

func inv(fn string, a *jstarlark.Array) (*jstarlark.Array, error) {
	c := newLA(fn)
	x := c.luSolve(a, c.eye(a))
	return c.Done(x)
}

func invBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.inv"
	var x starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, true)
	if err != nil {
		return nil, err
	}
	return inv(fn, a)
}

func detBuiltin(logarithm bool) jstarlark.BuiltinFunc {
	fn := "jnp.linalg.det"
	if logarithm {
		fn = "jnp.linalg.slogdet"
	}
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x); err != nil {
			return nil, err
		}
		a, err := matrixArg(fn, x, true)
		if err != nil {
			return nil, err
		}
		c := newLA(fn)
		f := c.multi("lu", nil, a)
		if c.Err != nil {
			return nil, c.Err
		}
		d := c.diag(f[0])
		piv := f[1]
		last := piv.NDim() - 1
		swapped := c.Binary("ne", piv, c.Iota(trace.Int32, piv.Shape(), last))
		swaps := c.reduceAxis("reduce_sum", c.Convert(swapped, trace.Int32, false), last)
		odd := c.Binary("rem", swaps, c.Scalar(swaps, trace.Int32, 2, false))
		parity := c.Binary("sub", c.Scalar(d, d.DType(), 1, false),
			c.Binary("mul", c.Scalar(d, d.DType(), 2, false), c.Convert(odd, d.DType(), false)))
		dl := d.NDim() - 1
		if !logarithm {
			return c.Done(c.Binary("mul", parity, c.reduceAxis("reduce_prod", d, dl)))
		}
		sign := c.Binary("mul", parity, c.reduceAxis("reduce_prod", c.Unary("sign", d), dl))
		logabs := c.reduceAxis("reduce_sum", c.Unary("log", c.Unary("abs", d)), dl)
		if c.Err != nil {
			return nil, c.Err
		}
		return tupleOf(sign, logabs), nil
	}
}

func lstsqBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.lstsq"
	var x, y starlark.Value
	var rcondV starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "b", &y, "rcond?", &rcondV); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, false)
	if err != nil {
		return nil, err
	}
	if a.NDim() != 2 {
		return nil, fmt.Errorf("%s: a must be 2-dimensional, got shape %s", fn, a.Shape())
	}
	arrs, err := linalgOperands(fn, y)
	if err != nil {
		return nil, err
	}
	b, err := jstarlark.Astype(arrs[0], a.DType())
	if err != nil {
		return nil, err
	}
	m, n := a.Shape()[0], a.Shape()[1]
	if b.NDim() < 1 || b.NDim() > 2 || b.Shape()[0] != m {
		return nil, fmt.Errorf("%s: b must have shape (%d,) or (%d, k), got %s", fn, m, m, b.Shape())
	}
	rcond := epsOf(a.DType()) * float64(max(m, n))
	if rcondV != starlark.None {
		r, ok := starlark.AsFloat(rcondV)
		if !ok {
			return nil, fmt.Errorf("%s: rcond must be a number or None", fn)
		}
		if r >= 0 {
			rcond = r
		}
	}
	c := newLA(fn)
	vector := b.NDim() == 1
	if vector {
		b = c.ExpandDims(b, 1)
	}
	out := c.multi("svd", trace.Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil}, a)
	if c.Err != nil {
		return nil, c.Err
	}
	s, u, vt := out[0], out[1], out[2]
	k := s.Shape()[0]
	var sMax *jstarlark.Array
	if k > 0 {
		sMax = c.call(jstarlark.StaticSlice(s, []int{0}, []int{1}, nil))
	} else {
		sMax = c.call(jstarlark.BroadcastTo(c.Scalar(s, s.DType(), 0, false), []int{1}))
	}
	mask := c.Binary("ge", s, c.Binary("mul", sMax, c.Scalar(s, s.DType(), rcond, false)))
	rank := c.reduceAxis("reduce_sum", c.Convert(mask, trace.Int32, false), 0)
	safe := c.Select(mask, s, c.FullLike(s, 1, s.DType()))
	sInv := c.Select(mask, c.Binary("div", c.FullLike(s, 1, s.DType()), safe), c.FullLike(s, 0, s.DType()))
	uTb := c.mm(c.mH(u), b)
	scaled := c.Binary("mul", c.call(jstarlark.BroadcastInDim(c.Convert(sInv, uTb.DType(), false), uTb.Shape(), []int{0})), uTb)
	sol := c.mm(c.mH(vt), scaled)
	var resid *jstarlark.Array
	if m > n {
		r := c.Binary("sub", b, c.mm(a, sol))
		if r.DType().IsComplex() {
			r = c.Unary("abs", r)
		}
		resid = c.reduceAxis("reduce_sum", c.Binary("mul", r, r), 0)
		if vector {
			resid = c.Reshape(resid, trace.Shape{1})
		}
	} else {
		resid = c.call(jstarlark.IotaOf(a.Device(), a.DType().ComplexPart(), []int{0}, 0))
	}
	if vector {
		sol = c.Reshape(sol, trace.Shape{n})
	}
	if c.Err != nil {
		return nil, c.Err
	}
	return tupleOf(sol, resid, rank, s), nil
}

// pinv is the pseudo-inverse through the SVD, singular values at most
// rtol·s_max treated as zero.
func pinv(fn string, a *jstarlark.Array, rtol float64) (*jstarlark.Array, error) {
	c := newLA(fn)
	out := c.multi("svd", trace.Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil}, a)
	if c.Err != nil {
		return nil, c.Err
	}
	s, u, vt := out[0], out[1], out[2]
	last := s.NDim() - 1
	sMax := c.call(jstarlark.ExpandDims(c.reduceAxis("reduce_max", s, last), []int{last}))
	cutoff := c.Binary("mul", c.call(jstarlark.BroadcastTo(sMax, s.Shape())), c.Scalar(s, s.DType(), rtol, false))
	kept := c.Select(c.Binary("gt", s, cutoff), s, c.FullLike(s, math.Inf(1), s.DType()))
	ut := c.mH(u)
	rows := c.call(jstarlark.BroadcastInDim(c.Convert(kept, ut.DType(), false), ut.Shape(), append(trace.AllAxes(last), last)))
	return c.Done(c.mm(c.mH(vt), c.Binary("div", ut, rows)))
}

func pinvBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.pinv"
	var x starlark.Value
	var rtolV starlark.Value = starlark.None
	hermitian := false
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "rtol?", &rtolV, "hermitian?", &hermitian); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, false)
	if err != nil {
		return nil, err
	}
	s := a.Shape()
	rtol := 10 * epsOf(a.DType()) * float64(max(s[len(s)-1], s[len(s)-2]))
	if rtolV != starlark.None {
		r, ok := starlark.AsFloat(rtolV)
		if !ok {
			return nil, fmt.Errorf("%s: rtol must be a number or None", fn)
		}
		rtol = r
	}
	return pinv(fn, a, rtol)
}

func matrixPowerBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.matrix_power"
	var x starlark.Value
	var n int
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "n", &n); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	if a.NDim() < 2 || a.Shape()[a.NDim()-1] != a.Shape()[a.NDim()-2] {
		return nil, fmt.Errorf("%s: the operand must be a (batch of) square matrices, got shape %s", fn, a.Shape())
	}
	c := newLA(fn)
	if n == 0 {
		return c.Done(c.eye(a))
	}
	if n < 0 {
		if a, err = inexactArray(fn, a); err != nil {
			return nil, err
		}
		if a, err = inv(fn, a); err != nil {
			return nil, err
		}
		n = -n
	}
	// Repeated squaring, low bits first.
	var result *jstarlark.Array
	for p := a; n > 0; n >>= 1 {
		if n&1 == 1 {
			if result == nil {
				result = p
			} else {
				result = c.mm(result, p)
			}
		}
		if n > 1 {
			p = c.mm(p, p)
		}
	}
	return c.Done(result)
}

func matrixRankBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.matrix_rank"
	var x starlark.Value
	var rtolV starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "M", &x, "rtol?", &rtolV); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x)
	if err != nil {
		return nil, err
	}
	a, err := inexactArray(fn, arrs[0])
	if err != nil {
		return nil, err
	}
	c := newLA(fn)
	if a.NDim() < 2 {
		nz := c.Binary("ne", a, c.Scalar(a, a.DType(), 0, false))
		return c.Done(c.Convert(c.Prim("reduce_or", trace.Params{"axes": trace.AllAxes(a.NDim())}, nz), trace.Int32, false))
	}
	s := a.Shape()
	rtol := epsOf(a.DType()) * float64(max(s[len(s)-1], s[len(s)-2]))
	if rtolV != starlark.None {
		r, ok := starlark.AsFloat(rtolV)
		if !ok {
			return nil, fmt.Errorf("%s: rtol must be a number or None", fn)
		}
		rtol = r
	}
	sv, err := singularValues(fn, a)
	if err != nil {
		return nil, err
	}
	last := sv.NDim() - 1
	sMax := c.call(jstarlark.ExpandDims(c.reduceAxis("reduce_max", sv, last), []int{last}))
	tol := c.Binary("mul", c.call(jstarlark.BroadcastTo(sMax, sv.Shape())), c.Scalar(sv, sv.DType(), rtol, false))
	return c.Done(c.reduceAxis("reduce_sum", c.Convert(c.Binary("gt", sv, tol), trace.Int32, false), last))
}

func condBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.cond"
	var x starlark.Value
	var p starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "p?", &p); err != nil {
		return nil, err
	}
	a, err := matrixArg(fn, x, false)
	if err != nil {
		return nil, err
	}
	c := newLA(fn)
	pv, numeric := ordValue(p)
	var r *jstarlark.Array
	if p == starlark.None || (numeric && (pv == 2 || pv == -2)) {
		sv, err := singularValues(fn, a)
		if err != nil {
			return nil, err
		}
		last := sv.NDim() - 1
		hi, lo := c.reduceAxis("reduce_max", sv, last), c.reduceAxis("reduce_min", sv, last)
		if numeric && pv == -2 {
			hi, lo = lo, hi
		}
		r = c.Binary("div", hi, lo)
	} else {
		s := a.Shape()
		if s[len(s)-1] != s[len(s)-2] {
			return nil, fmt.Errorf("%s: p=%s needs square matrices, got shape %s", fn, p, s)
		}
		ai, err := inv(fn, a)
		if err != nil {
			return nil, err
		}
		axes := starlark.Tuple{starlark.MakeInt(-2), starlark.MakeInt(-1)}
		n1 := c.jnpLinalg("norm", a, starlark.Tuple{p, axes})
		n2 := c.jnpLinalg("norm", ai, starlark.Tuple{p, axes})
		r = c.Binary("mul", n1, n2)
	}
	if !c.OK(r) { // a step failed (a bad p): its error, not a nil result
		return c.Done(r)
	}
	// A NaN from a singular matrix (not from NaN entries) is infinity.
	nanIn := c.Prim("reduce_or", trace.Params{"axes": []int{a.NDim() - 2, a.NDim() - 1}}, c.Binary("ne", a, a))
	isNaN := c.Binary("ne", r, r)
	fix := c.Binary("and", isNaN, c.Unary("not", nanIn))
	return c.Done(c.Select(fix, c.FullLike(r, math.Inf(1), r.DType()), r))
}

// jnpLinalg calls a jnp.linalg member with an array first.
func (c *la) jnpLinalg(name string, a *jstarlark.Array, args starlark.Tuple) *jstarlark.Array {
	if !c.OK(a) {
		return nil
	}
	v, err := linalgModule.Members[name].(*starlark.Builtin).CallInternal(nil, append(starlark.Tuple{a}, args...), nil)
	if err != nil {
		return c.Fail(err)
	}
	return v.(*jstarlark.Array)
}

func tensorinvBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.tensorinv"
	var x starlark.Value
	ind := 2
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "ind?", &ind); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x)
	if err != nil {
		return nil, err
	}
	a, err := inexactArray(fn, arrs[0])
	if err != nil {
		return nil, err
	}
	if ind <= 0 || ind > a.NDim() {
		return nil, fmt.Errorf("%s: ind must be a positive integer at most the rank %d, got %d", fn, a.NDim(), ind)
	}
	rows, cols := 1, 1
	for _, d := range a.Shape()[:ind] {
		rows *= d
	}
	for _, d := range a.Shape()[ind:] {
		cols *= d
	}
	if rows != cols {
		return nil, fmt.Errorf("%s: the first %d axes of shape %s must have the size of the others", fn, ind, a.Shape())
	}
	c := newLA(fn)
	m := c.Reshape(a, trace.Shape{rows, cols})
	if !c.OK(m) {
		return nil, c.Err
	}
	mi, err := inv(fn, m)
	if err != nil {
		return nil, err
	}
	return c.Done(c.Reshape(mi, append(a.Shape()[ind:].Clone(), a.Shape()[:ind]...)))
}

func tensorsolveBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.tensorsolve"
	var x, y starlark.Value
	var axesV starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "b", &y, "axes?", &axesV); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	a, err := inexactArray(fn, arrs[0])
	if err != nil {
		return nil, err
	}
	b, err := jstarlark.Astype(arrs[1], a.DType())
	if err != nil {
		return nil, err
	}
	c := newLA(fn)
	if axesV != starlark.None {
		raw, err := normAxisArg(fn, axesV)
		if err != nil {
			return nil, err
		}
		from, err := trace.NormalizeAxes(raw, a.NDim())
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		to := make([]int, len(from))
		for i := range to {
			to[i] = a.NDim() - len(from) + i
		}
		if a, err = moveAxes(a, from, to); err != nil {
			return nil, err
		}
	}
	if b.NDim() > a.NDim() {
		return nil, fmt.Errorf("%s: b of shape %s has more axes than a of shape %s", fn, b.Shape(), a.Shape())
	}
	outShape := slices.Clone([]int(a.Shape()[b.NDim():]))
	size := 1
	for _, d := range outShape {
		size *= d
	}
	if size != b.Size() {
		return nil, fmt.Errorf("%s: a's trailing axes %s must hold as many elements as b of shape %s", fn, trace.Shape(outShape), b.Shape())
	}
	m := c.Reshape(a, trace.Shape{b.Size(), size})
	v := c.Reshape(b, trace.Shape{b.Size()})
	if !c.OK(m, v) {
		return nil, c.Err
	}
	sol, err := solve(fn, m, v)
	if err != nil {
		return nil, err
	}
	return c.Done(c.Reshape(sol, outShape))
}
