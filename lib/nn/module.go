package nn

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the nn module. Its members are registered by the init
// functions of this package's files.
var Module = &starlarkstruct.Module{Name: "nn", Members: starlark.StringDict{}}
