package starlark

import (
	"errors"
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// A composer applies the primitives of one jnp, lax or nn function. The
// first failure sticks: later steps return nil without binding, and done
// reports the failure under the function's name, so a composition reads
// like the JAX code it mirrors.
type composer struct {
	fn  string
	err error
}

func (c *composer) fail(err error) *Array {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %w", c.fn, err)
	}
	return nil
}

// ok reports whether every step so far succeeded and every array is set.
func (c *composer) ok(arrs ...*Array) bool {
	if c.err != nil {
		return false
	}
	for _, a := range arrs {
		if a == nil {
			c.fail(errors.New("internal error: an operand is missing after a step that did not fail"))
			return false
		}
	}
	return true
}

func (c *composer) done(x *Array) (*Array, error) {
	if !c.ok(x) {
		return nil, c.err
	}
	return x, nil
}

// take records the outcome of a Go call that returns an array.
func (c *composer) take(a *Array, err error) *Array {
	if c.err != nil {
		return nil
	}
	if err != nil {
		c.err = err // nested jnp functions already name themselves
		return nil
	}
	return a
}

func (c *composer) prim(name string, params trace.Params, args ...*Array) *Array {
	if !c.ok(args...) {
		return nil
	}
	out, err := bind1(name, params, args...)
	if err != nil {
		return c.fail(err)
	}
	return out
}

// Unary and binary lax primitives, by lax's names.
func (c *composer) un(name string, x *Array) *Array { return c.prim(name, nil, x) }

func (c *composer) bin(name string, x, y *Array) *Array { return c.prim(name, nil, x, y) }

// lit is lax._const: a strongly typed 0-d constant of like's dtype.
func (c *composer) lit(like *Array, v float64) *Array {
	if !c.ok(like) {
		return nil
	}
	return c.scalar(like, like.dtype(), v, false)
}

// scalar makes a 0-d array of dtype dt on like's device. Whole values are
// written as integers, so integer dtypes get them exactly.
func (c *composer) scalar(like *Array, dt trace.DType, v float64, weak bool) *Array {
	if !c.ok(like) {
		return nil
	}
	var sv starlark.Value = starlark.Float(v)
	if dt.IsInteger() || dt == trace.Bool {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return c.fail(fmt.Errorf("internal error: constant %v for %s", v, dt))
		}
		sv = starlark.MakeInt64(int64(v))
	}
	a, err := scalarArray(c.fn, sv, dt, weak, like.Device())
	if err != nil {
		return c.fail(err)
	}
	return a
}

// convert is lax.convert_element_type.
func (c *composer) convert(x *Array, dt trace.DType, weak bool) *Array {
	if !c.ok(x) {
		return nil
	}
	return c.take(convertType(x, trace.Type{DType: dt, Weak: weak && dt != trace.Bool}))
}

// fullLike is lax.full_like(x, v, dtype): a strongly typed array of x's
// shape.
func (c *composer) fullLike(x *Array, v float64, dt trace.DType) *Array {
	s := c.scalar(x, dt, v, false)
	if !c.ok(s) {
		return nil
	}
	return c.take(broadcastTo(s, x.shape()))
}

// select_ is lax.select(pred, onTrue, onFalse): select_n picks its second
// case where pred is true.
func (c *composer) select_(pred, onTrue, onFalse *Array) *Array {
	return c.prim("select_n", nil, pred, onFalse, onTrue)
}

// toBool is ufuncs._to_bool: x != 0 unless x is bool already.
func (c *composer) toBool(x *Array) *Array {
	if !c.ok(x) || x.dtype() == trace.Bool {
		return x
	}
	return c.bin("ne", x, c.lit(x, 0))
}

// where is JAX's util._where on arrays: a non-bool condition is compared
// with 0, x and y are promoted to one dtype, and everything broadcasts to
// one shape (a 0-d condition stays 0-d).
func (c *composer) where(cond, x, y *Array) *Array {
	if !c.ok(cond, x, y) {
		return nil
	}
	cond = c.toBool(cond)
	xy := c.takeAll(promoteDTypes(c.fn, promoteCommon, x, y))
	if !c.ok(cond) || xy == nil {
		return nil
	}
	var arrs []*Array
	if cond.ndim() == 0 {
		arrs = c.takeAll(broadcastArrays(c.fn, xy...))
		if arrs == nil {
			return nil
		}
		arrs = append([]*Array{cond}, arrs...)
	} else if arrs = c.takeAll(broadcastArrays(c.fn, cond, xy[0], xy[1])); arrs == nil {
		return nil
	}
	if arrs[1].size() == 0 {
		return arrs[1]
	}
	return c.select_(arrs[0], arrs[1], arrs[2])
}

func (c *composer) takeAll(arrs []*Array, err error) []*Array {
	if c.err != nil {
		return nil
	}
	if err != nil {
		c.err = err
		return nil
	}
	return arrs
}

// jnp applies a jnp ufunc from Go: binary compositions written in terms of
// other ufuncs (x - 1, a == b) call them as JAX's code does.
func (c *composer) jnp(f binaryFunc, x, y starlark.Value) *Array {
	if c.err != nil || x == nil || y == nil {
		return nil
	}
	if a, ok := x.(*Array); ok && !c.ok(a) {
		return nil
	}
	if a, ok := y.(*Array); ok && !c.ok(a) {
		return nil
	}
	return c.take(f(x, y))
}

func (c *composer) jnp1(f unaryFunc, x *Array) *Array {
	if !c.ok(x) {
		return nil
	}
	return c.take(f(x))
}

// iota is lax.broadcasted_iota: values counting along dimension of shape.
func (c *composer) iota(dt trace.DType, shape trace.Shape, dimension int) *Array {
	if c.err != nil {
		return nil
	}
	dev, err := defaultDevice()
	if err != nil {
		return c.fail(err)
	}
	out, err := bindOn(dev, "iota", trace.Params{"dtype": dt, "shape": []int(shape.Clone()), "dimension": dimension})
	if err != nil {
		return c.fail(err)
	}
	return out[0]
}

// reshape is lax.reshape, which leaves an array of the same shape alone.
func (c *composer) reshape(x *Array, shape trace.Shape) *Array {
	if !c.ok(x) || x.shape().Equal(shape) {
		return x
	}
	return c.prim("reshape", trace.Params{"new_sizes": []int(shape.Clone())}, x)
}

// expandDims is lax.expand_dims for one new axis.
func (c *composer) expandDims(x *Array, axis int) *Array {
	if !c.ok(x) {
		return nil
	}
	shape := make([]int, 0, x.ndim()+1)
	dims := make([]int, 0, x.ndim())
	for i, d := range x.shape() {
		if i == axis {
			shape = append(shape, 1)
		}
		dims = append(dims, len(shape))
		shape = append(shape, d)
	}
	if axis == x.ndim() {
		shape = append(shape, 1)
	}
	return c.prim("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, x)
}
