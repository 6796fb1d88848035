package starlark

import (
	"fmt"

	"go.starlark.net/starlark"
)

// int(x) and float(x) on an array of one element, as Python's __int__ and
// __float__ make them work on NumPy and JAX arrays: int(jnp.argmax(v)).
// Starlark's own int and float accept only Starlark values, so these
// wrappers convert a size-1 array to its element first and hand everything
// to the originals. A traced array is a ConcretizationError, as in JAX.

func scalarConversions() starlark.StringDict {
	out := starlark.StringDict{}
	for _, name := range []string{"int", "float"} {
		orig := starlark.Universe[name].(*starlark.Builtin)
		out[name] = starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 1 && len(kwargs) == 0 {
				if a, ok := args[0].(*Array); ok {
					if a.Traced() {
						return nil, concretizationError(a, name+"()")
					}
					if a.Size() != 1 {
						return nil, fmt.Errorf("only arrays of one element can be converted to Python scalars, got %s", a.aval.LongString())
					}
					v, err := a.ScalarValue(0)
					if err != nil {
						return nil, err
					}
					args = starlark.Tuple{v}
				}
			}
			return starlark.Call(thread, orig, args, kwargs)
		})
	}
	return out
}
