package numpy

import (
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the jnp module. Its members are registered by the init
// functions of this package's files; linalg is its submodule.
var Module = &starlarkstruct.Module{Name: "jnp", Members: starlark.StringDict{}}

// linalgModule is jnp.linalg.
var linalgModule = &starlarkstruct.Module{Name: "jnp.linalg", Members: starlark.StringDict{}}

func init() {
	jstarlark.RegisterValue(Module, "linalg", linalgModule)
	for _, dt := range trace.DTypes() {
		if dt.IsArray() {
			jstarlark.RegisterValue(Module, dt.Name(), jstarlark.DType{DT: dt})
		}
	}
	jstarlark.RegisterValue(Module, "bool_", jstarlark.DType{DT: trace.Bool})
	jstarlark.SetArrayMethods(Module)
}

// registerUnary makes f the ufunc name: a jnp builtin of one operand, and
// what the array operators of that name call.
func registerUnary(name string, f jstarlark.UnaryFunc) {
	jstarlark.RegisterUnaryUfunc(name, f)
	jstarlark.Register(Module, name, unaryBuiltin(name, f))
}

// registerBinary makes f the ufunc name: a jnp builtin of two operands
// (unless a builtin with keyword arguments was registered under the name
// first, as matmul is), and what the array operators of that name call.
func registerBinary(name string, f jstarlark.BinaryFunc) {
	jstarlark.RegisterBinaryUfunc(name, f)
	if _, full := Module.Members[name]; !full {
		jstarlark.Register(Module, name, binaryBuiltin(name, f))
	}
}

// callJnp calls the jnp function name with a prepended to the arguments.
func callJnp(name string, a *jstarlark.Array, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	all := append(starlark.Tuple{a}, args...)
	return Module.Members[name].(*starlark.Builtin).CallInternal(nil, all, kwargs)
}

func unaryBuiltin(name string, f jstarlark.UnaryFunc) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 1 && len(kwargs) == 0 {
			return f(args[0]) // the common call, without unpacking's allocation
		}
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		return f(x)
	}
}

func binaryBuiltin(name string, f jstarlark.BinaryFunc) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 2 && len(kwargs) == 0 {
			return f(args[0], args[1])
		}
		var x, y starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 2, &x, &y); err != nil {
			return nil, err
		}
		return f(x, y)
	}
}
