package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Complex parts as jax.numpy defines them: real, imag, conj and conjugate
// apply lax's primitives to complex operands and pass real ones through
// (imag of a real array is zeros of its dtype); angle is atan2(imag, real)
// in the operand's real precision (float32 for integers and bool), in
// degrees with deg=True; iscomplexobj asks the dtype.

func init() {
	jstarlark.Register(Module, "real", complexPartBuiltin("real"))
	jstarlark.Register(Module, "imag", complexPartBuiltin("imag"))
	jstarlark.Register(Module, "conj", complexPartBuiltin("conj"))
	jstarlark.Register(Module, "conjugate", complexPartBuiltin("conj"))
	jstarlark.Register(Module, "angle", angleBuiltin)
	jstarlark.Register(Module, "iscomplexobj", iscomplexobjBuiltin)
}

func complexPartBuiltin(prim string) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := "jnp." + b.Name()
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(fn, args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		a, err := jstarlark.EnsureArray(fn, x)
		if err != nil {
			return nil, err
		}
		return complexPart(fn, prim, a)
	}
}

// complexPart is jnp.real, jnp.imag or jnp.conj of a.
func complexPart(fn, prim string, a *jstarlark.Array) (*jstarlark.Array, error) {
	c := &jstarlark.Composer{Fn: fn}
	if !a.DType().IsComplex() {
		if prim == "imag" {
			return c.Done(c.FullLike(a, 0, a.DType()))
		}
		return a, nil
	}
	var params trace.Params
	if prim == "conj" {
		params = trace.Params{"input_dtype": a.DType()}
	}
	return c.Done(c.Prim(prim, params, a))
}

func angleBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.angle"
	var z starlark.Value
	var deg bool
	if err := starlark.UnpackArgs(fn, args, kwargs, "z", &z, "deg?", &deg); err != nil {
		return nil, err
	}
	a, err := jstarlark.EnsureArray(fn, z)
	if err != nil {
		return nil, err
	}
	re, err := complexPart(fn, "real", a)
	if err != nil {
		return nil, err
	}
	im, err := complexPart(fn, "imag", a)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	if !re.DType().IsFloat() {
		re, im = c.Convert(re, trace.Float32, false), c.Convert(im, trace.Float32, false)
	}
	out := c.Binary("atan2", im, re)
	if deg {
		out = c.Binary("mul", out, c.Lit(out, 180/3.141592653589793))
	}
	return c.Done(out)
}

func iscomplexobjBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("jnp.iscomplexobj", args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	switch v := x.(type) {
	case *jstarlark.Array:
		return starlark.Bool(v.DType().IsComplex()), nil
	case jstarlark.DType:
		return starlark.Bool(v.DT.IsComplex()), nil
	case starlark.Int, starlark.Float, starlark.Bool:
		return starlark.False, nil
	}
	a, err := jstarlark.EnsureArray("jnp.iscomplexobj", x)
	if err != nil {
		return nil, fmt.Errorf("jnp.iscomplexobj: %v", err)
	}
	return starlark.Bool(a.DType().IsComplex()), nil
}
