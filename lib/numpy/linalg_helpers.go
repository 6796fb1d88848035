package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// la is a Composer with the matrix helpers jnp.linalg is written with:
// matrices are the trailing two axes, batched over the leading ones.
type la struct{ jstarlark.Composer }

func newLA(fn string) *la { return &la{jstarlark.Composer{Fn: fn}} }

// call wraps a fallible step.
func (c *la) call(a *jstarlark.Array, err error) *jstarlark.Array { return c.Take(a, err) }

// jnp calls a jnp member with an array first.
func (c *la) jnp(name string, a *jstarlark.Array, args starlark.Tuple, kwargs ...starlark.Tuple) *jstarlark.Array {
	if !c.OK(a) {
		return nil
	}
	v, err := callJnp(name, a, args, kwargs)
	if err != nil {
		return c.Fail(err)
	}
	out, ok := v.(*jstarlark.Array)
	if !ok {
		return c.Fail(fmt.Errorf("internal error: jnp.%s returned %s", name, v.Type()))
	}
	return out
}

// mT swaps the last two axes.
func (c *la) mT(x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	r := x.NDim()
	perm := trace.AllAxes(r)
	perm[r-1], perm[r-2] = perm[r-2], perm[r-1]
	return c.Prim("transpose", trace.Params{"permutation": perm}, x)
}

// conj is x's complex conjugate (x itself when real).
func (c *la) conj(x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) || !x.DType().IsComplex() {
		return x
	}
	return c.Prim("conj", trace.Params{"input_dtype": x.DType()}, x)
}

// mH is the conjugate transpose of the trailing two axes.
func (c *la) mH(x *jstarlark.Array) *jstarlark.Array { return c.mT(c.conj(x)) }

// mm multiplies batches of matrices of equal batch shapes.
func (c *la) mm(a, b *jstarlark.Array) *jstarlark.Array {
	if !c.OK(a, b) {
		return nil
	}
	r := a.NDim()
	batch := trace.AllAxes(r - 2)
	return c.Prim("dot_general", trace.Params{
		"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{r - 1}, RhsContracting: []int{r - 2},
			LhsBatch: batch, RhsBatch: batch},
		"precision": nil, "preferred_element_type": nil,
	}, a, b)
}

// multi binds a primitive with several results.
func (c *la) multi(prim string, params trace.Params, args ...*jstarlark.Array) []*jstarlark.Array {
	if !c.OK(args...) {
		return nil
	}
	out, err := jstarlark.Bind(prim, params, args...)
	if err != nil {
		c.Fail(err)
		return nil
	}
	return out
}

// eye is the identity broadcast to x's shape and dtype.
func (c *la) eye(x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	s := x.Shape()
	r := len(s)
	eq := c.Binary("eq", c.Iota(trace.Int32, s, r-1), c.Iota(trace.Int32, s, r-2))
	return c.Convert(eq, x.DType(), false)
}

// diag is the main diagonal of square matrices.
func (c *la) diag(x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	return c.Prim("reduce_sum", trace.Params{"axes": []int{x.NDim() - 1}}, c.Binary("mul", x, c.eye(x)))
}

// triangle keeps the lower (col ≤ row + k) or upper (col ≥ row + k)
// triangle of x.
func (c *la) triangle(x *jstarlark.Array, lower bool, k int) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	s := x.Shape()
	r := len(s)
	diff := c.Binary("sub", c.Iota(trace.Int32, s, r-1), c.Iota(trace.Int32, s, r-2))
	kk := c.Scalar(diff, trace.Int32, float64(k), false)
	var keep *jstarlark.Array
	if lower {
		keep = c.Binary("le", diff, kk)
	} else {
		keep = c.Binary("ge", diff, kk)
	}
	return c.Select(keep, x, c.FullLike(x, 0, x.DType()))
}

// permutationMatrix is P with P[i, j] = (perm[i] == j), of dtype dt.
func (c *la) permutationMatrix(perm *jstarlark.Array, dt trace.DType) *jstarlark.Array {
	if !c.OK(perm) {
		return nil
	}
	n := perm.Shape()[perm.NDim()-1]
	shape := append(perm.Shape().Clone(), n)
	r := len(shape)
	rows := c.call(jstarlark.BroadcastInDim(perm, shape, trace.AllAxes(r-1)))
	return c.Convert(c.Binary("eq", rows, c.Iota(trace.Int32, shape, r-1)), dt, false)
}

// reduceAxis reduces x over one axis with a reduce primitive.
func (c *la) reduceAxis(prim string, x *jstarlark.Array, axis int) *jstarlark.Array {
	return c.Prim(prim, trace.Params{"axes": []int{axis}}, x)
}

// matrixArg reads a (batch of) matrices, made inexact (integers and bool
// become float32): jnp.linalg's operands.
func matrixArg(fn string, v starlark.Value, square bool) (*jstarlark.Array, error) {
	arrs, err := linalgOperands(fn, v)
	if err != nil {
		return nil, err
	}
	a, err := inexactArray(fn, arrs[0])
	if err != nil {
		return nil, err
	}
	if a.NDim() < 2 {
		return nil, fmt.Errorf("%s: the operand must have at least 2 dimensions, got shape %s", fn, a.Shape())
	}
	if s := a.Shape(); square && s[len(s)-1] != s[len(s)-2] {
		return nil, fmt.Errorf("%s: the operand must be a (batch of) square matrices, got shape %s", fn, s)
	}
	return a, nil
}

func inexactArray(fn string, a *jstarlark.Array) (*jstarlark.Array, error) {
	if a.DType().IsInexact() {
		return a, nil
	}
	return jstarlark.Astype(a, trace.Float32)
}

// epsOf is the machine epsilon of dt's real components.
func epsOf(dt trace.DType) float64 {
	switch dt.ComplexPart() {
	case trace.Float64:
		return 0x1p-52
	case trace.Float16:
		return 0x1p-10
	case trace.BFloat16:
		return 0x1p-7
	}
	return 0x1p-23
}

// tupleOf makes a Starlark tuple of arrays.
func tupleOf(arrs ...*jstarlark.Array) starlark.Tuple {
	t := make(starlark.Tuple, len(arrs))
	for i, a := range arrs {
		t[i] = a
	}
	return t
}
