package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.sort and jnp.argsort (jax/_src/numpy/sorting.py): lax.sort along one
// axis (the flattened array for axis=None). NaNs sort last and -0.0 ties
// with 0.0, as lax.sort's comparator orders floats; descending order
// reverses the ascending result, and a stable descending argsort sorts the
// reversed array so that equal elements keep their original order.

// sortArgs reads the arguments both functions share: (a, axis=-1, *, kind,
// order, stable, descending), plus argsort's dtype.
type sortArgs struct {
	x          *jstarlark.Array
	axis       int
	stable     bool
	descending bool
	dtype      trace.DType
}

func parseSortArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple, withDType bool) (sortArgs, error) {
	var a, kind, order, dtype starlark.Value
	var axis starlark.Value = starlark.MakeInt(-1)
	p := sortArgs{stable: true}
	pairs := []any{"a", &a, "axis?", &axis, "kind?", &kind, "order?", &order, "stable?", &p.stable, "descending?", &p.descending}
	if withDType {
		pairs = append(pairs, "dtype?", &dtype)
	}
	if err := starlark.UnpackArgs(fn, args, kwargs, pairs...); err != nil {
		return p, err
	}
	if kind != nil && kind != starlark.None {
		return p, fmt.Errorf("%s: 'kind' argument is not supported. Use stable=True or stable=False to specify sort stability", fn)
	}
	if order != nil && order != starlark.None {
		return p, fmt.Errorf("%s: 'order' argument is not supported", fn)
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return p, err
	}
	if axis == starlark.None {
		if x, err = jstarlark.ReshapeTo(x, []int{x.Size()}); err != nil {
			return p, err
		}
		axis = starlark.MakeInt(0)
	}
	n, err := staticIntArg(fn, "axis", axis)
	if err != nil {
		return p, err
	}
	if x.NDim() == 0 {
		return p, fmt.Errorf("%s: cannot sort a 0-d array %s along axis %d; use axis=None", fn, jstarlark.Describe(x), n)
	}
	if p.axis, err = jstarlark.NormalizeAxisOf(fn, n, x.NDim(), x); err != nil {
		return p, err
	}
	if !x.DType().IsInteger() && !x.DType().IsInexact() && x.DType() != trace.Bool {
		return p, fmt.Errorf("%s: cannot sort arrays of dtype %s (operand %s)", fn, x.DType(), jstarlark.Describe(x))
	}
	p.x = x
	if p.dtype, _, err = jstarlark.DTypeArg(fn, dtype); err != nil {
		return p, err
	}
	if p.dtype != trace.InvalidDType && !p.dtype.IsInteger() {
		return p, fmt.Errorf("%s: dtype must be an integer dtype, got %s", fn, p.dtype)
	}
	return p, nil
}

// SortParams are the sort primitive's parameters for sorting along axis
// with the first keys operands as keys.
func SortParams(axis int, stable bool, keys int) trace.Params {
	return trace.Params{"dimension": axis, "is_stable": stable, "num_keys": keys}
}

// sortKeys are the sort keys of x: x itself, or for complex x its real
// and imaginary parts (JAX orders complex numbers lexicographically).
func sortKeys(fn string, x *jstarlark.Array) ([]*jstarlark.Array, error) {
	if !x.DType().IsComplex() {
		return []*jstarlark.Array{x}, nil
	}
	re, err := complexPart(fn, "real", x)
	if err != nil {
		return nil, err
	}
	im, err := complexPart(fn, "imag", x)
	if err != nil {
		return nil, err
	}
	return []*jstarlark.Array{re, im}, nil
}

// sortBy sorts carried along axis by x's keys and returns the sorted
// carried operand; carried == x sorts x itself (a complex x as its parts,
// joined again after).
func sortBy(fn string, x, carried *jstarlark.Array, axis int, stable bool) (*jstarlark.Array, error) {
	keys, err := sortKeys(fn, x)
	if err != nil {
		return nil, err
	}
	operands := keys
	if carried != x {
		operands = append(keys, carried)
	}
	out, err := jstarlark.Bind("sort", SortParams(axis, stable, len(keys)), operands...)
	if err != nil {
		return nil, err
	}
	if carried == x && len(keys) == 2 {
		return jstarlark.Bind1("complex", nil, out[0], out[1])
	}
	return out[len(out)-1], nil
}

func jnpSort(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	p, err := parseSortArgs(fn, args, kwargs, false)
	if err != nil {
		return nil, err
	}
	sorted, err := sortBy(fn, p.x, p.x, p.axis, p.stable)
	if err != nil || !p.descending {
		return sorted, err
	}
	return reverseAxes(sorted, []int{p.axis})
}

func jnpArgsort(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	p, err := parseSortArgs(fn, args, kwargs, true)
	if err != nil {
		return nil, err
	}
	dt := p.dtype
	if dt == trace.InvalidDType {
		dt = indexDTypeForLength(p.x.Shape()[p.axis])
	}
	x := p.x
	iota, err := jstarlark.IotaOf(x.Device(), dt, x.Shape(), p.axis)
	if err != nil {
		return nil, err
	}
	if p.descending && p.stable {
		if x, err = reverseAxes(x, []int{p.axis}); err != nil {
			return nil, err
		}
		if iota, err = reverseAxes(iota, []int{p.axis}); err != nil {
			return nil, err
		}
	}
	order, err := sortBy(fn, x, iota, p.axis, p.stable)
	if err != nil || !p.descending {
		return order, err
	}
	return reverseAxes(order, []int{p.axis})
}

func init() {
	jstarlark.Register(Module, "sort", jnpSort)
	jstarlark.Register(Module, "argsort", jnpArgsort)
}
