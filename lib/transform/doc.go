// Package transform holds the function transformations of SPEC §4, the
// top-level builtins that take a function and return one:
//
//	grad, value_and_grad, jvp, vjp, linearize   autodiff (ad*.go)
//	custom_jvp, custom_vjp                      functions with their own rules
//	checkpoint, remat, checkpoint_policies      recomputation in the backward pass
//	jacfwd, jacrev, jacobian, hessian           Jacobians by vmap of jvp or vjp (jac.go)
//	vmap                                        batching (vmap.go)
//
// Each traces the user's function into a jaxpr with package starlark's
// tracing API, transforms it with trace/ad or trace/batching, and applies
// the result in the current trace (or compiles and runs it outside any), so
// a transformed function is an ordinary jaxpr that jit fuses. The root
// package predeclares Builtins next to the language's own names.
package transform

import (
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Builtins returns the transformations, by the names scripts call them.
func Builtins() starlark.StringDict {
	d := starlark.StringDict{
		"vmap": jstarlark.NewBuiltin("vmap", builtinVmap),
		// The dtype of integers' tangents (jax.float0, jax.dtypes.float0).
		"float0": jstarlark.DType{DT: trace.Float0},
	}
	for k, v := range adBuiltins() {
		d[k] = v
	}
	for k, v := range jacobianBuiltins() {
		d[k] = v
	}
	return d
}
