package starlark

import (
	"errors"
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// A Composer applies the primitives of one jnp, lax or nn function. The
// first failure sticks: later steps return nil without binding, and Done
// reports the failure under the function's name, so a composition reads
// like the JAX code it mirrors.
type Composer struct {
	Fn  string // the function's name, which prefixes its error
	Err error  // the first failure, or nil
}

// Fail records err as the composition's failure (unless one is recorded
// already) and returns nil, to be returned in place of an array.
func (c *Composer) Fail(err error) *Array {
	if c.Err == nil {
		c.Err = fmt.Errorf("%s: %w", c.Fn, err)
	}
	return nil
}

// OK reports whether every step so far succeeded and every array is set.
func (c *Composer) OK(arrs ...*Array) bool {
	if c.Err != nil {
		return false
	}
	for _, a := range arrs {
		if a == nil {
			c.Fail(errors.New("internal error: an operand is missing after a step that did not fail"))
			return false
		}
	}
	return true
}

// Done returns x, or the composition's failure.
func (c *Composer) Done(x *Array) (*Array, error) {
	if !c.OK(x) {
		return nil, c.Err
	}
	return x, nil
}

// Take records the outcome of a Go call that returns an array.
func (c *Composer) Take(a *Array, err error) *Array {
	if c.Err != nil {
		return nil
	}
	if err != nil {
		c.Err = err // nested jnp functions already name themselves
		return nil
	}
	return a
}

// Prim binds the primitive name with params to args (Bind1).
func (c *Composer) Prim(name string, params trace.Params, args ...*Array) *Array {
	if !c.OK(args...) {
		return nil
	}
	out, err := Bind1(name, params, args...)
	if err != nil {
		return c.Fail(err)
	}
	return out
}

// Unary and binary lax primitives, by lax's names.
func (c *Composer) Unary(name string, x *Array) *Array { return c.Prim(name, nil, x) }

func (c *Composer) Binary(name string, x, y *Array) *Array { return c.Prim(name, nil, x, y) }

// Lit is lax._const: a strongly typed 0-d constant of like's dtype.
func (c *Composer) Lit(like *Array, v float64) *Array {
	if !c.OK(like) {
		return nil
	}
	return c.Scalar(like, like.DType(), v, false)
}

// Scalar makes a 0-d array of dtype dt on like's device. Whole values are
// written as integers, so integer dtypes get them exactly.
func (c *Composer) Scalar(like *Array, dt trace.DType, v float64, weak bool) *Array {
	if !c.OK(like) {
		return nil
	}
	var sv starlark.Value = starlark.Float(v)
	if dt.IsInteger() || dt == trace.Bool {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return c.Fail(fmt.Errorf("internal error: constant %v for %s", v, dt))
		}
		sv = starlark.MakeInt64(int64(v))
	}
	a, err := ScalarArray(c.Fn, sv, dt, weak, like.Device())
	if err != nil {
		return c.Fail(err)
	}
	return a
}

// Convert is lax.convert_element_type.
func (c *Composer) Convert(x *Array, dt trace.DType, weak bool) *Array {
	if !c.OK(x) {
		return nil
	}
	return c.Take(ConvertType(x, trace.Type{DType: dt, Weak: weak && dt != trace.Bool}))
}

// FullLike is lax.full_like(x, v, dtype): a strongly typed array of x's
// shape.
func (c *Composer) FullLike(x *Array, v float64, dt trace.DType) *Array {
	s := c.Scalar(x, dt, v, false)
	if !c.OK(s) {
		return nil
	}
	return c.Take(BroadcastTo(s, x.Shape()))
}

// Select is lax.select(pred, onTrue, onFalse): select_n picks its second
// case where pred is true.
func (c *Composer) Select(pred, onTrue, onFalse *Array) *Array {
	return c.Prim("select_n", nil, pred, onFalse, onTrue)
}

// ToBool is ufuncs._to_bool: x != 0 unless x is bool already.
func (c *Composer) ToBool(x *Array) *Array {
	if !c.OK(x) || x.DType() == trace.Bool {
		return x
	}
	return c.Binary("ne", x, c.Lit(x, 0))
}

// Where is JAX's util._where on arrays: a non-bool condition is compared
// with 0, x and y are promoted to one dtype, and everything broadcasts to
// one shape (a 0-d condition stays 0-d).
func (c *Composer) Where(cond, x, y *Array) *Array {
	if !c.OK(cond, x, y) {
		return nil
	}
	cond = c.ToBool(cond)
	xy := c.takeAll(PromoteDTypes(c.Fn, PromoteCommon, x, y))
	if !c.OK(cond) || xy == nil {
		return nil
	}
	var arrs []*Array
	if cond.NDim() == 0 {
		arrs = c.takeAll(BroadcastArrays(c.Fn, xy...))
		if arrs == nil {
			return nil
		}
		arrs = append([]*Array{cond}, arrs...)
	} else if arrs = c.takeAll(BroadcastArrays(c.Fn, cond, xy[0], xy[1])); arrs == nil {
		return nil
	}
	if arrs[1].Size() == 0 {
		return arrs[1]
	}
	return c.Select(arrs[0], arrs[1], arrs[2])
}

func (c *Composer) takeAll(arrs []*Array, err error) []*Array {
	if c.Err != nil {
		return nil
	}
	if err != nil {
		c.Err = err
		return nil
	}
	return arrs
}

// Ufunc2 applies a jnp ufunc from Go: binary compositions written in terms of
// other ufuncs (x - 1, a == b) call them as JAX's code does.
func (c *Composer) Ufunc2(f BinaryFunc, x, y starlark.Value) *Array {
	if c.Err != nil || x == nil || y == nil {
		return nil
	}
	if a, ok := x.(*Array); ok && !c.OK(a) {
		return nil
	}
	if a, ok := y.(*Array); ok && !c.OK(a) {
		return nil
	}
	return c.Take(f(x, y))
}

// Ufunc1 applies a unary jnp ufunc from Go, as Ufunc2 a binary one.
func (c *Composer) Ufunc1(f UnaryFunc, x *Array) *Array {
	if !c.OK(x) {
		return nil
	}
	return c.Take(f(x))
}

// Iota is lax.broadcasted_iota: values counting along dimension of shape.
func (c *Composer) Iota(dt trace.DType, shape trace.Shape, dimension int) *Array {
	if c.Err != nil {
		return nil
	}
	dev, err := DefaultDevice()
	if err != nil {
		return c.Fail(err)
	}
	out, err := BindOn(dev, "iota", trace.Params{"dtype": dt, "shape": []int(shape.Clone()), "dimension": dimension})
	if err != nil {
		return c.Fail(err)
	}
	return out[0]
}

// Reshape is lax.reshape, which leaves an array of the same shape alone.
func (c *Composer) Reshape(x *Array, shape trace.Shape) *Array {
	if !c.OK(x) || x.Shape().Equal(shape) {
		return x
	}
	return c.Prim("reshape", trace.Params{"new_sizes": []int(shape.Clone())}, x)
}

// ExpandDims is lax.expand_dims for one new axis.
func (c *Composer) ExpandDims(x *Array, axis int) *Array {
	if !c.OK(x) {
		return nil
	}
	shape := make([]int, 0, x.NDim()+1)
	dims := make([]int, 0, x.NDim())
	for i, d := range x.Shape() {
		if i == axis {
			shape = append(shape, 1)
		}
		dims = append(dims, len(shape))
		shape = append(shape, d)
	}
	if axis == x.NDim() {
		shape = append(shape, 1)
	}
	return c.Prim("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, x)
}
