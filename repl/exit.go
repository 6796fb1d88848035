package repl

import (
	"errors"
	"fmt"

	"go.starlark.net/starlark"
)

// errExit is what exit() and quit() raise: the loop ends the session as
// Ctrl-D does.
var errExit = errors.New("exit requested")

// exitValue is exit or quit. Called, it ends the session; echoed without
// the call, it says how to leave, as Python's REPL does.
type exitValue string

var _ starlark.Callable = exitValue("")

func (e exitValue) String() string {
	return fmt.Sprintf("Use %s() or Ctrl-D (i.e. EOF) to exit", string(e))
}
func (e exitValue) Type() string          { return "builtin_function_or_method" }
func (e exitValue) Freeze()               {}
func (e exitValue) Truth() starlark.Bool  { return starlark.True }
func (e exitValue) Hash() (uint32, error) { return starlark.String(e).Hash() }
func (e exitValue) Name() string          { return string(e) }

func (e exitValue) CallInternal(_ *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var code starlark.Value
	if err := starlark.UnpackPositionalArgs(string(e), args, kwargs, 0, &code); err != nil {
		return nil, err
	}
	return nil, errExit
}
