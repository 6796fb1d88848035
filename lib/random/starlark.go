package random

import (
	_ "embed"

	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

//go:embed distributions.star
var distributionsSource string

// The distributions composed in the dialect (distributions.star) call jnp,
// lax and this module's own samplers by name, looked up when they run.
func init() {
	uses := starlark.StringDict{"jnp": numpy.Module, "lax": lax.Module, "random": Module}
	jstarlark.RegisterStarlark(Module, "lib/random/distributions.star", distributionsSource, uses)
}
