package random

import (
	_ "embed"

	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/numpy"
	"github.com/jaxsh/jaxsh/lib/transform"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

var (
	//go:embed distributions.star
	distributionsSource string
	//go:embed parametric.star
	parametricSource string
)

// The distributions composed in the dialect (distributions.star and
// parametric.star) call jnp, lax and this module's own samplers by name,
// looked up when they run.
func init() {
	uses := starlark.StringDict{"jnp": numpy.Module, "lax": lax.Module, "random": Module}
	jstarlark.RegisterStarlark(Module, "lib/random/distributions.star", distributionsSource, uses)
	// gamma maps its per-element rejection loop over the keys with vmap,
	// and gives its derivative in a by a custom_jvp rule.
	withVmap := starlark.StringDict{"vmap": transform.Builtins()["vmap"], "custom_jvp": transform.Builtins()["custom_jvp"]}
	for k, v := range uses {
		withVmap[k] = v
	}
	jstarlark.RegisterStarlark(Module, "lib/random/parametric.star", parametricSource, withVmap)
}
