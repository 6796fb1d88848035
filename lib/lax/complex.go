package lax

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// lax.complex(x, y) joins two float32 or float64 operands of one dtype
// into x + iy; lax.real, lax.imag and lax.conj apply their primitives as
// they are (real and imag take complex operands only; conj also takes
// float32 and float64, giving a complex result).

func init() {
	jstarlark.Register(Module, "complex", laxComplexBuiltin)
	for _, name := range []string{"real", "imag", "conj"} {
		jstarlark.Register(Module, name, laxComplexPartBuiltin(name))
	}
}

func laxComplexBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.complex"
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs(fn, args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	arrs, err := laxOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	if err := checkSameDTypes(fn, "", arrs...); err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.BroadcastArrays(fn, arrs...); err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Binary("complex", arrs[0], arrs[1]))
}

func laxComplexPartBuiltin(prim string) jstarlark.BuiltinFunc {
	fn := "lax." + prim
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(fn, args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		a, err := jstarlark.EnsureArray(fn, x)
		if err != nil {
			return nil, err
		}
		var params trace.Params
		if prim == "conj" {
			params = trace.Params{"input_dtype": a.DType()}
		}
		out, err := jstarlark.Bind1(prim, params, a)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", fn, err)
		}
		return out, nil
	}
}
