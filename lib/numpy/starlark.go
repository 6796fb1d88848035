package numpy

import (
	_ "embed"
	"fmt"

	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/transform"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

//go:embed composed.star
var composedSource string

//go:embed aliases.star
var aliasesSource string

//go:embed setops.star
var setopsSource string

//go:embed polyhist.star
var polyhistSource string

// The functions written in the dialect (the .star files) call jnp and lax
// members by name, looked up when they run, so the order in which this
// package's init functions register the Go members does not matter.
func init() {
	uses := starlark.StringDict{
		"jnp": Module, "lax": lax.Module,
		"vmap":      transform.Builtins()["vmap"], // apply_along_axis maps func1d over the other axes
		"_concrete": starlark.NewBuiltin("_concrete", concreteBuiltin),
	}
	jstarlark.RegisterStarlark(Module, "lib/numpy/composed.star", composedSource, uses)
	jstarlark.RegisterStarlark(Module, "lib/numpy/aliases.star", aliasesSource, uses)
	jstarlark.RegisterStarlark(Module, "lib/numpy/setops.star", setopsSource, uses)
	jstarlark.RegisterStarlark(Module, "lib/numpy/polyhist.star", polyhistSource, uses)
}

// concreteBuiltin is _concrete(fn, hint, x): x itself, or, when x is a
// traced array, the error that the shape of fn's result depends on values
// (hint says what to pass instead: JAX's size=). Without it the user would
// meet int()'s ConcretizationError from inside the library's source.
func concreteBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn, hint string
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 3, &fn, &hint, &x); err != nil {
		return nil, err
	}
	if a, ok := x.(*jstarlark.Array); ok && a.Traced() {
		return nil, fmt.Errorf("%s: the shape of the result depends on the values of its operands, which are not known while tracing; %s", fn, hint)
	}
	return x, nil
}
