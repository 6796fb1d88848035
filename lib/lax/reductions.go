package lax

import (
	"fmt"
	"slices"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// lax's reductions over given axes (reduce_sum, ..., argmax), its
// comparisons (eq, ..., ge), integer_pow and select_n: one primitive each,
// with lax's strictness (no promotion, axes required).

func init() {
	for _, op := range []struct{ name, jnpName string }{
		{"eq", "equal"}, {"ne", "not_equal"}, {"lt", "less"}, {"le", "less_equal"}, {"gt", "greater"}, {"ge", "greater_equal"},
	} {
		jstarlark.Register(Module, op.name, laxBinaryBuiltin(op.name, op.name, op.jnpName))
	}
	for _, name := range []string{"reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"} {
		jstarlark.Register(Module, name, laxReduceBuiltin(name))
	}
	jstarlark.Register(Module, "argmax", laxArgBuiltin("argmax"))
	jstarlark.Register(Module, "argmin", laxArgBuiltin("argmin"))
	jstarlark.Register(Module, "integer_pow", laxIntegerPowBuiltin)
	jstarlark.Register(Module, "select_n", laxSelectNBuiltin)
	jstarlark.RegisterValue(Module, "RandomAlgorithm", starlarkstruct.FromStringDict(starlark.String("RandomAlgorithm"), starlark.StringDict{
		"RNG_DEFAULT":   starlark.MakeInt(0),
		"RNG_THREE_FRY": starlark.MakeInt(1),
		"RNG_PHILOX":    starlark.MakeInt(2),
	}))
}

// reduceAxes reads the axes of a reduction: distinct, in range, sorted.
func reduceAxes(fn string, v starlark.Value, rank int) ([]int, error) {
	axes, err := IntsArg(fn, "axes", v)
	if err != nil {
		return nil, err
	}
	seen := make([]bool, rank)
	for i, a := range axes {
		if a < -rank || a >= rank {
			return nil, fmt.Errorf("%s: axis %d is out of bounds for an operand of rank %d", fn, a, rank)
		}
		if a < 0 {
			a += rank
		}
		if seen[a] {
			return nil, fmt.Errorf("%s: duplicate axis %d in axes", fn, a)
		}
		seen[a] = true
		axes[i] = a
	}
	slices.Sort(axes)
	return axes, nil
}

// laxReduceBuiltin is lax.reduce_sum(operand, axes) and its kin.
func laxReduceBuiltin(name string) jstarlark.BuiltinFunc {
	fn := "lax." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, axesV starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "axes", &axesV); err != nil {
			return nil, err
		}
		arrs, err := laxOperands(fn, x)
		if err != nil {
			return nil, err
		}
		a := arrs[0]
		switch name {
		case "reduce_and", "reduce_or":
			if !a.DType().IsBool() && !a.DType().IsInteger() {
				return nil, fmt.Errorf("%s: operand must be boolean or integer, got %s", fn, a.DType())
			}
		case "reduce_sum", "reduce_prod":
			if a.DType().IsBool() {
				return nil, fmt.Errorf("%s: operand must be numeric, got bool", fn)
			}
		}
		axes, err := reduceAxes(fn, axesV, a.NDim())
		if err != nil {
			return nil, err
		}
		return jstarlark.Bind1(name, trace.Params{"axes": axes}, a)
	}
}

// laxArgBuiltin is lax.argmax(operand, axis, index_dtype).
func laxArgBuiltin(name string) jstarlark.BuiltinFunc {
	fn := "lax." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, dtV starlark.Value
		var axis int
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "axis", &axis, "index_dtype", &dtV); err != nil {
			return nil, err
		}
		arrs, err := laxOperands(fn, x)
		if err != nil {
			return nil, err
		}
		a := arrs[0]
		if a.NDim() == 0 {
			return nil, fmt.Errorf("%s: operand must have at least one dimension", fn)
		}
		ax, err := jstarlark.NormalizeAxisOf(fn, axis, a.NDim(), a)
		if err != nil {
			return nil, err
		}
		dt, ok, err := jstarlark.UserDType(fn, dtV)
		if err != nil {
			return nil, err
		}
		if !ok || !dt.IsInteger() {
			return nil, fmt.Errorf("%s: index_dtype must be an integer dtype, got %s", fn, dtV.String())
		}
		r, err := jstarlark.Bind1(name, trace.Params{"axes": []int{ax}, "index_dtype": trace.Int32}, a)
		if err != nil || dt == trace.Int32 {
			return r, err
		}
		return jstarlark.Astype(r, dt)
	}
}

// laxIntegerPowBuiltin is lax.integer_pow(x, y): x to the static integer y.
func laxIntegerPowBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.integer_pow"
	var x starlark.Value
	var y int
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "y", &y); err != nil {
		return nil, err
	}
	arrs, err := laxOperands(fn, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	if a.DType().IsBool() {
		return nil, fmt.Errorf("%s: x must be numeric, got bool", fn)
	}
	if y < 0 && a.DType().IsInteger() {
		return nil, fmt.Errorf("%s: integers to negative powers are not allowed, got y=%d for %s", fn, y, a.DType())
	}
	return jstarlark.Bind1("integer_pow", trace.Params{"y": y}, a)
}

// laxSelectNBuiltin is lax.select_n(which, *cases): cases[which]
// elementwise; which is boolean (two cases) or int32.
func laxSelectNBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.select_n"
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword argument %s", fn, kwargs[0][0])
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("%s: needs which and at least one case", fn)
	}
	which, err := jstarlark.EnsureArray(fn, args[0])
	if err != nil {
		return nil, err
	}
	switch {
	case which.DType().IsBool():
		if len(args) > 3 {
			return nil, fmt.Errorf("%s: a boolean which selects between at most 2 cases, got %d", fn, len(args)-1)
		}
	case which.DType() != trace.Int32:
		return nil, fmt.Errorf("%s: which must be bool or int32, got %s", fn, which.DType())
	}
	cases, err := laxOperands(fn, args[1:]...)
	if err != nil {
		return nil, err
	}
	if err := checkSameDTypes(fn, "", cases...); err != nil {
		return nil, err
	}
	for _, c := range cases[1:] {
		if !slices.Equal(c.Shape(), cases[0].Shape()) {
			return nil, fmt.Errorf("%s: cases must have the same shape, got %v and %v", fn, cases[0].Shape(), c.Shape())
		}
	}
	if which.NDim() != 0 && !slices.Equal(which.Shape(), cases[0].Shape()) {
		return nil, fmt.Errorf("%s: which must be a scalar or have the cases' shape %v, got %v", fn, cases[0].Shape(), which.Shape())
	}
	if which.NDim() == 0 && cases[0].NDim() != 0 {
		if which, err = jstarlark.BroadcastTo(which, cases[0].Shape()); err != nil {
			return nil, err
		}
	}
	return jstarlark.Bind1("select_n", nil, append([]*jstarlark.Array{which}, cases...)...)
}
