package nn

import (
	_ "embed"

	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/numpy"
	"github.com/jaxsh/jaxsh/lib/random"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	starlarkmath "go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

//go:embed activations.star
var activationsSource string

//go:embed initializers.star
var initializersSource string

// initializers is nn.initializers, jax.nn.initializers' namespace.
var initializers = &starlarkstruct.Module{Name: "jax.nn.initializers", Members: starlark.StringDict{}}

// The activations composed in the dialect (activations.star) call jnp,
// lax and this module's own members by name, looked up when they run.
func init() {
	uses := starlark.StringDict{"jnp": numpy.Module, "lax": lax.Module, "nn": Module}
	jstarlark.RegisterStarlark(Module, "lib/nn/activations.star", activationsSource, uses)
	jstarlark.RegisterStarlark(initializers, "lib/nn/initializers.star", initializersSource,
		starlark.StringDict{"jnp": numpy.Module, "random": random.Module, "math": starlarkmath.Module})
	jstarlark.RegisterValue(Module, "initializers", initializers)
}
