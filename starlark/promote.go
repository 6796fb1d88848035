package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// operandDevice picks the device of an operation: that of its first array
// operand, else the default device.
func operandDevice(vals ...starlark.Value) (jit.Device, error) {
	for _, v := range vals {
		if a, ok := v.(*Array); ok {
			return a.Device(), nil
		}
	}
	return defaultDevice()
}

// resultType is JAX's result type of the operands (weak Python scalars
// included); errors name fn and the operands.
func resultType(fn string, vals ...starlark.Value) (trace.Type, error) {
	types := make([]trace.Type, len(vals))
	for i, v := range vals {
		t, err := typeOf(fn, v)
		if err != nil {
			return trace.Type{}, err
		}
		types[i] = t
	}
	t, err := trace.ResultType(types...)
	if err != nil {
		return trace.Type{}, fmt.Errorf("%s: %v (operands %s)", fn, err, describeAll(vals...))
	}
	return t, nil
}

// promoteTo converts each operand to type t: Python scalars are written
// directly in t's dtype (so an int too large for it is an error, as in
// JAX); arrays of another dtype or weakness go through convert_element_type.
func promoteTo(fn string, t trace.Type, vals ...starlark.Value) ([]*Array, error) {
	dev, err := operandDevice(vals...)
	if err != nil {
		return nil, err
	}
	out := make([]*Array, len(vals))
	for i, v := range vals {
		a, ok := v.(*Array)
		if !ok {
			if a, err = arrayFromValue(fn, v, t, dev); err != nil {
				return nil, err
			}
		} else if a, err = convertType(a, t); err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// promote converts operands to their common type (JAX's promotion).
func promote(fn string, vals ...starlark.Value) ([]*Array, error) {
	t, err := resultType(fn, vals...)
	if err != nil {
		return nil, err
	}
	return promoteTo(fn, t, vals...)
}

// convertType returns a with dtype and weakness t, converting only when
// they differ.
func convertType(a *Array, t trace.Type) (*Array, error) {
	if a.dtype() == t.DType && a.aval.Weak == t.Weak {
		return a, nil
	}
	return bind1("convert_element_type", trace.Params{"new_dtype": t.DType, "weak_type": t.Weak}, a)
}

// astype converts a to dtype dt, strongly typed.
func astype(a *Array, dt trace.DType) (*Array, error) {
	return convertType(a, trace.Type{DType: dt})
}

// broadcastArrays broadcasts arrays to their common shape (NumPy rules).
func broadcastArrays(fn string, arrs ...*Array) ([]*Array, error) {
	shapes := make([]trace.Shape, len(arrs))
	for i, a := range arrs {
		shapes[i] = a.shape()
	}
	shape, err := trace.BroadcastShapes(shapes...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	out := make([]*Array, len(arrs))
	for i, a := range arrs {
		if out[i], err = broadcastTo(a, shape); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// broadcastTo broadcasts a to shape, aligning trailing axes (NumPy rules).
func broadcastTo(a *Array, shape trace.Shape) (*Array, error) {
	if a.shape().Equal(shape) {
		return a, nil
	}
	lead := len(shape) - a.ndim()
	if lead < 0 {
		return nil, fmt.Errorf("cannot broadcast %s to shape %s", a.aval.LongString(), shape)
	}
	dims := make([]int, a.ndim())
	for i := range dims {
		dims[i] = lead + i
	}
	return bind1("broadcast_in_dim", trace.Params{"shape": []int(shape.Clone()), "broadcast_dimensions": dims}, a)
}

// elementwise promotes and broadcasts the operands, then applies prim: the
// shape of every NumPy-style elementwise function.
func elementwise(fn, prim string, params trace.Params, vals ...starlark.Value) (*Array, error) {
	arrs, err := promote(fn, vals...)
	if err != nil {
		return nil, err
	}
	if arrs, err = broadcastArrays(fn, arrs...); err != nil {
		return nil, err
	}
	return bind1(prim, params, arrs...)
}
