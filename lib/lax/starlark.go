package lax

import (
	_ "embed"

	"github.com/jaxsh/jaxsh/lib/transform"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

//go:embed composed.star
var composedSource string

//go:embed special.star
var specialSource string

//go:embed more.star
var moreSource string

// The conveniences written in the dialect (composed.star, more.star) call this
// module's own members through the name lax, looked up when they run.
func init() {
	jstarlark.RegisterStarlark(Module, "lib/lax/composed.star", composedSource, starlark.StringDict{"lax": Module})
	jstarlark.RegisterStarlark(Module, "lib/lax/more.star", moreSource, starlark.StringDict{"lax": Module})
	// The special functions give their derivatives by custom_jvp rules.
	jstarlark.RegisterStarlark(Module, "lib/lax/special.star", specialSource,
		starlark.StringDict{"lax": Module, "custom_jvp": transform.Builtins()["custom_jvp"], "jvp": transform.Builtins()["jvp"]})
}
