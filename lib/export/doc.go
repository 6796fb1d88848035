// Package export is jax.export for scripts (SPEC §7), on package export's
// artifacts: export(jitted, platforms=None, disabled_checks=())(*args)
// traces a jitted function into an Exported; Exported.call runs it (as a
// nested jit inside a trace, as a dispatched program with runtime tokens
// outside one); serialize and deserialize(data, callbacks={}) move it
// between processes, host callbacks bound again by name.
//
//	export, deserialize                      stage and load artifacts
//	symbolic_shape                           shapes of dimension expressions (symbolic.go)
//	DisabledSafetyCheck, default_export_platform
//	                                         export's options
//
// The root package predeclares Builtins next to the language's own names;
// the host callbacks' side of an artifact (what each stores, how a loaded
// one is bound again) belongs to the callbacks, in lib/hostcallback.
package export
