package lax

import (
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the lax module. Its members are registered by the init
// functions of this package's files.
var Module = &starlarkstruct.Module{Name: "lax", Members: starlark.StringDict{}}
