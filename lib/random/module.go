package random

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the random module. Its members are registered by the init
// functions of this package's files.
var Module = &starlarkstruct.Module{Name: "random", Members: starlark.StringDict{}}
