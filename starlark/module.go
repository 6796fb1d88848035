package starlark

import (
	"fmt"
	"runtime/debug"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// BuiltinFunc is the signature of a Starlark builtin's Go function.
type BuiltinFunc = func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// Register adds fn to the library module m as the builtin name. The builtin
// serves the calling thread's pending callbacks first (DESIGN decision 4)
// and turns a Go panic inside fn into an "internal error" naming m.name —
// a bug report, never a crash. Registering a name twice panics: it is a
// mistake in the library, found when its package initializes.
func Register(m *starlarkstruct.Module, name string, fn BuiltinFunc) {
	if _, dup := m.Members[name]; dup {
		panic(fmt.Sprintf("%s.%s registered twice", m.Name, name))
	}
	m.Members[name] = starlark.NewBuiltin(name, guard(m.Name+"."+name, fn))
}

// NewBuiltin is a top-level builtin (a library's name outside any module,
// such as vmap or grad) guarded as Register guards a module's members.
func NewBuiltin(name string, fn BuiltinFunc) *starlark.Builtin {
	return starlark.NewBuiltin(name, guard(name, fn))
}

// Guard wraps fn as Register wraps a member: pending callbacks served
// first, a panic an internal error naming qualified (for builtins a
// library makes outside a module, such as the methods of its values).
func Guard(qualified string, fn BuiltinFunc) BuiltinFunc { return guard(qualified, fn) }

// RegisterValue adds a non-function member (a constant, a dtype, a
// submodule) to the library module m.
func RegisterValue(m *starlarkstruct.Module, name string, v starlark.Value) {
	if _, dup := m.Members[name]; dup {
		panic(fmt.Sprintf("%s.%s registered twice", m.Name, name))
	}
	m.Members[name] = v
}

// internalErrorPrefix marks errors made from recovered panics, so tests can
// tell them from ordinary user errors.
const internalErrorPrefix = "internal error in "

func guard(qualified string, fn BuiltinFunc) BuiltinFunc {
	recovering := recoverPanics(qualified, fn)
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		pollCallbacks(thread)
		v, err := recovering(thread, b, args, kwargs)
		if err != nil && len(kwargs) > 0 {
			err = nameUnexpectedKeywords(err, kwargs)
		}
		return v, err
	}
}

// nameUnexpectedKeywords adds the names to go.starlark.net's
// UnpackPositionalArgs error "f: unexpected keyword arguments", which
// builtins taking positional arguments only return as it is.
func nameUnexpectedKeywords(err error, kwargs []starlark.Tuple) error {
	const suffix = ": unexpected keyword arguments"
	msg := err.Error()
	if !strings.HasSuffix(msg, suffix) {
		return err
	}
	names := make([]string, len(kwargs))
	for i, kv := range kwargs {
		names[i] = "'" + string(kv[0].(starlark.String)) + "'"
	}
	what := "argument "
	if len(names) > 1 {
		what = "arguments "
	}
	return fmt.Errorf("%s: unexpected keyword %s%s", strings.TrimSuffix(msg, suffix), what, strings.Join(names, ", "))
}

// recoverPanics turns a Go panic inside fn into an internal error, without
// serving callbacks: for builtins that stand in for Starlark's own (str,
// abs, min, max), which a callback may call while other callbacks wait, and
// which must not run those in the middle of it.
func recoverPanics(qualified string, fn BuiltinFunc) BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (v starlark.Value, err error) {
		defer func() {
			if r := recover(); r != nil {
				v = nil
				err = fmt.Errorf("%s%s: %v (please report this bug)\n%s", internalErrorPrefix, qualified, r, debug.Stack())
			}
		}()
		return fn(thread, b, args, kwargs)
	}
}
