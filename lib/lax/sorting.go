package lax

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// lax's sorting, cumulative and clamping operations: one primitive each
// (sort, cumsum/cumprod/cummax/cummin, clamp, bitcast_convert_type), and
// top_k as a stable sort, as jax.lax has them.

func init() {
	jstarlark.Register(Module, "sort", laxSortBuiltin)
	jstarlark.Register(Module, "sort_key_val", laxSortKeyValBuiltin)
	jstarlark.Register(Module, "top_k", laxTopKBuiltin)
	jstarlark.Register(Module, "clamp", laxClampBuiltin)
	jstarlark.Register(Module, "bitcast_convert_type", laxBitcastBuiltin)
	for _, name := range []string{"cumsum", "cumprod", "cummax", "cummin"} {
		jstarlark.Register(Module, name, laxCumulativeBuiltin(name))
	}
	// Precision's members are the names precision= reads (ReadDotOptions).
	jstarlark.RegisterValue(Module, "Precision", starlarkstruct.FromStringDict(starlark.String("Precision"), starlark.StringDict{
		"DEFAULT": starlark.String("DEFAULT"),
		"HIGH":    starlark.String("HIGH"),
		"HIGHEST": starlark.String("HIGHEST"),
	}))
}

// sortOperands reads sort's operand: one array or a sequence of arrays of
// one shape.
func sortOperands(fn string, operand starlark.Value) ([]*jstarlark.Array, bool, error) {
	if a, ok := operand.(*jstarlark.Array); ok {
		return []*jstarlark.Array{a}, false, nil
	}
	items, err := ItemsArg(fn, "operand", operand)
	if err != nil {
		return nil, false, err
	}
	if len(items) == 0 {
		return nil, false, fmt.Errorf("%s: needs at least one operand", fn)
	}
	arrs := make([]*jstarlark.Array, len(items))
	for i, it := range items {
		a, ok := it.(*jstarlark.Array)
		if !ok {
			return nil, false, fmt.Errorf("%s: operand %d must be an array, got %s", fn, i, it.Type())
		}
		arrs[i] = a
	}
	return arrs, true, nil
}

func bindSort(fn string, arrs []*jstarlark.Array, dimension int, stable bool, numKeys int) ([]*jstarlark.Array, error) {
	if arrs[0].NDim() == 0 {
		return nil, fmt.Errorf("%s: cannot sort a scalar (rank 0)", fn)
	}
	dim, err := jstarlark.NormalizeAxisOf(fn, dimension, arrs[0].NDim(), arrs[0])
	if err != nil {
		return nil, err
	}
	outs, err := jstarlark.Bind("sort", trace.Params{"dimension": dim, "is_stable": stable, "num_keys": numKeys}, arrs...)
	return outs, laxError(fn, err)
}

// laxSortBuiltin is lax.sort(operand, dimension=-1, is_stable=True,
// num_keys=1): operand one array or a sequence sorted together by its
// first num_keys arrays (lexicographically).
func laxSortBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.sort"
	var operand starlark.Value
	dimension, stable, numKeys := -1, true, 1
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &operand, "dimension?", &dimension, "is_stable?", &stable, "num_keys?", &numKeys); err != nil {
		return nil, err
	}
	arrs, many, err := sortOperands(fn, operand)
	if err != nil {
		return nil, err
	}
	outs, err := bindSort(fn, arrs, dimension, stable, numKeys)
	if err != nil {
		return nil, err
	}
	if !many {
		return outs[0], nil
	}
	t := make(starlark.Tuple, len(outs))
	for i, o := range outs {
		t[i] = o
	}
	return t, nil
}

// laxSortKeyValBuiltin is lax.sort_key_val(keys, values, dimension=-1,
// is_stable=True).
func laxSortKeyValBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.sort_key_val"
	var keys, values *jstarlark.Array
	dimension, stable := -1, true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "keys", &keys, "values", &values, "dimension?", &dimension, "is_stable?", &stable); err != nil {
		return nil, err
	}
	outs, err := bindSort(fn, []*jstarlark.Array{keys, values}, dimension, stable, 1)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{outs[0], outs[1]}, nil
}

// laxTopKBuiltin is lax.top_k(operand, k): the k largest entries along the
// last axis, largest first, and their int32 indices; equal entries keep
// their order (the lower index first), as XLA's TopK. It sorts the
// reversed axis stably in ascending order, so that reversing the result
// back puts equal entries lowest index first.
func laxTopKBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.top_k"
	var x *jstarlark.Array
	var k int
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "k", &k); err != nil {
		return nil, err
	}
	if x.NDim() == 0 {
		return nil, fmt.Errorf("%s: operand must have at least one dimension, got %s", fn, jstarlark.Describe(x))
	}
	last := x.NDim() - 1
	n := x.Shape()[last]
	if k < 0 || k > n {
		return nil, fmt.Errorf("%s: k must lie in [0, %d] (the last axis's size), got %d", fn, n, k)
	}
	iota, err := Iota(x.Device(), trace.Int32, x.Shape(), last)
	if err != nil {
		return nil, laxError(fn, err)
	}
	rev := trace.Params{"dimensions": []int{last}}
	xr, err := jstarlark.Bind1("rev", rev, x)
	if err != nil {
		return nil, laxError(fn, err)
	}
	ir, err := jstarlark.Bind1("rev", rev, iota)
	if err != nil {
		return nil, laxError(fn, err)
	}
	sorted, err := bindSort(fn, []*jstarlark.Array{xr, ir}, last, true, 1)
	if err != nil {
		return nil, err
	}
	out := make(starlark.Tuple, 2)
	for i, s := range sorted {
		r, err := jstarlark.Bind1("rev", rev, s)
		if err != nil {
			return nil, laxError(fn, err)
		}
		start := make([]int, x.NDim())
		limit := append([]int(nil), x.Shape()...)
		limit[last] = k
		strides := make([]int, x.NDim())
		for j := range strides {
			strides[j] = 1
		}
		if out[i], err = jstarlark.Bind1("slice", trace.Params{"start_indices": start, "limit_indices": limit, "strides": strides}, r); err != nil {
			return nil, laxError(fn, err)
		}
	}
	return out, nil
}

// laxClampBuiltin is lax.clamp(min, x, max): min and max scalars or of x's
// shape, all of one dtype.
func laxClampBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.clamp"
	var lo, x, hi starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "min", &lo, "x", &x, "max", &hi); err != nil {
		return nil, err
	}
	arrs, err := laxOperands(fn, x, lo, hi)
	if err != nil {
		return nil, err
	}
	if err := checkSameDTypes(fn, "clip", arrs...); err != nil {
		return nil, err
	}
	r, err := jstarlark.Bind1("clamp", nil, arrs[1], arrs[0], arrs[2])
	return Result(fn, r, err)
}

// laxBitcastBuiltin is lax.bitcast_convert_type(operand, new_dtype): the
// same bits read as new_dtype; a narrower dtype adds a trailing axis, a
// wider one consumes it.
func laxBitcastBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.bitcast_convert_type"
	var x *jstarlark.Array
	var dtype starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "new_dtype", &dtype); err != nil {
		return nil, err
	}
	dt, ok, err := jstarlark.DTypeArg(fn, dtype)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: new_dtype must not be None", fn)
	}
	r, err := jstarlark.Bind1("bitcast_convert_type", trace.Params{"new_dtype": dt}, x)
	return Result(fn, r, err)
}

// laxCumulativeBuiltin is lax.cumsum/cumprod/cummax/cummin(operand,
// axis=0, reverse=False).
func laxCumulativeBuiltin(prim string) jstarlark.BuiltinFunc {
	fn := "lax." + prim
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x *jstarlark.Array
		axis, reverse := 0, false
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "axis?", &axis, "reverse?", &reverse); err != nil {
			return nil, err
		}
		if x.NDim() == 0 {
			return nil, fmt.Errorf("%s: operand must have at least one dimension, got %s", fn, jstarlark.Describe(x))
		}
		ax, err := jstarlark.NormalizeAxisOf(fn, axis, x.NDim(), x)
		if err != nil {
			return nil, err
		}
		r, err := jstarlark.Bind1(prim, trace.Params{"axis": ax, "reverse": reverse}, x)
		return Result(fn, r, err)
	}
}
