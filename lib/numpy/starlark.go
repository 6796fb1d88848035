package numpy

import (
	_ "embed"

	"github.com/jaxsh/jaxsh/lib/lax"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

//go:embed composed.star
var composedSource string

// The functions written in the dialect (composed.star) call jnp and lax
// members by name, looked up when they run, so the order in which this
// package's init functions register the Go members does not matter.
func init() {
	jstarlark.RegisterStarlark(Module, "lib/numpy/composed.star", composedSource, starlark.StringDict{"jnp": Module, "lax": lax.Module})
}
