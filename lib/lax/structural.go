package lax

import (
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The structural operations of lax, each one primitive: the Go helpers that
// indexing, .at[] and linear algebra are built from, and the thin Starlark
// wrappers of module lax. As in JAX, lax never promotes: operands must share
// a dtype, and the only conversion is that of a Python scalar, which is
// weakly typed and takes the dtype of the array it meets when that dtype
// can hold it (lax.pad(x, 0, ...) on a float32 x pads with 0.0).

// laxReshape reshapes a, skipping the primitive when the shape is unchanged.
func Reshape(a *jstarlark.Array, sizes []int) (*jstarlark.Array, error) {
	if a.Shape().Equal(sizes) {
		return a, nil
	}
	return jstarlark.Bind1("reshape", trace.Params{"new_sizes": slices.Clone(sizes)}, a)
}

// Transpose permutes a's axes, skipping the identity permutation.
func Transpose(a *jstarlark.Array, perm []int) (*jstarlark.Array, error) {
	identity := len(perm) == a.NDim()
	for i, p := range perm {
		identity = identity && p == i
	}
	if identity {
		return a, nil
	}
	return jstarlark.Bind1("transpose", trace.Params{"permutation": slices.Clone(perm)}, a)
}

// laxIota is an iota of dtype dt counting along dim of shape.
func Iota(dev jit.Device, dt trace.DType, shape []int, dim int) (*jstarlark.Array, error) {
	out, err := jstarlark.BindOn(dev, "iota", trace.Params{"dtype": dt, "shape": slices.Clone(shape), "dimension": dim})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// Full is lax.full: a constant broadcast to shape.
func Full(dev jit.Device, t trace.Type, shape []int, v starlark.Value) (*jstarlark.Array, error) {
	c, err := jstarlark.ScalarArray("full", v, t.DType, t.Weak, dev)
	if err != nil {
		return nil, err
	}
	return jstarlark.BroadcastInDim(c, shape, nil)
}

// laxSameDType converts a padding value or update for operand x under lax's
// rule: an array must have x's dtype; a Python scalar takes x's dtype when
// its weak type promotes to it.
func laxSameDType(fn, what string, x *jstarlark.Array, v starlark.Value) (*jstarlark.Array, error) {
	if b, ok := v.(*jstarlark.Array); ok {
		if b.DType() != x.DType() {
			return nil, fmt.Errorf("%s: operand and %s must have the same dtype, got %s and %s", fn, what, x.DType(), b.DType())
		}
		return b, nil
	}
	st, ok := jstarlark.ScalarType(v)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be an array or a number, got %s", fn, what, v.Type())
	}
	joined, err := trace.ResultType(x.AVal().Type(), st)
	if err != nil || joined.DType != x.DType() {
		return nil, fmt.Errorf("%s: operand and %s must have the same dtype, got %s and %s (a Python %s)", fn, what, x.DType(), st.DType, v.Type())
	}
	return jstarlark.ScalarArray(fn, v, x.DType(), st.Weak, x.Device())
}

// OperandArg is lax's view of an operand: an array, or a Python scalar as a
// weakly typed 0-d array. Sequences are not arrays to lax.
func OperandArg(fn, what string, v starlark.Value, dev jit.Device) (*jstarlark.Array, error) {
	switch x := v.(type) {
	case *jstarlark.Array:
		return x, nil
	case starlark.Int, starlark.Float, starlark.Bool:
		if dev == nil {
			d, err := jstarlark.DefaultDevice()
			if err != nil {
				return nil, err
			}
			dev = d
		}
		return jstarlark.AsArray(fn, x, dev)
	}
	return nil, fmt.Errorf("%s: %s must be an array, got %s", fn, what, v.Type())
}

// IntsArg reads a static sequence of ints (a tuple, a list, or a 1-d integer
// array, which lax accepts for dimensions too).
func IntsArg(fn, what string, v starlark.Value) ([]int, error) {
	var items []starlark.Value
	switch x := v.(type) {
	case starlark.Tuple:
		items = x
	case *starlark.List:
		for i := 0; i < x.Len(); i++ {
			items = append(items, x.Index(i))
		}
	case *jstarlark.Array:
		if x.NDim() != 1 || !x.DType().IsInteger() {
			return nil, fmt.Errorf("%s: %s must be a sequence of ints, got %s", fn, what, jstarlark.Describe(x))
		}
		l, err := x.ToList()
		if err != nil {
			return nil, err
		}
		return IntsArg(fn, what, l)
	default:
		return nil, fmt.Errorf("%s: %s must be a sequence of ints, got %s", fn, what, v.Type())
	}
	out := make([]int, len(items))
	for i, it := range items {
		n, ok := it.(starlark.Int)
		if !ok {
			return nil, fmt.Errorf("%s: %s must be a sequence of ints, got %s containing %s", fn, what, v.Type(), it.Type())
		}
		if err := starlark.AsInt(n, &out[i]); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", fn, what, err)
		}
	}
	return out, nil
}

// ItemsArg reads a sequence argument (tuple or list) as its items.
func ItemsArg(fn, what string, v starlark.Value) ([]starlark.Value, error) {
	switch x := v.(type) {
	case starlark.Tuple:
		return x, nil
	case *starlark.List:
		items := make([]starlark.Value, x.Len())
		for i := range items {
			items[i] = x.Index(i)
		}
		return items, nil
	}
	return nil, fmt.Errorf("%s: %s must be a tuple or list, got %s", fn, what, v.Type())
}

// laxStartIndices reads the start indices of dynamic_slice and
// dynamic_update_slice: a sequence of ints and 0-d integer arrays, or a 1-d
// integer array. Negative indices count from the end (lax's
// allow_negative_indices), statically for Python ints and with select for
// arrays; the primitive then clamps the window into the operand. All
// indices end up with one dtype: that of the array indices (Python ints take
// it, as weak scalars do), int32 when there are none.
func laxStartIndices(fn string, x *jstarlark.Array, v starlark.Value) ([]*jstarlark.Array, error) {
	var items []starlark.Value
	if a, ok := v.(*jstarlark.Array); ok {
		if a.NDim() != 1 {
			return nil, fmt.Errorf("%s: start indices must be a 1-d sequence, got %s", fn, jstarlark.Describe(a))
		}
		for i := 0; i < a.Shape()[0]; i++ {
			row, err := a.GetItem(starlark.MakeInt(i))
			if err != nil {
				return nil, err
			}
			items = append(items, row)
		}
	} else {
		var err error
		if items, err = ItemsArg(fn, "start_indices", v); err != nil {
			return nil, err
		}
	}
	if len(items) != x.NDim() {
		return nil, fmt.Errorf("%s: length of start indices must match the operand's rank, got %d for operand %s", fn, len(items), jstarlark.Describe(x))
	}
	dt := trace.Int32
	for _, it := range items {
		if a, ok := it.(*jstarlark.Array); ok {
			if a.NDim() != 0 || !a.DType().IsInteger() {
				return nil, fmt.Errorf("%s: start indices must be integer scalars, got %s", fn, jstarlark.Describe(a))
			}
			dt = a.DType()
			break
		}
	}
	out := make([]*jstarlark.Array, len(items))
	for i, it := range items {
		size := x.Shape()[i]
		switch idx := it.(type) {
		case starlark.Int:
			n, ok := idx.Int64()
			if !ok {
				return nil, fmt.Errorf("%s: start index %s is too large", fn, idx)
			}
			if n < 0 {
				n += int64(size)
			}
			c, err := jstarlark.Const(x.Device(), dt, starlark.MakeInt64(n))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", fn, err)
			}
			out[i] = c
		case *jstarlark.Array:
			if idx.NDim() != 0 || !idx.DType().IsInteger() {
				return nil, fmt.Errorf("%s: start indices must be integer scalars, got %s", fn, jstarlark.Describe(idx))
			}
			if idx.DType() != dt {
				return nil, fmt.Errorf("%s: start indices must share one integer dtype, got %s and %s", fn, dt, idx.DType())
			}
			norm, err := jstarlark.WrapNegative(idx, size)
			if err != nil {
				return nil, err
			}
			out[i] = norm
		default:
			return nil, fmt.Errorf("%s: start indices must be integers, got %s", fn, it.Type())
		}
	}
	return out, nil
}

// laxPaddingConfig reads lax.pad's padding_config: one (lo, hi, interior)
// triple per dimension.
func laxPaddingConfig(fn string, v starlark.Value, rank int) (trace.PaddingConfig, error) {
	items, err := ItemsArg(fn, "padding_config", v)
	if err != nil {
		return nil, err
	}
	if len(items) != rank {
		return nil, fmt.Errorf("%s: padding_config must have one (low, high, interior) triple per dimension (%d), got %d", fn, rank, len(items))
	}
	config := make(trace.PaddingConfig, rank)
	for i, it := range items {
		triple, err := IntsArg(fn, "padding_config", it)
		if err != nil {
			return nil, err
		}
		if len(triple) != 3 {
			return nil, fmt.Errorf("%s: padding_config entries must be (low, high, interior) triples, got %s", fn, it)
		}
		config[i] = trace.PadDim{Lo: triple[0], Hi: triple[1], Interior: triple[2]}
	}
	return config, nil
}

// laxError names the lax function in a primitive's error.
func laxError(fn string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %v", fn, err)
}

// Result returns a as a builtin's result, or err named as fn's error.
func Result(fn string, a *jstarlark.Array, err error) (starlark.Value, error) {
	if err != nil {
		return nil, laxError(fn, err)
	}
	return a, nil
}

func init() {
	jstarlark.Register(Module, "slice", laxSliceBuiltin)
	jstarlark.Register(Module, "dynamic_slice", laxDynamicSliceBuiltin)
	jstarlark.Register(Module, "dynamic_update_slice", laxDynamicUpdateSliceBuiltin)
	jstarlark.Register(Module, "transpose", laxTransposeBuiltin)
	jstarlark.Register(Module, "reshape", laxReshapeBuiltin)
	jstarlark.Register(Module, "squeeze", laxSqueezeBuiltin)
	jstarlark.Register(Module, "expand_dims", laxExpandDimsBuiltin)
	jstarlark.Register(Module, "concatenate", laxConcatenateBuiltin)
	jstarlark.Register(Module, "pad", laxPadBuiltin)
	jstarlark.Register(Module, "rev", laxRevBuiltin)
	jstarlark.Register(Module, "dot_general", laxDotGeneralBuiltin)
}

func laxSliceBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.slice"
	var operand, start, limit starlark.Value
	var strides starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "start_indices", &start, "limit_indices", &limit, "strides?", &strides); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	lo, err := IntsArg(fn, "start_indices", start)
	if err != nil {
		return nil, err
	}
	hi, err := IntsArg(fn, "limit_indices", limit)
	if err != nil {
		return nil, err
	}
	var st []int
	if strides != starlark.None {
		if st, err = IntsArg(fn, "strides", strides); err != nil {
			return nil, err
		}
	}
	out, err := jstarlark.StaticSlice(x, lo, hi, st)
	return Result(fn, out, err)
}

func laxDynamicSliceBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.dynamic_slice"
	var operand, start, sizes starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "start_indices", &start, "slice_sizes", &sizes); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	starts, err := laxStartIndices(fn, x, start)
	if err != nil {
		return nil, err
	}
	sz, err := IntsArg(fn, "slice_sizes", sizes)
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.Bind1("dynamic_slice", trace.Params{"slice_sizes": sz}, append([]*jstarlark.Array{x}, starts...)...)
	return Result(fn, out, err)
}

func laxDynamicUpdateSliceBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.dynamic_update_slice"
	var operand, update, start starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "update", &update, "start_indices", &start); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	u, err := laxSameDType(fn, "update", x, update)
	if err != nil {
		return nil, err
	}
	if u.NDim() != x.NDim() {
		return nil, fmt.Errorf("%s: update must have the operand's rank, got update %s and operand %s", fn, jstarlark.Describe(u), jstarlark.Describe(x))
	}
	starts, err := laxStartIndices(fn, x, start)
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.Bind1("dynamic_update_slice", nil, append([]*jstarlark.Array{x, u}, starts...)...)
	return Result(fn, out, err)
}

func laxTransposeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.transpose"
	var operand, perm starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "permutation", &perm); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	p, err := IntsArg(fn, "permutation", perm)
	if err != nil {
		return nil, err
	}
	out, err := Transpose(x, p)
	return Result(fn, out, err)
}

func laxReshapeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.reshape"
	var operand, sizes starlark.Value
	var dims starlark.Value = starlark.None
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "new_sizes", &sizes, "dimensions?", &dims); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	shape, err := IntsArg(fn, "new_sizes", sizes)
	if err != nil {
		return nil, err
	}
	if dims != starlark.None {
		// reshape with dimensions reads the operand in that axis order:
		// a transpose followed by a plain reshape.
		perm, err := IntsArg(fn, "dimensions", dims)
		if err != nil {
			return nil, err
		}
		if x, err = Transpose(x, perm); err != nil {
			return nil, laxError(fn, err)
		}
	}
	out, err := jstarlark.Bind1("reshape", trace.Params{"new_sizes": shape}, x)
	return Result(fn, out, err)
}

func laxSqueezeBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.squeeze"
	var operand, dims starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "array", &operand, "dimensions", &dims); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "array", operand, nil)
	if err != nil {
		return nil, err
	}
	d, err := IntsArg(fn, "dimensions", dims)
	if err != nil {
		return nil, err
	}
	if d, err = trace.NormalizeAxes(d, x.NDim()); err != nil {
		return nil, laxError(fn, err)
	}
	out, err := jstarlark.Squeeze(x, d)
	return Result(fn, out, err)
}

func laxExpandDimsBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.expand_dims"
	var operand, dims starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "array", &operand, "dimensions", &dims); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "array", operand, nil)
	if err != nil {
		return nil, err
	}
	d, err := IntsArg(fn, "dimensions", dims)
	if err != nil {
		return nil, err
	}
	if d, err = trace.NormalizeAxes(d, x.NDim()+len(d)); err != nil {
		return nil, laxError(fn, err)
	}
	out, err := jstarlark.ExpandDims(x, d)
	return Result(fn, out, err)
}

func laxConcatenateBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.concatenate"
	var operands starlark.Value
	var dim int
	if err := starlark.UnpackArgs(fn, args, kwargs, "operands", &operands, "dimension", &dim); err != nil {
		return nil, err
	}
	items, err := ItemsArg(fn, "operands", operands)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s: requires a non-empty sequence of arrays", fn)
	}
	arrs := make([]*jstarlark.Array, len(items))
	var dev jit.Device
	for i, it := range items {
		if arrs[i], err = OperandArg(fn, "operands", it, dev); err != nil {
			return nil, err
		}
		dev = arrs[i].Device()
		if arrs[i].DType() != arrs[0].DType() {
			return nil, fmt.Errorf("%s: operands must have the same dtype, got %s and %s", fn, arrs[0].DType(), arrs[i].DType())
		}
	}
	if len(arrs) == 1 {
		return arrs[0], nil
	}
	out, err := jstarlark.Bind1("concatenate", trace.Params{"dimension": dim}, arrs...)
	return Result(fn, out, err)
}

func laxPadBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.pad"
	var operand, value, config starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "padding_value", &value, "padding_config", &config); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	pv, err := laxSameDType(fn, "padding_value", x, value)
	if err != nil {
		return nil, err
	}
	cfg, err := laxPaddingConfig(fn, config, x.NDim())
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.Bind1("pad", trace.Params{"padding_config": cfg}, x, pv)
	return Result(fn, out, err)
}

func laxRevBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.rev"
	var operand, dims starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "operand", &operand, "dimensions", &dims); err != nil {
		return nil, err
	}
	x, err := OperandArg(fn, "operand", operand, nil)
	if err != nil {
		return nil, err
	}
	d, err := IntsArg(fn, "dimensions", dims)
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.Bind1("rev", trace.Params{"dimensions": d}, x)
	return Result(fn, out, err)
}
