package starlark

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jaxsh/jaxsh/starlark/dialect"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Library functions written in the dialect itself. JAX writes jax.numpy,
// jax.nn and jax.scipy in Python on top of lax; a jaxsh library may do the
// same for functions that are plain compositions of other members: the
// source reads like JAX's, and every call still binds primitives through the
// one path (Bind), eagerly or under a trace, on the caller's thread.

// RegisterStarlark runs src (dialect source named filename, as tracebacks
// show it) once, with the predeclared names plus uses (the modules it
// composes, such as jnp and lax), and adds to module every function it
// defines whose name does not start with "_". Top-level statements may
// define functions and constants only: there is no device or session yet.
// It is meant for package init, and panics on an error in src, which is a
// bug in the library rather than in a user's script.
func RegisterStarlark(module *starlarkstruct.Module, filename, src string, uses starlark.StringDict) {
	globals, err := execLibrarySource(filename, src, uses)
	if err != nil {
		panic(fmt.Sprintf("library source %s: %v", filename, err))
	}
	names := make([]string, 0, len(globals))
	for name := range globals {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if fn, ok := globals[name].(*starlark.Function); ok && !strings.HasPrefix(name, "_") {
			module.Members[name] = fn
		}
	}
}

func execLibrarySource(filename, src string, uses starlark.StringDict) (starlark.StringDict, error) {
	f, err := dialect.Parse(FileOptions, filename, src)
	if err != nil {
		return nil, err
	}
	pre := Predeclared()
	for k, v := range uses {
		pre[k] = v
	}
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return nil, err
	}
	thread := &starlark.Thread{Name: "init " + filename}
	g, err := prog.Init(thread, pre)
	if err != nil {
		return nil, err
	}
	g.Freeze()
	return g, nil
}
