// Package hostcallback is JAX's host callbacks for scripts (SPEC §5):
// functions that run on the host with the runtime values of a computation,
// staged as id_tap and call equations inside a trace and run at once
// outside one.
//
//	id_tap(tap_func, arg, *, result=None, tap_with_device=False, **kwargs)
//	id_print(arg, *, result=None, tap_with_device=False, output_stream=None, threshold=None, **kwargs)
//	call(callback_func, arg, *, result_shape=None, call_with_device=False, ordered=False, vmap_method=None, name=None)
//	                          host_callback's API (builtins.go)
//	pure_callback(callback, result_shape_dtypes, *args, vmap_method=None, **kwargs)
//	io_callback(callback, result_shape_dtypes, *args, ordered=False, **kwargs)
//	debug.callback(callback, *args, ordered=False, **kwargs)
//	                          JAX's current API on call's machinery (jax_callbacks.go)
//
// The root package predeclares Builtins next to the language's own names;
// debug.callback joins debug.print in package starlark's jax.debug
// (DebugModule). A staged callback is a starlark.HostCallback: package
// starlark delivers it to the thread that dispatched its program, and this
// package says what it does there (callback.go) and how an artifact stores
// it and binds it again by name (export.go: CallbackBindings, Functions,
// CheckCallbackNames, which lib/export uses).
package hostcallback
