package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// NumPy's other names for dtypes (double, int_, ...), jnp.can_cast with
// NumPy's casting rules, jnp.iterable, and the constant euler_gamma.

// dtypeAliases are NumPy's C-style and default-type names; with 64-bit
// types present, as in jaxsh, they name the 64-bit dtypes.
var dtypeAliases = map[string]trace.DType{
	"single": trace.Float32, "double": trace.Float64, "float_": trace.Float64,
	"csingle": trace.Complex64, "cdouble": trace.Complex128, "complex_": trace.Complex128,
	"int_": trace.Int64,
}

func init() {
	for name, dt := range dtypeAliases {
		jstarlark.RegisterValue(Module, name, jstarlark.DType{DT: dt})
	}
	jstarlark.RegisterValue(Module, "euler_gamma", starlark.Float(0.57721566490153286060651209008240243))
	jstarlark.Register(Module, "can_cast", jnpCanCast)
	jstarlark.Register(Module, "iterable", jnpIterable)
}

// floatBits are the significand bits (with the implicit one) and exponent
// bits of each floating dtype, which decide whether a cast loses values.
var floatBits = map[trace.DType][2]int{
	trace.Float16: {11, 5}, trace.BFloat16: {8, 8}, trace.Float32: {24, 8}, trace.Float64: {53, 11},
}

// kindOrder ranks the kinds as NumPy's same_kind casting does: a cast may
// go to the same kind or a later one.
func kindOrder(d trace.DType) int {
	switch {
	case d.IsBool():
		return 0
	case d.IsUnsigned():
		return 1
	case d.IsSigned():
		return 2
	case d.IsFloat():
		return 3
	}
	return 4
}

// safeCast reports whether every value of from is a value of to.
func safeCast(from, to trace.DType) bool {
	switch {
	case from == to, from.IsBool():
		return true
	case to.IsBool():
		return false
	case from.IsComplex():
		return to.IsComplex() && to.Bits() >= from.Bits()
	}
	target := to
	if to.IsComplex() {
		target = to.ComplexPart()
	}
	switch {
	case from.IsFloat():
		f, t := floatBits[from], floatBits[target]
		return target.IsFloat() && t[0] >= f[0] && t[1] >= f[1]
	case target.IsFloat() && from.Bits() == 64:
		return target == trace.Float64 // NumPy lets 64-bit integers cast to float64 safely
	case target.IsFloat():
		valueBits := from.Bits()
		if from.IsSigned() {
			valueBits--
		}
		return floatBits[target][0] >= valueBits
	case from.IsUnsigned():
		return target.IsUnsigned() && target.Bits() >= from.Bits() || target.IsSigned() && target.Bits() > from.Bits()
	}
	return target.IsSigned() && target.Bits() >= from.Bits()
}

// jnp.can_cast(from_, to, casting='safe'): whether NumPy's casting rule
// allows converting dtype from_ (or an array's dtype) to to.
func jnpCanCast(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "can_cast"
	var from, to starlark.Value
	casting := "safe"
	if err := starlark.UnpackArgs(fn, args, kwargs, "from_", &from, "to", &to, "casting?", &casting); err != nil {
		return nil, err
	}
	switch from.(type) {
	case starlark.Int, starlark.Float, starlark.Bool:
		return nil, fmt.Errorf("%s: from_ must be a dtype or an array, not a Python %s (as in JAX and NumPy 2)", fn, from.Type())
	}
	df, err := dtypeOf(fn, from)
	if err != nil {
		return nil, err
	}
	dt, err := dtypeOf(fn, to)
	if err != nil {
		return nil, err
	}
	switch casting {
	case "no", "equiv":
		return starlark.Bool(df == dt), nil
	case "safe":
		return starlark.Bool(safeCast(df, dt)), nil
	case "same_kind":
		return starlark.Bool(safeCast(df, dt) || kindOrder(dt) >= kindOrder(df)), nil
	case "unsafe":
		return starlark.True, nil
	}
	return nil, fmt.Errorf("%s: casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', got %q", fn, casting)
}

// jnp.iterable(y): whether iterating over y works (a 0-d array does not).
func jnpIterable(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var y starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &y); err != nil {
		return nil, err
	}
	if a, ok := y.(*jstarlark.Array); ok {
		return starlark.Bool(a.NDim() > 0), nil
	}
	switch y.(type) {
	case starlark.Iterable, starlark.String, starlark.Bytes:
		return starlark.True, nil
	}
	return starlark.False, nil
}
