package starlark

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// builtinFunc is the signature of a Starlark builtin's Go function.
type builtinFunc = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// members holds the array modules' contents by dotted module name ("jnp",
// "jnp.linalg", "nn", "lax"); files register into it from init functions,
// and arrayModules assembles the module values once.
var members = map[string]starlark.StringDict{}

// register adds a builtin to a module. The builtin is wrapped so that a Go
// panic inside it becomes an "internal error" naming the function — a bug
// report, never a crash.
func register(module, name string, fn builtinFunc) {
	d := members[module]
	if d == nil {
		d = starlark.StringDict{}
		members[module] = d
	}
	if _, dup := d[name]; dup {
		panic(fmt.Sprintf("%s.%s registered twice", module, name))
	}
	d[name] = starlark.NewBuiltin(name, guard(module+"."+name, fn))
}

// registerValue adds a non-function member (a constant, a dtype).
func registerValue(module, name string, v starlark.Value) {
	d := members[module]
	if d == nil {
		d = starlark.StringDict{}
		members[module] = d
	}
	d[name] = v
}

// errInternal marks errors made from recovered panics, so tests can tell
// them from ordinary user errors.
const internalErrorPrefix = "internal error in "

func guard(qualified string, fn builtinFunc) builtinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (v starlark.Value, err error) {
		defer func() {
			if r := recover(); r != nil {
				v = nil
				err = fmt.Errorf("%s%s: %v (please report this bug)\n%s", internalErrorPrefix, qualified, r, debug.Stack())
			}
		}()
		pollCallbacks(thread)
		return fn(thread, b, args, kwargs)
	}
}

var (
	modulesOnce sync.Once
	modules     starlark.StringDict
)

// arrayModules returns the predeclared array modules: jnp (with linalg), nn
// and lax, plus the ufuncs of ops.go exposed as jnp builtins.
func arrayModules() starlark.StringDict {
	modulesOnce.Do(func() {
		for name, f := range unaryUfuncs {
			register("jnp", name, unaryBuiltin(name, f))
		}
		for name, f := range binaryUfuncs {
			if _, full := members["jnp"][name]; full {
				continue // registered with its keyword arguments (matmul)
			}
			register("jnp", name, binaryBuiltin(name, f))
		}
		for _, dt := range trace.DTypes() {
			if dt.IsArray() {
				registerValue("jnp", dt.Name(), DType{dt})
			}
		}
		registerValue("jnp", "bool_", DType{trace.Bool})
		modules = starlark.StringDict{}
		// Submodules ("jnp.linalg") first become members of their parents.
		names := make([]string, 0, len(members))
		for name := range members {
			names = append(names, name)
		}
		sort.Slice(names, func(i, j int) bool { return strings.Count(names[i], ".") > strings.Count(names[j], ".") })
		built := map[string]*starlarkstruct.Module{}
		for _, name := range names {
			m := &starlarkstruct.Module{Name: name, Members: members[name]}
			built[name] = m
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				parent := name[:i]
				if members[parent] == nil {
					members[parent] = starlark.StringDict{}
				}
				members[parent][name[i+1:]] = m
			} else {
				modules[name] = m
			}
		}
		for _, m := range built {
			m.Members.Freeze()
		}
	})
	return modules
}

func unaryBuiltin(name string, f unaryFunc) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		return f(x)
	}
}

func binaryBuiltin(name string, f binaryFunc) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, y starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 2, &x, &y); err != nil {
			return nil, err
		}
		return f(x, y)
	}
}
