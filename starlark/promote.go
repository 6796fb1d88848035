package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// OperandDevice picks the device of an operation: that of its first array
// operand, else the default device.
func OperandDevice(vals ...starlark.Value) (jit.Device, error) {
	for _, v := range vals {
		if a, ok := v.(*Array); ok {
			return a.Device(), nil
		}
	}
	return DefaultDevice()
}

// ResultType is JAX's result type of the operands (weak Python scalars
// included); errors name fn and the operands.
func ResultType(fn string, vals ...starlark.Value) (trace.Type, error) {
	types := make([]trace.Type, len(vals))
	for i, v := range vals {
		t, err := TypeOf(fn, v)
		if err != nil {
			return trace.Type{}, err
		}
		types[i] = t
	}
	t, err := trace.ResultType(types...)
	if err != nil {
		return trace.Type{}, fmt.Errorf("%s: %v (operands %s)", fn, err, DescribeAll(vals...))
	}
	return t, nil
}

// promoteTo converts each operand to type t: Python scalars are written
// directly in t's dtype (so an int too large for it is an error, as in
// JAX); arrays of another dtype or weakness go through convert_element_type.
func promoteTo(fn string, t trace.Type, vals ...starlark.Value) ([]*Array, error) {
	dev, err := OperandDevice(vals...)
	if err != nil {
		return nil, err
	}
	out := make([]*Array, len(vals))
	for i, v := range vals {
		if out[i], err = promoteOne(fn, t, dev, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func promoteOne(fn string, t trace.Type, dev jit.Device, v starlark.Value) (*Array, error) {
	if a, ok := v.(*Array); ok {
		return ConvertType(a, t)
	}
	return ArrayFromValue(fn, v, t, dev)
}

// Promote converts operands to their common type (JAX's promotion).
func Promote(fn string, vals ...starlark.Value) ([]*Array, error) {
	t, err := ResultType(fn, vals...)
	if err != nil {
		return nil, err
	}
	return promoteTo(fn, t, vals...)
}

// ConvertType returns a with dtype and weakness t, converting only when
// they differ.
func ConvertType(a *Array, t trace.Type) (*Array, error) {
	if a.DType() == t.DType && a.aval.Weak == t.Weak {
		return a, nil
	}
	return Bind1("convert_element_type", trace.Params{"new_dtype": t.DType, "weak_type": t.Weak}, a)
}

// Astype converts a to dtype dt, strongly typed.
func Astype(a *Array, dt trace.DType) (*Array, error) {
	return ConvertType(a, trace.Type{DType: dt})
}

// BroadcastArrays broadcasts arrays to their common shape (NumPy rules).
func BroadcastArrays(fn string, arrs ...*Array) ([]*Array, error) {
	shapes := make([]trace.Shape, len(arrs))
	for i, a := range arrs {
		shapes[i] = a.Shape()
	}
	shape, err := trace.BroadcastShapes(shapes...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	out := make([]*Array, len(arrs))
	for i, a := range arrs {
		if out[i], err = BroadcastTo(a, shape); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// BroadcastTo broadcasts a to shape, aligning trailing axes (NumPy rules).
func BroadcastTo(a *Array, shape trace.Shape) (*Array, error) {
	if a.Shape().Equal(shape) {
		return a, nil
	}
	lead := len(shape) - a.NDim()
	if lead < 0 {
		return nil, fmt.Errorf("cannot broadcast %s to shape %s", a.aval.LongString(), shape)
	}
	dims := make([]int, a.NDim())
	for i := range dims {
		dims[i] = lead + i
	}
	return Bind1("broadcast_in_dim", trace.Params{"shape": []int(shape.Clone()), "broadcast_dimensions": dims}, a)
}

// Elementwise promotes and broadcasts the operands, then applies prim: the
// shape of every NumPy-style elementwise function.
func Elementwise(fn, prim string, params trace.Params, vals ...starlark.Value) (*Array, error) {
	arrs, err := Promote(fn, vals...)
	if err != nil {
		return nil, err
	}
	if arrs, err = BroadcastArrays(fn, arrs...); err != nil {
		return nil, err
	}
	return Bind1(prim, params, arrs...)
}

// PromoteArgs is JAX's promote_args family: promoted dtypes, then NumPy rank
// promotion.
func PromoteArgs(fn string, p Promotion, vals ...starlark.Value) ([]*Array, error) {
	arrs, err := PromoteDTypes(fn, p, vals...)
	if err != nil {
		return nil, err
	}
	return PromoteShapes(fn, arrs...)
}

// PromoteArg is PromoteArgs for one operand.
func PromoteArg(fn string, p Promotion, x starlark.Value) (*Array, error) {
	if err := CheckArraylike(fn, x); err != nil {
		return nil, err
	}
	t, err := ResultType(fn, x)
	if err != nil {
		return nil, err
	}
	dev, err := OperandDevice(x)
	if err != nil {
		return nil, err
	}
	return promoteOne(fn, p.Apply(t), dev, x)
}

// PromoteArgs2 is PromoteArgs for two operands, without building a list:
// the path of every binary operator, kept free of allocations beyond the
// arrays it makes.
func PromoteArgs2(fn string, p Promotion, x, y starlark.Value) (*Array, *Array, error) {
	// Two strongly typed arrays of one dtype and shape, the commonest eager
	// case: their result type is theirs (trace.ResultType), and only the
	// promotion may change it.
	if a, ok := x.(*Array); ok {
		if b, ok := y.(*Array); ok && a.aval.DType == b.aval.DType && a.aval.DType.IsArray() && !a.aval.Weak && !b.aval.Weak &&
			a.aval.Shape.Equal(b.aval.Shape) {
			if t := p.Apply(a.aval.Type()); t == a.aval.Type() {
				return a, b, nil
			}
		}
	}
	if err := CheckArraylike(fn, x, y); err != nil {
		return nil, nil, err
	}
	t, err := ResultType(fn, x, y)
	if err != nil {
		return nil, nil, err
	}
	t = p.Apply(t)
	dev, err := OperandDevice(x, y)
	if err != nil {
		return nil, nil, err
	}
	a, err := promoteOne(fn, t, dev, x)
	if err != nil {
		return nil, nil, err
	}
	b, err := promoteOne(fn, t, dev, y)
	if err != nil {
		return nil, nil, err
	}
	if a.NDim() == 0 || b.NDim() == 0 || a.Shape().Equal(b.Shape()) {
		return a, b, nil // nothing to check or reshape
	}
	arrs, err := PromoteShapes(fn, a, b)
	if err != nil {
		return nil, nil, err
	}
	return arrs[0], arrs[1], nil
}

// ApplyUnary promotes x and applies one primitive.
func ApplyUnary(fn, prim string, p Promotion, x starlark.Value) (*Array, error) {
	a, err := PromoteArg(fn, p, x)
	if err != nil {
		return nil, err
	}
	c := Composer{Fn: fn}
	return c.Done(c.Unary(prim, a))
}

// ApplyBinary promotes x and y and applies one primitive.
func ApplyBinary(fn, prim string, p Promotion, x, y starlark.Value) (*Array, error) {
	a, b, err := PromoteArgs2(fn, p, x, y)
	if err != nil {
		return nil, err
	}
	c := Composer{Fn: fn}
	return c.Done(c.Binary(prim, a, b))
}

// A promotion is one of JAX's three ways of choosing the dtype that
// elementwise operands compute in.
type Promotion uint8

const (
	PromoteCommon  Promotion = iota // promote_args: the operands' result type
	PromoteNumeric                  // promote_args_numeric: bool becomes int32
	PromoteInexact                  // promote_args_inexact: integers and bool become floating
)

// Apply is the dtype that operands of promoted type t compute in.
func (p Promotion) Apply(t trace.Type) trace.Type {
	switch {
	case p == PromoteNumeric && t.DType == trace.Bool:
		return trace.Type{DType: trace.Int32}
	case p == PromoteInexact && !t.DType.IsInexact():
		return trace.Type{DType: inexactOf(t.DType), Weak: t.Weak}
	}
	return t
}

// inexactOf is JAX's to_inexact_dtype for a non-inexact dtype: int64
// becomes float64 and every narrower integer (and bool) the default float32.
func inexactOf(dt trace.DType) trace.DType {
	if dt == trace.Int64 {
		return trace.Float64
	}
	return trace.Float32
}

// PromoteDTypes converts the operands to their promoted type, without
// touching shapes (JAX's promote_dtypes*).
func PromoteDTypes(fn string, p Promotion, vals ...starlark.Value) ([]*Array, error) {
	if err := CheckArraylike(fn, vals...); err != nil {
		return nil, err
	}
	t, err := ResultType(fn, vals...)
	if err != nil {
		return nil, err
	}
	return promoteTo(fn, p.Apply(t), vals...)
}

// PromoteShapes is JAX's promote_shapes: when operands of different nonzero
// ranks meet, each gets leading size-1 dimensions up to the broadcast rank;
// lax's primitives broadcast scalars and size-1 dimensions themselves. The
// shapes are checked here so that the error names the jnp function.
func PromoteShapes(fn string, arrs ...*Array) ([]*Array, error) {
	if len(arrs) < 2 {
		return arrs, nil
	}
	shapes := make([]trace.Shape, len(arrs))
	sameRank := true
	nonscalarRanks := map[int]bool{}
	for i, a := range arrs {
		shapes[i] = a.Shape()
		sameRank = sameRank && a.NDim() == arrs[0].NDim()
		if a.NDim() > 0 {
			nonscalarRanks[a.NDim()] = true
		}
	}
	shape, err := trace.BroadcastShapes(shapes...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (operands %s)", fn, err, DescribeArrays(arrs))
	}
	if sameRank || len(nonscalarRanks) < 2 {
		return arrs, nil
	}
	out := make([]*Array, len(arrs))
	for i, a := range arrs {
		if out[i], err = BroadcastToRank(a, len(shape)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// BroadcastToRank prepends size-1 dimensions (lax.broadcast_to_rank).
func BroadcastToRank(a *Array, rank int) (*Array, error) {
	lead := rank - a.NDim()
	if lead == 0 {
		return a, nil
	}
	shape := make([]int, 0, rank)
	for range lead {
		shape = append(shape, 1)
	}
	shape = append(shape, a.Shape()...)
	dims := make([]int, a.NDim())
	for i := range dims {
		dims[i] = lead + i
	}
	return Bind1("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, a)
}
