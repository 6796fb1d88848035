package numpy

import (
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/lib/lax"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Products of arrays: jnp.dot, matmul (also a @ b), vdot, inner, outer,
// tensordot, and lax.dot_general, all lowered to dot_general as
// jax/_src/numpy/tensor_contractions.py lowers them. The operands keep their
// dtypes; dot_general's preferred_element_type is JAX's result type of the
// operands (so int8 @ int8 is int8, as in JAX, and preferred_element_type=
// jnp.int32 accumulates and returns int32), and the result is converted to
// that type with the operands' weak flag. Precision is passed through as
// given, None by default: SPEC §3 makes every float32 product full float32
// precision whatever is asked.

func init() {
	jstarlark.Register(Module, "dot", linalgBinaryBuiltin("dot", dot))
	jstarlark.Register(Module, "vdot", linalgBinaryBuiltin("vdot", vdot))
	jstarlark.Register(Module, "inner", linalgBinaryBuiltin("inner", inner))
	jstarlark.Register(Module, "outer", outerBuiltin)
	jstarlark.Register(Module, "tensordot", tensordotBuiltin)
	jstarlark.Register(Module, "trace", traceBuiltin)
	jstarlark.Register(Module, "matmul", matmulBuiltin)
	// matmul lives in the ufunc table so that a @ b finds it; it also
	// takes precision= and preferred_element_type= as a jnp function.
	registerBinary("matmul", func(x, y starlark.Value) (*jstarlark.Array, error) {
		return linalgCall("matmul", matmul, x, y, lax.DotOptions{})
	})
}

type dotFunc func(fn string, a, b *jstarlark.Array, opts lax.DotOptions) (*jstarlark.Array, error)

// linalgOperands is JAX's ensure_arraylike: arrays, and Python scalars as
// weakly typed 0-d arrays; sequences are rejected as jnp rejects them.
func linalgOperands(fn string, vals ...starlark.Value) ([]*jstarlark.Array, error) {
	dev, err := jstarlark.OperandDevice(vals...)
	if err != nil {
		return nil, err
	}
	out := make([]*jstarlark.Array, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case *jstarlark.Array:
			out[i] = x
		case starlark.Int, starlark.Float, starlark.Bool:
			if out[i], err = jstarlark.AsArray(fn, x, dev); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s requires ndarray or scalar arguments, got %s at position %d", fn, v.Type(), i)
		}
	}
	return out, nil
}

func linalgCall(fn string, f dotFunc, x, y starlark.Value, opts lax.DotOptions) (*jstarlark.Array, error) {
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	return f(fn, arrs[0], arrs[1], opts)
}

// productType is the type of a product's result: preferred_element_type
// when given (strong), else JAX's result type of the operands, weak when
// they all are.
func productType(fn string, opts lax.DotOptions, arrs ...*jstarlark.Array) (trace.Type, error) {
	if opts.Preferred != trace.InvalidDType {
		return trace.Type{DType: opts.Preferred}, nil
	}
	vals := make([]starlark.Value, len(arrs))
	for i, a := range arrs {
		vals[i] = a
	}
	return jstarlark.ResultType(fn, vals...)
}

// dotGeneral binds dot_general with the product's type as preferred type
// and converts the result to that type.
func dotGeneral(a, b *jstarlark.Array, dn trace.DotDimensionNumbers, opts lax.DotOptions, t trace.Type) (*jstarlark.Array, error) {
	return jstarlark.Bind1("dot_general", trace.Params{
		"dimension_numbers":      dn,
		"precision":              opts.Precision,
		"preferred_element_type": t.DType,
	}, a, b)
}

// dot is jnp.dot: a scalar operand multiplies, otherwise the last axis of a
// contracts with b's only axis or its second to last.
func dot(fn string, a, b *jstarlark.Array, opts lax.DotOptions) (*jstarlark.Array, error) {
	t, err := productType(fn, opts, a, b)
	if err != nil {
		return nil, err
	}
	var lc, rc []int
	if a.NDim() > 0 && b.NDim() > 0 {
		bAxis := 0
		if b.NDim() > 1 {
			bAxis = b.NDim() - 2
		}
		if a.Shape()[a.NDim()-1] != b.Shape()[bAxis] {
			return nil, fmt.Errorf("%s: shapes %s and %s not aligned: %d (dim %d) != %d (dim %d)",
				fn, a.Shape(), b.Shape(), a.Shape()[a.NDim()-1], a.NDim()-1, b.Shape()[bAxis], bAxis)
		}
		lc, rc = []int{a.NDim() - 1}, []int{bAxis}
	}
	out, err := dotGeneral(a, b, lax.DotDims(lc, rc, nil, nil), opts, t)
	if err != nil {
		return nil, err
	}
	return jstarlark.ConvertType(out, t)
}

// matmul is jnp.matmul: batch axes broadcast, a 1-d operand is a vector
// (its axis dropped from the result). Batch axes of size 1 on one side are
// squeezed out and become free axes of the other, as JAX does, so the
// dot_general needs no broadcast copies.
func matmul(fn string, a, b *jstarlark.Array, opts lax.DotOptions) (*jstarlark.Array, error) {
	for i, x := range []*jstarlark.Array{a, b} {
		if x.NDim() < 1 {
			return nil, fmt.Errorf("%s input operand %d must have ndim at least 1, but it has ndim 0", fn, i)
		}
	}
	t, err := productType(fn, opts, a, b)
	if err != nil {
		return nil, err
	}
	aMat, bMat := a.NDim() > 1, b.NDim() > 1
	bContract := b.NDim() - 1
	if bMat {
		bContract = b.NDim() - 2
	}
	if a.Shape()[a.NDim()-1] != b.Shape()[bContract] {
		return nil, fmt.Errorf("%s: shapes %s and %s are incompatible: contracting dimensions %d and %d differ",
			fn, a.Shape(), b.Shape(), a.Shape()[a.NDim()-1], b.Shape()[bContract])
	}
	if a.NDim() == 2 && b.NDim() == 2 {
		// The commonest product, a matrix by a matrix, needs none of the
		// batch bookkeeping below: one dot_general, no transpose.
		out, err := dotGeneral(a, b, lax.DotDims([]int{1}, []int{0}, nil, nil), opts, t)
		if err != nil {
			return nil, err
		}
		return jstarlark.ConvertType(out, t)
	}
	var aBatch, bBatch []int
	if aMat {
		aBatch = a.Shape()[:a.NDim()-2]
	}
	if bMat {
		bBatch = b.Shape()[:b.NDim()-2]
	}
	nb := max(len(aBatch), len(bBatch))
	padded := func(s []int) []int {
		out := make([]int, nb)
		for i := range out {
			out[i] = -1 // no such axis: the other operand broadcasts
		}
		copy(out[nb-len(s):], s)
		return out
	}
	aBatch, bBatch = padded(aBatch), padded(bBatch)
	var aSqueeze, bSqueeze, bothSqueeze, aBatchDims, bBatchDims, idxBatch, idxAOther, idxBOther []int
	for i := range nb {
		ba, bb := aBatch[i], bBatch[i]
		switch {
		case ba == -1:
			idxBOther = append(idxBOther, i)
		case bb == -1:
			idxAOther = append(idxAOther, i)
		case ba == 1 && bb == 1:
			aSqueeze = append(aSqueeze, len(idxBatch)+len(idxAOther)+len(aSqueeze))
			bSqueeze = append(bSqueeze, len(idxBatch)+len(idxBOther)+len(bSqueeze))
			bothSqueeze = append(bothSqueeze, i)
		case ba == 1:
			idxBOther = append(idxBOther, i)
			aSqueeze = append(aSqueeze, len(idxBatch)+len(idxAOther)+len(aSqueeze))
		case bb == 1:
			idxAOther = append(idxAOther, i)
			bSqueeze = append(bSqueeze, len(idxBatch)+len(idxBOther)+len(bSqueeze))
		case ba == bb:
			aBatchDims = append(aBatchDims, len(idxBatch)+len(idxAOther))
			bBatchDims = append(bBatchDims, len(idxBatch)+len(idxBOther))
			idxBatch = append(idxBatch, i)
		default:
			return nil, fmt.Errorf("%s: incompatible shapes for matmul arguments: %s and %s (batch dimensions %d and %d)", fn, a.Shape(), b.Shape(), ba, bb)
		}
	}
	if aMat {
		idxAOther = append(idxAOther, nb)
	}
	if bMat {
		idx := nb
		if aMat {
			idx++
		}
		idxBOther = append(idxBOther, idx)
	}
	// The dot_general result has batch, a's free and b's free axes in that
	// order; perm puts each where the broadcast result wants it.
	wanted := slices.Concat(idxBatch, idxAOther, idxBOther)
	perm := make([]int, len(wanted))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(i, j int) int { return wanted[i] - wanted[j] })
	if a, err = jstarlark.Squeeze(a, aSqueeze); err != nil {
		return nil, err
	}
	if b, err = jstarlark.Squeeze(b, bSqueeze); err != nil {
		return nil, err
	}
	rc := b.NDim() - 1
	if bMat {
		rc--
	}
	out, err := dotGeneral(a, b, lax.DotDims([]int{a.NDim() - 1}, []int{rc}, aBatchDims, bBatchDims), opts, t)
	if err != nil {
		return nil, err
	}
	if out, err = lax.Transpose(out, perm); err != nil {
		return nil, err
	}
	if out, err = jstarlark.ExpandDims(out, bothSqueeze); err != nil {
		return nil, err
	}
	return jstarlark.ConvertType(out, t)
}

// vdot flattens both operands and takes their dot product (conjugating the
// first, which matters only for complex dtypes).
func vdot(fn string, a, b *jstarlark.Array, opts lax.DotOptions) (*jstarlark.Array, error) {
	a, err := complexPart(fn, "conj", a)
	if err != nil {
		return nil, err
	}
	fa, err := lax.Reshape(a, []int{a.Size()})
	if err != nil {
		return nil, err
	}
	fb, err := lax.Reshape(b, []int{b.Size()})
	if err != nil {
		return nil, err
	}
	return dot(fn, fa, fb, opts)
}

// inner contracts the last axes of both operands; with a scalar it
// multiplies.
func inner(fn string, a, b *jstarlark.Array, opts lax.DotOptions) (*jstarlark.Array, error) {
	if a.NDim() == 0 || b.NDim() == 0 {
		if opts.Preferred != trace.InvalidDType {
			var err error
			if a, err = jstarlark.Astype(a, opts.Preferred); err != nil {
				return nil, err
			}
			if b, err = jstarlark.Astype(b, opts.Preferred); err != nil {
				return nil, err
			}
		}
		return jstarlark.Elementwise(fn, "mul", nil, a, b)
	}
	return tensordot(fn, a, b, []int{a.NDim() - 1}, []int{b.NDim() - 1}, opts)
}

// tensordot contracts a's axes aAxes with b's bAxes (already resolved).
func tensordot(fn string, a, b *jstarlark.Array, aAxes, bAxes []int, opts lax.DotOptions) (*jstarlark.Array, error) {
	t, err := productType(fn, opts, a, b)
	if err != nil {
		return nil, err
	}
	for i := range aAxes {
		if a.Shape()[aAxes[i]] != b.Shape()[bAxes[i]] {
			return nil, fmt.Errorf("%s: shape mismatch for sum: axis %d of %s has size %d, axis %d of %s has size %d",
				fn, aAxes[i], a.Shape(), a.Shape()[aAxes[i]], bAxes[i], b.Shape(), b.Shape()[bAxes[i]])
		}
	}
	out, err := dotGeneral(a, b, lax.DotDims(aAxes, bAxes, nil, nil), opts, t)
	if err != nil {
		return nil, err
	}
	return jstarlark.ConvertType(out, t)
}

func linalgBinaryBuiltin(name string, f dotFunc) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, y starlark.Value
		var precision, preferred starlark.Value = starlark.None, starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "a", &x, "b", &y, "precision?", &precision, "preferred_element_type?", &preferred); err != nil {
			return nil, err
		}
		opts, err := lax.ReadDotOptions(name, precision, preferred)
		if err != nil {
			return nil, err
		}
		return linalgCall(name, f, x, y, opts)
	}
}

// matmulBuiltin is jnp.matmul with its keyword arguments; a @ b uses the
// ufunc registered above.
func matmulBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return linalgBinaryBuiltin("matmul", matmul)(nil, b, args, kwargs)
}

func outerBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "outer"
	var x, y starlark.Value
	var out starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "b", &y, "out?", &out); err != nil {
		return nil, err
	}
	if out != starlark.None {
		return nil, fmt.Errorf("%s: the 'out' argument is not supported (arrays are immutable)", fn)
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.Promote(fn, arrs[0], arrs[1]); err != nil {
		return nil, err
	}
	col, err := lax.Reshape(arrs[0], []int{arrs[0].Size(), 1})
	if err != nil {
		return nil, err
	}
	row, err := lax.Reshape(arrs[1], []int{1, arrs[1].Size()})
	if err != nil {
		return nil, err
	}
	return jstarlark.Elementwise(fn, "mul", nil, col, row)
}

func tensordotBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "tensordot"
	var x, y starlark.Value
	var axes starlark.Value = starlark.MakeInt(2)
	var precision, preferred starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "b", &y, "axes?", &axes, "precision?", &precision, "preferred_element_type?", &preferred); err != nil {
		return nil, err
	}
	opts, err := lax.ReadDotOptions(fn, precision, preferred)
	if err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	a, bb := arrs[0], arrs[1]
	aAxes, bAxes, err := tensordotAxes(fn, axes, a, bb)
	if err != nil {
		return nil, err
	}
	return tensordot(fn, a, bb, aAxes, bAxes, opts)
}

// tensordotAxes reads axes: an int n (a's last n axes with b's first n), a
// pair of ints, or a pair of equally long sequences of ints.
func tensordotAxes(fn string, v starlark.Value, a, b *jstarlark.Array) ([]int, []int, error) {
	if n, ok := v.(starlark.Int); ok {
		k, ok := n.Int64()
		if !ok || k < 0 || k > int64(min(a.NDim(), b.NDim())) {
			return nil, nil, fmt.Errorf("%s: number of tensordot axes (axes %s) exceeds input ranks (%s and %s)", fn, n, a.Shape(), b.Shape())
		}
		var aAxes, bAxes []int
		for i := range int(k) {
			aAxes = append(aAxes, a.NDim()-int(k)+i)
			bAxes = append(bAxes, i)
		}
		return aAxes, bAxes, nil
	}
	pair, err := lax.ItemsArg(fn, "axes", v)
	if err != nil || len(pair) != 2 {
		return nil, nil, fmt.Errorf("%s: axes argument must be an int, a pair of ints, or a pair of lists/tuples of ints, got %s", fn, v)
	}
	resolve := func(x starlark.Value, arr *jstarlark.Array) ([]int, bool, error) {
		var axes []int
		seq := true
		if n, ok := x.(starlark.Int); ok {
			var i int
			if err := starlark.AsInt(n, &i); err != nil {
				return nil, false, err
			}
			axes, seq = []int{i}, false
		} else if axes, err = lax.IntsArg(fn, "axes", x); err != nil {
			return nil, false, err
		}
		for i, ax := range axes {
			n, err := trace.NormalizeAxis(ax, arr.NDim())
			if err != nil {
				return nil, false, fmt.Errorf("%s: %v", fn, err)
			}
			axes[i] = n
		}
		return axes, seq, nil
	}
	aAxes, aSeq, err := resolve(pair[0], a)
	if err != nil {
		return nil, nil, err
	}
	bAxes, bSeq, err := resolve(pair[1], b)
	if err != nil {
		return nil, nil, err
	}
	if aSeq != bSeq {
		return nil, nil, fmt.Errorf("%s requires both axes lists to be either ints, tuples or lists, got %s and %s", fn, pair[0], pair[1])
	}
	if len(aAxes) != len(bAxes) {
		return nil, nil, fmt.Errorf("%s requires axes lists to have equal length, got %s and %s", fn, pair[0], pair[1])
	}
	return aAxes, bAxes, nil
}

// traceBuiltin is jnp.trace: the sum of a diagonal, by masking everything
// else with an eye and summing the two axes (as JAX does), so the sum's
// dtype rules are jnp.sum's.
func traceBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "trace"
	var x starlark.Value
	var offset, axis1, axis2 = 0, 0, 1
	var dtype, out starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &x, "offset?", &offset, "axis1?", &axis1, "axis2?", &axis2, "dtype?", &dtype, "out?", &out); err != nil {
		return nil, err
	}
	if out != starlark.None {
		return nil, fmt.Errorf("%s: the 'out' argument is not supported (arrays are immutable)", fn)
	}
	arrs, err := linalgOperands(fn, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	if a.NDim() < 2 {
		return nil, fmt.Errorf("%s requires an array of at least two dimensions, got %s", fn, jstarlark.Describe(a))
	}
	ax1, err := trace.NormalizeAxis(axis1, a.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	ax2, err := trace.NormalizeAxis(axis2, a.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	if ax1 == ax2 {
		return nil, fmt.Errorf("%s: axis1 and axis2 can not be same. axis1=%d and axis2=%d", fn, axis1, axis2)
	}
	if _, _, err := jstarlark.DTypeArg(fn, dtype); err != nil {
		return nil, err
	}
	n, m := a.Shape()[ax1], a.Shape()[ax2]
	// moveaxis(a, (axis1, axis2), (-2, -1))
	var perm []int
	for i := range a.NDim() {
		if i != ax1 && i != ax2 {
			perm = append(perm, i)
		}
	}
	perm = append(perm, ax1, ax2)
	moved, err := lax.Transpose(a, perm)
	if err != nil {
		return nil, err
	}
	masked, err := keepDiagonal(moved, n, m, offset)
	if err != nil {
		return nil, err
	}
	kw := []starlark.Tuple{
		{starlark.String("axis"), starlark.Tuple{starlark.MakeInt(-2), starlark.MakeInt(-1)}},
		{starlark.String("dtype"), dtype},
	}
	return callJnp("sum", masked, nil, kw)
}

// keepDiagonal zeroes every element of the last two axes (n, m) of a off
// the diagonal at offset k: where(eye(n, m, k), a, 0).
func keepDiagonal(a *jstarlark.Array, n, m, k int) (*jstarlark.Array, error) {
	dev := a.Device()
	rows, err := lax.Iota(dev, trace.Int32, []int{n, m}, 0)
	if err != nil {
		return nil, err
	}
	cols, err := lax.Iota(dev, trace.Int32, []int{n, m}, 1)
	if err != nil {
		return nil, err
	}
	off, err := jstarlark.Const(dev, trace.Int32, starlark.MakeInt(k))
	if err != nil {
		return nil, err
	}
	shifted, err := jstarlark.Bind1("add", nil, rows, off)
	if err != nil {
		return nil, err
	}
	eye, err := jstarlark.Bind1("eq", nil, shifted, cols)
	if err != nil {
		return nil, err
	}
	if eye, err = jstarlark.BroadcastInDim(eye, a.Shape(), []int{a.NDim() - 2, a.NDim() - 1}); err != nil {
		return nil, err
	}
	zeros, err := lax.Full(dev, a.AVal().Type(), a.Shape(), starlark.MakeInt(0))
	if err != nil {
		return nil, err
	}
	return jstarlark.Select(eye, a, zeros)
}
