package numpy

import (
	"fmt"
	"math"
	"slices"

	"github.com/jaxsh/jaxsh/lib/lax"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.linalg.norm as jax/_src/numpy/linalg.py computes it. The operand is
// first made inexact (integers and bool become float32, jaxsh's default
// float). Vector norms: ord None or 2 (Euclidean), inf, -inf, 0 (count of
// non-zeros), 1, and any other p as sum(|x|**p)**(1/p). Matrix norms (two
// axes): None or 'fro' (Frobenius), 1, -1, inf, -inf, and through the
// singular values 2 (the largest), -2 (the smallest) and 'nuc' (their
// sum). Sums, maxima and minima are jnp.sum,
// jnp.max and jnp.min, so their dtype rules (float16 accumulates in
// float32) are jnp's.

func init() {
	jstarlark.Register(linalgModule, "norm", normBuiltin)
}

func normBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.norm"
	var x starlark.Value
	var ord, axis starlark.Value = starlark.None, starlark.None
	var keepdims bool
	if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "ord?", &ord, "axis?", &axis, "keepdims?", &keepdims); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	if !a.DType().IsInexact() {
		t, err := trace.ResultType(trace.Type{DType: a.DType()}, trace.Type{DType: trace.Float32})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		if a, err = jstarlark.ConvertType(a, trace.Type{DType: t.DType, Weak: a.AVal().Weak}); err != nil {
			return nil, err
		}
	}
	n := normer{fn: fn, keepdims: keepdims}
	switch ord.(type) {
	case starlark.NoneType, starlark.Int, starlark.Float, starlark.String:
	default:
		return nil, fmt.Errorf("%s: ord must be None, a number or a string, got %s", fn, ord.Type())
	}
	var axes []int
	if axis == starlark.None {
		if ord == starlark.None {
			// Any rank: the 2-norm of all elements.
			return n.euclidean(a, trace.AllAxes(a.NDim()))
		}
		axes = trace.AllAxes(a.NDim())
	} else {
		raw, err := normAxisArg(fn, axis)
		if err != nil {
			return nil, err
		}
		if axes, err = trace.NormalizeAxes(raw, a.NDim()); err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
	}
	switch len(axes) {
	case 1:
		return n.vector(a, ord, axes)
	case 2:
		return n.matrix(a, ord, axes[0], axes[1])
	}
	return nil, fmt.Errorf("%s: improper number of axes for norm: axis=%s. Pass one axis to compute a vector-norm, or two axes to compute a matrix-norm", fn, trace.Shape(axes))
}

func normAxisArg(fn string, v starlark.Value) ([]int, error) {
	if n, ok := v.(starlark.Int); ok {
		var i int
		if err := starlark.AsInt(n, &i); err != nil {
			return nil, fmt.Errorf("%s: axis: %v", fn, err)
		}
		return []int{i}, nil
	}
	if _, ok := v.(starlark.Tuple); !ok {
		return nil, fmt.Errorf("%s: axis must be None, an int or a tuple of ints, got %s", fn, v.Type())
	}
	return lax.IntsArg(fn, "axis", v)
}

// ordValue is a numeric ord as a float64 (inf included); ok is false for
// None and strings.
func ordValue(ord starlark.Value) (float64, bool) {
	switch o := ord.(type) {
	case starlark.Int:
		return float64(o.Float()), true
	case starlark.Float:
		return float64(o), true
	}
	return 0, false
}

type normer struct {
	fn       string
	keepdims bool
}

func (n normer) euclidean(x *jstarlark.Array, axes []int) (*jstarlark.Array, error) {
	sq, err := jstarlark.Bind1("mul", nil, x, x)
	if err != nil {
		return nil, err
	}
	s, err := n.sum(sq, axes, n.keepdims, nil)
	if err != nil {
		return nil, err
	}
	return jstarlark.Bind1("sqrt", nil, s)
}

func (n normer) vector(x *jstarlark.Array, ord starlark.Value, axes []int) (starlark.Value, error) {
	p, numeric := ordValue(ord)
	if !numeric && ord != starlark.None {
		return nil, fmt.Errorf("%s: invalid order '%s' for vector norm (use jnp.inf for the max norm)", n.fn, ord.(starlark.String).GoString())
	}
	if ord == starlark.None || p == 2 {
		return n.euclidean(x, axes)
	}
	abs, err := jstarlark.Bind1("abs", nil, x)
	if err != nil {
		return nil, err
	}
	switch {
	case math.IsInf(p, 1):
		return n.extremum("max", abs, axes, n.keepdims)
	case math.IsInf(p, -1):
		return n.extremum("min", abs, axes, n.keepdims)
	case p == 0:
		zero, err := jstarlark.Const(x.Device(), x.DType(), starlark.MakeInt(0))
		if err != nil {
			return nil, err
		}
		nonzero, err := jstarlark.Bind1("ne", nil, x, zero)
		if err != nil {
			return nil, err
		}
		return n.sum(nonzero, axes, n.keepdims, jstarlark.DType{DT: x.DType()})
	case p == 1:
		return n.sum(abs, axes, n.keepdims, nil)
	}
	// sum(|x|**p)**(1/p), with p and 1/p rounded to x's dtype as JAX's
	// constants are.
	pc, err := jstarlark.Const(x.Device(), x.DType(), starlark.Float(p))
	if err != nil {
		return nil, err
	}
	pr, err := pc.ScalarValue(0)
	if err != nil {
		return nil, err
	}
	inv, err := jstarlark.Const(x.Device(), x.DType(), starlark.Float(1/float64(pr.(starlark.Float))))
	if err != nil {
		return nil, err
	}
	powered, err := jstarlark.Bind1("pow", nil, abs, pc)
	if err != nil {
		return nil, err
	}
	s, err := n.sum(powered, axes, n.keepdims, nil)
	if err != nil {
		return nil, err
	}
	return jstarlark.Bind1("pow", nil, s, inv)
}

func (n normer) matrix(x *jstarlark.Array, ord starlark.Value, row, col int) (starlark.Value, error) {
	if s, ok := ord.(starlark.String); ok {
		switch string(s) {
		case "fro", "f":
			return n.euclidean(x, []int{row, col})
		case "nuc":
			return n.singular(x, "reduce_sum", row, col)
		}
		return nil, fmt.Errorf("%s: invalid order '%s' for matrix norm", n.fn, string(s))
	}
	if ord == starlark.None {
		return n.euclidean(x, []int{row, col})
	}
	p, _ := ordValue(ord)
	abs, err := jstarlark.Bind1("abs", nil, x)
	if err != nil {
		return nil, err
	}
	// ord ±1 sums over rows and picks a column; ord ±inf the reverse.
	sumAxis, pickAxis, pick := row, col, "max"
	switch {
	case p == 1:
	case p == -1:
		pick = "min"
	case math.IsInf(p, 1):
		sumAxis, pickAxis = col, row
	case math.IsInf(p, -1):
		sumAxis, pickAxis, pick = col, row, "min"
	case p == 2:
		return n.singular(x, "reduce_max", row, col)
	case p == -2:
		return n.singular(x, "reduce_min", row, col)
	default:
		return nil, fmt.Errorf("%s: invalid order '%s' for matrix norm", n.fn, ord)
	}
	if !n.keepdims && pickAxis > sumAxis {
		pickAxis--
	}
	sums, err := n.sum(abs, []int{sumAxis}, n.keepdims, nil)
	if err != nil {
		return nil, err
	}
	return n.extremum(pick, sums, []int{pickAxis}, n.keepdims)
}

// singular reduces the singular values of the matrices over axes row and
// col: their largest (ord 2), smallest (ord -2) or sum ('nuc').
func (n normer) singular(x *jstarlark.Array, reduce string, row, col int) (*jstarlark.Array, error) {
	r := x.NDim()
	m, err := moveAxes(x, []int{row, col}, []int{r - 2, r - 1})
	if err != nil {
		return nil, err
	}
	sv, err := singularValues(n.fn, m)
	if err != nil {
		return nil, err
	}
	out, err := jstarlark.Bind1(reduce, trace.Params{"axes": []int{r - 2}}, sv)
	if err != nil || !n.keepdims {
		return out, err
	}
	return jstarlark.ExpandDims(out, []int{min(row, col), max(row, col)})
}

// sum is jnp.sum over axes, with dtype when not nil.
func (n normer) sum(x *jstarlark.Array, axes []int, keepdims bool, dtype starlark.Value) (*jstarlark.Array, error) {
	kw := []starlark.Tuple{
		{starlark.String("axis"), intsTuple(axes)},
		{starlark.String("keepdims"), starlark.Bool(keepdims)},
	}
	if dtype != nil {
		kw = append(kw, starlark.Tuple{starlark.String("dtype"), dtype})
	}
	return n.jnp("sum", x, kw)
}

// extremum is jnp.max (with JAX's initial=0: an empty reduction gives 0)
// or jnp.min over axes.
func (n normer) extremum(name string, x *jstarlark.Array, axes []int, keepdims bool) (*jstarlark.Array, error) {
	empty := false
	for _, ax := range axes {
		empty = empty || x.Shape()[ax] == 0
	}
	if empty && name == "max" {
		shape := slices.Clone([]int(x.Shape()))
		for _, ax := range slices.Backward(axes) {
			if keepdims {
				shape[ax] = 1
			} else {
				shape = slices.Delete(shape, ax, ax+1)
			}
		}
		return lax.Full(x.Device(), x.AVal().Type(), shape, starlark.MakeInt(0))
	}
	kw := []starlark.Tuple{
		{starlark.String("axis"), intsTuple(axes)},
		{starlark.String("keepdims"), starlark.Bool(keepdims)},
	}
	return n.jnp(name, x, kw)
}

func (n normer) jnp(name string, x *jstarlark.Array, kw []starlark.Tuple) (*jstarlark.Array, error) {
	v, err := callJnp(name, x, nil, kw)
	if err != nil {
		return nil, err
	}
	out, ok := v.(*jstarlark.Array)
	if !ok {
		return nil, fmt.Errorf("%s: jnp.%s returned %s, not an array", n.fn, name, v.Type())
	}
	return out, nil
}

func intsTuple(xs []int) starlark.Tuple {
	t := make(starlark.Tuple, len(xs))
	for i, x := range xs {
		t[i] = starlark.MakeInt(x)
	}
	return t
}
