package nn

import (
	_ "embed"

	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

//go:embed activations.star
var activationsSource string

// The activations composed in the dialect (activations.star) call jnp,
// lax and this module's own members by name, looked up when they run.
func init() {
	uses := starlark.StringDict{"jnp": numpy.Module, "lax": lax.Module, "nn": Module}
	jstarlark.RegisterStarlark(Module, "lib/nn/activations.star", activationsSource, uses)
}
