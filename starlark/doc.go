// Package starlark is the jaxsh language: the dialect (package dialect
// parses it), Array and its operators, tracers and their truth, pytrees,
// conversions from Starlark values, the staging builtins (jit, make_jaxpr),
// print and debug.print, asynchronous reads and their effects builtins
// (effects_barrier, block_until_ready), the delivery of host callbacks to
// the thread that dispatched them, devices, and running scripts and REPL
// chunks (Session, REPL).
//
// The namespaces scripts use (jnp, lax, nn, random, ...) are not here: each
// is a package under lib/ that builds its module on the API below, and the
// root package jaxsh assembles them into the predeclared names. So are the
// function transformations (lib/transform: grad, vmap, jacfwd, ...),
// export (lib/export) and the host callbacks (lib/hostcallback: id_tap,
// id_print, call, pure_callback, io_callback, debug.callback), top-level
// builtins built on the same API, and NumPy indexing, which lib/numpy
// installs as x[key] and x.at[key] (SetIndexing). This package never
// imports a library.
//
// # The API for library code
//
// Registering members (module.go, ops.go, attrs.go):
//
//	Register, RegisterValue        add a builtin or a value to a library module
//	NewBuiltin                     a top-level builtin (grad, vmap), guarded as Register's
//	Guard                          that guard, for builtins a library's values return (methods)
//	BuiltinFunc                    a builtin's Go function
//	RegisterUnaryUfunc, RegisterBinaryUfunc, UnaryUfunc, BinaryUfunc, UnaryFunc, BinaryFunc
//	                               the ufuncs the array operators call
//	SetArrayMethods                where x.sum(...) and the other jnp-mirroring methods look
//	SetIndexing                    what x[key] and x.at[key] run (lib/numpy's indexing)
//	Slice, SliceKey, EllipsisType  the parts of a subscript as the dialect passes them;
//	                               Starlark's own x[a:b:c] as a Slice
//	RegisterStarlark               add the functions of library source written in the dialect
//	                               (prelude.go): compositions of other members, as JAX writes
//	                               jax.numpy in Python
//
// Binding primitives (bind.go, composer.go, structural.go): one code path
// for eager execution and tracing (DESIGN decision 3).
//
//	Bind, Bind1, BindOn            apply a primitive to arrays
//	Composer                       a composition whose first failure sticks (Prim, Unary,
//	                               Binary, Convert, Select, Where, Iota, Reshape, Ufunc1, Ufunc2, ...)
//	ReshapeTo, ExpandDims, Squeeze, BroadcastInDim, BroadcastTo, BroadcastToRank,
//	BroadcastArrays, Rev, StaticSlice, SliceInDim, JoinAlong, InsertUnitAxes, Select,
//	Const, IotaOf, WrapNegative, Astype, ConvertType, EmptyArray, IndexDType
//	                               the structural and conversion primitives, applied;
//	                               an array with no elements; JAX's index dtype for a shape
//
// Reading arguments with JAX's conversion rules (args.go, convert.go,
// promote.go, dtype.go):
//
//	Array, NewArray, DType         the values
//	EnsureArray, ArraylikeArg, CheckArraylike, AsArray, AsarrayValue, ArrayFromValue,
//	ScalarArray, NestedShape       operands as arrays (ensure_arraylike, asarray)
//	IntArg, ShapeArg, NormalizeAxisOf, DTypeArg, DTypeOf, DTypeOrDefault, UserDType,
//	IntsArg, StringsArg            static arguments (argnums, argnames and the like)
//	SplitKwargs                    the keyword arguments a builtin reads, and the rest it
//	                               passes on (id_tap's to the tap, debug.print's to fmt)
//	TypeOf, ScalarType, ResultType, Promotion (PromoteCommon, PromoteNumeric,
//	PromoteInexact), PromoteArgs, PromoteArg, PromoteArgs2, PromoteDTypes,
//	PromoteShapes, Promote, Elementwise, ApplyUnary, ApplyBinary
//	                               JAX's type promotion
//	OperandDevice, DefaultDevice, DefaultDeviceOf
//	                               where a result is placed
//	FitsInt, EncodeInt, BoolByte, IntsOrEmpty
//	                               element encodings and parameter shapes
//
// Printing (printoptions.go):
//
//	PrintOptions, SetPrintOptions  the process's array print options (jnp.set_printoptions)
//	Array.Text                     an array's str or repr under given options (jnp.array_str)
//	FailThread                     fail the running script from an interface method that
//	                               cannot return an error (Index, Slice, Truth)
//
// Tracing a Starlark function into a closed jaxpr (subtrace.go, tracer.go,
// pytree.go), what lax's control flow is built on:
//
//	ControlFlow                    record a construct in the current trace, or trace,
//	                               compile and run it when there is none
//	Trace, TraceBody, BodyTrace    trace a body in a sub-trace: its jaxpr, constants
//	                               and output structure
//	BindTraced, LeafArray          record an equation; a body's result leaf as an array
//	LeafArrays, AValsOf, ValuesOf  the same for all leaves; their avals; arrays as values
//	FlattenTree, TreeDef, TreeKind pytrees (TreeLeaf, TreeNone, TreeTuple, TreeList, TreeDict)
//
// What the transformations (lib/transform) add to it: they apply a
// transformed jaxpr in the trace they were called in.
//
//	CurrentTraceOf                 the trace active on a thread, or nil
//	Array.Trace, Array.AVal        the trace a traced array belongs to; its abstract value
//	Trace.AtomOf, Trace.Builder, Trace.Position
//	                               an operand as an atom of the trace; the builder
//	                               trace/ad's Emitter and InlineJaxpr write into; the
//	                               user's source position for new equations
//	NewTracedArray                 the array standing for an atom of the trace
//
// What export (lib/export) adds: it stages a jitted function as jit would
// compile it.
//
//	Jitted, Jitted.Fun, Jitted.TraceCall, TracedCall
//	                               a jitted function traced for one call's arguments
//	ShapeDtypeStruct, SymbolicShape
//	                               argument types without values; a shape of dimension
//	                               expressions (the value of lib/export's symbolic_shape)
//	ExportTree, TreeFromExport     pytree structures to and from an artifact's
//
// What the host callbacks (lib/hostcallback) add (callbacks.go): a staged
// id_tap or call equation's callback param is a HostCallback, which the
// program's host runs on the dispatching thread (or in place, for a Go
// function) when the program reaches it; the callback builds the value,
// calls the function and checks the result itself, and describes itself
// to an artifact.
//
//	HostCallback                   what the host runs: RunTap, RunCall, InPlace, NumTapped
//	GoFunction, GoFunction.CallContext
//	                               a Go function as a callback, called with the
//	                               computation's cancellation
//	TraceOf, ThreadContext         the trace an operation on some arrays records into
//	                               (nil: run now); the running thread's cancellation
//	StdoutOf, Device, DebugModule  where id_print writes; a device as a value
//	                               (tap_with_device); jax.debug, where debug.callback goes
//	TreeDef.FlattenUpTo            a call's result split at its declared leaves
//
// Files and host values (files.go, embed.go): what library code that
// reads or writes files, or needs elements on the host, goes through.
//
//	ReadFile, WriteFile            a file through the thread's file policy (FilesOf)
//	NewArrayFromHost               an array from host bytes in jit's layout
//	Float0Array                    the float0 array of a shape (integers' tangents)
//	Array.Float64s, Array.HostBytes, Array.HostBytesFor
//	                               a concrete array's elements on the host
//
// Positioned errors: a builtin returns an ordinary Go error and the
// interpreter puts the script position on it; Describe, DescribeAll,
// DescribeArrays and ShortRepr are how messages show operands, and
// FormatError renders an error with its traceback.
package starlark
