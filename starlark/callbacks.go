package starlark

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jaxsh/jaxsh/effects"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Host callbacks (SPEC §5): id_tap, id_print and call. Inside a trace they
// stage an id_tap or call equation whose callback param is a
// *hostCallback; when the compiled program runs, the backend hands the
// operands to the programHost of that dispatch, which runs the callback on
// the dispatching thread through its mailbox (Starlark functions, never
// concurrently with the script) or in place (Go functions). Outside any
// trace they run at once, on the calling thread.

// A hostCallback is the callback of one staged id_tap/id_print/call.
type hostCallback struct {
	fn   starlark.Callable
	name string
	kind string // "id_tap", "id_print", "call", "pure_callback", "io_callback" or "debug.callback"
	// argTree rebuilds the tapped or passed value from the operands; the
	// first nArgs operands are its leaves (an id_tap's result= leaves
	// follow them, passing through).
	argTree *TreeDef
	nArgs   int
	kwargs  []starlark.Tuple // id_tap's extra keyword arguments
	print   *printOptions    // id_print's options
	// call's declared results: their structure and types.
	resultTree  *TreeDef
	resultAvals []trace.AVal
	withDevice  bool
	// storedName is the name an artifact bound this callback under, when
	// it was loaded from one (export_callbacks.go).
	storedName string
	// spread: the callback takes the staged (args, kwargs) as *args and
	// **kwargs (pure_callback, io_callback, debug.callback).
	spread bool
}

var _ trace.Callback = (*hostCallback)(nil)

func (c *hostCallback) CallbackName() string { return c.name }

// shapeArg names the argument that declared the callback's results.
func (c *hostCallback) shapeArg() string {
	if c.kind == "call" {
		return "result_shape"
	}
	return "result_shape_dtypes"
}

// printOptions are id_print's own keyword arguments.
type printOptions struct {
	stream    starlark.Callable // output_stream, or nil for the thread's stdout
	threshold int               // 0: the default
}

// A GoFunction is a Go function usable wherever Starlark expects a callable,
// in particular as an id_tap or call callback (SPEC §8). As a callback it
// runs in place, on the goroutine running the program, without waiting for
// the script: it must be safe for concurrent use.
type GoFunction struct {
	name string
	fn   func(ctx context.Context, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)
}

var _ starlark.Callable = (*GoFunction)(nil)

// NewGoFunction wraps fn as a Starlark callable named name. fn's context
// is cancelled when the thread that calls it is (or, as a host callback,
// when the computation that calls it is): a function that blocks selects
// on it.
func NewGoFunction(name string, fn func(ctx context.Context, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) *GoFunction {
	return &GoFunction{name: name, fn: fn}
}

func (g *GoFunction) Name() string          { return g.name }
func (g *GoFunction) String() string        { return "<go function " + g.name + ">" }
func (g *GoFunction) Type() string          { return "go_function" }
func (g *GoFunction) Freeze()               {}
func (g *GoFunction) Truth() starlark.Bool  { return starlark.True }
func (g *GoFunction) Hash() (uint32, error) { return starlark.String(g.name).Hash() }
func (g *GoFunction) CallInternal(th *starlark.Thread, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return g.fn(threadContext(th), args, kwargs)
}

// threadContext is th's current cancellation; call it on th's goroutine.
func threadContext(th *starlark.Thread) context.Context {
	return stateOf(th).ctx.Cancellation()
}

// programHost is the jit.Host of one dispatched program: its host ops run
// for the thread that dispatched it. Everything it needs from the thread is
// captured at dispatch, on the thread's goroutine.
type programHost struct {
	thread *starlark.Thread
	st     *threadState
	prog   *effects.Program
	dev    jit.Device
	stdout io.Writer
}

var (
	_ jit.Host        = (*programHost)(nil)
	_ jit.Cancellable = (*programHost)(nil)
	_ jit.Budgeted    = (*programHost)(nil)
)

// Done, Err: the program's cancellation (see effects.Program).
func (h *programHost) Done() <-chan struct{} { return h.prog.Done() }
func (h *programHost) Err() error            { return h.prog.Err() }

// Budget is the thread's memory budget.
func (h *programHost) Budget() *jit.Budget { return h.st.budget }

// Print writes a staged print. Ordered prints are already in order: the
// program started after the thread's earlier ordered prints (runtime
// token) and runs its own in token order.
func (h *programHost) Print(e *trace.Eqn, args []jit.HostArg) error {
	text, err := formatDebugPrint(e.Params.Str("fmt"), args)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(h.stdout, text); err != nil {
		return fmt.Errorf("print: %v", err)
	}
	return nil
}

// Tap copies the operands (the program reuses its memory) and sends them to
// the callback, which the program does not wait for.
func (h *programHost) Tap(e *trace.Eqn, args []jit.HostArg) error {
	cb, ok := e.Params["callback"].(*hostCallback)
	if !ok {
		return fmt.Errorf("id_tap: callback of type %T", e.Params["callback"])
	}
	leaves, err := copyHostArgs(args[:cb.nArgs], h.dev)
	if err != nil {
		return err
	}
	transforms, _ := trace.ParamAs[trace.Transforms](e.Params, "transforms")
	job := func() error { return cb.runTap(h.prog.Cancellation(), h.thread, h.dev, leaves, transforms) }
	if _, inPlace := cb.fn.(*GoFunction); inPlace {
		h.st.ctx.Failures.Add(runGuarded(cb.name, job))
		return nil
	}
	h.prog.Tap(func() error { return onThread(h.thread, job) })
	return nil
}

// Call runs the callback, waiting for it, and returns its results checked
// against the declared result shapes.
func (h *programHost) Call(e *trace.Eqn, args []jit.HostArg) ([][]byte, error) {
	cb, ok := e.Params["callback"].(*hostCallback)
	if !ok {
		return nil, fmt.Errorf("call: callback of type %T", e.Params["callback"])
	}
	leaves, err := copyHostArgs(args, h.dev)
	if err != nil {
		return nil, err
	}
	// Under vmap the equation's results carry the batch (expand_dims,
	// broadcast_all): they, not the declared result_shape, are the contract.
	resultAvals, _ := trace.ParamAs[[]trace.AVal](e.Params, "result_avals")
	var out [][]byte
	job := func() error {
		var err error
		out, err = cb.runCall(h.prog.Cancellation(), h.thread, h.dev, leaves, resultAvals)
		return err
	}
	if _, inPlace := cb.fn.(*GoFunction); inPlace {
		err = runGuarded(cb.name, job)
	} else {
		err = h.prog.Call(func() error { return onThread(h.thread, job) })
	}
	if err != nil {
		return nil, cb.failure(err)
	}
	return out, nil
}

// failure is the error of a call whose callback failed: the callback's
// message with its Starlark traceback, so the host-side cause is not lost
// when the error surfaces where the computation's result is read.
func (c *hostCallback) failure(err error) error {
	if ee, ok := err.(*starlark.EvalError); ok {
		return fmt.Errorf("%s(%s) failed: %s", c.kind, c.name, ee.Backtrace())
	}
	return err
}

// onThread runs a callback job on its thread's goroutine (the mailbox
// guarantees that, and the thread is registered there: it is waiting
// inside one of its builtins) with no trace current: the callback's array
// operations run eagerly even when the thread is waiting inside a trace.
func onThread(th *starlark.Thread, job func() error) error {
	var err error
	depth := th.CallStackDepth()
	suspendTrace(th, func() { err = threadError(th, job()) })
	return callbackError(err, depth)
}

// callbackError keeps, of a Starlark callback's traceback, the frames of the
// callback itself: the callback ran nested in whatever builtin its thread
// was waiting in, whose frames say nothing about the failure.
func callbackError(err error, depth int) error {
	ee, ok := err.(*starlark.EvalError)
	if !ok || depth <= 0 || len(ee.CallStack) <= depth {
		return err
	}
	c := *ee
	c.CallStack = append(starlark.CallStack(nil), ee.CallStack[depth:]...)
	return &c
}

// runGuarded runs a Go callback, turning a panic into its error.
func runGuarded(name string, job func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("callback %s panicked: %v", name, r)
		}
	}()
	return job()
}

// copyHostArgs makes arrays on dev holding copies of host operands.
func copyHostArgs(args []jit.HostArg, dev jit.Device) ([]starlark.Value, error) {
	out := make([]starlark.Value, len(args))
	for i, a := range args {
		buf, err := jit.FromHost(dev, a.AVal, append([]byte(nil), a.Data...))
		if err != nil {
			return nil, err
		}
		out[i] = NewArray(buf)
	}
	return out, nil
}

// runTap calls the tap function (or prints, for id_print) with the tapped
// value rebuilt from its leaves and the transformations it went through.
func (c *hostCallback) runTap(ctx context.Context, th *starlark.Thread, dev jit.Device, leaves []starlark.Value, ts trace.Transforms) error {
	arg, err := c.argTree.Unflatten(leaves)
	if err != nil {
		return err
	}
	transforms := c.transformsValue(ts)
	if c.kind == "id_print" {
		return c.printValue(ctx, th, dev, arg, transforms)
	}
	kwargs := c.kwargs
	if c.withDevice {
		kwargs = append(append([]starlark.Tuple(nil), kwargs...), starlark.Tuple{starlark.String("device"), Device{dev}})
	}
	_, err = callOn(ctx, th, c.fn, starlark.Tuple{arg, transforms}, kwargs)
	return err
}

// transformsValue is the transforms list a tap function receives:
// [("batch", {"batch_dims": (0, None)}), ...], one entry per vmap level,
// innermost first, with a batch axis (or None) per tapped leaf.
func (c *hostCallback) transformsValue(ts trace.Transforms) *starlark.List {
	items := make([]starlark.Value, len(ts))
	for i, t := range ts {
		dims := make(starlark.Tuple, min(c.nArgs, len(t.BatchDims)))
		for k := range dims {
			dims[k] = starlark.None
			if d := t.BatchDims[k]; d != trace.NotBatched {
				dims[k] = starlark.MakeInt(d)
			}
		}
		params := starlark.NewDict(1)
		_ = params.SetKey(starlark.String("batch_dims"), dims)
		items[i] = starlark.Tuple{starlark.String(t.Name), params}
	}
	return starlark.NewList(items)
}

// callOn calls fn: Starlark functions on th, Go functions directly with
// ctx, the cancellation of the computation calling them.
func callOn(ctx context.Context, th *starlark.Thread, fn starlark.Callable, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if g, ok := fn.(*GoFunction); ok {
		return g.fn(ctx, args, kwargs)
	}
	return starlark.Call(th, fn, args, kwargs)
}

// runCall calls the function with the argument rebuilt from its leaves and
// converts its result to the declared result types, one byte slice per
// result leaf.
func (c *hostCallback) runCall(ctx context.Context, th *starlark.Thread, dev jit.Device, leaves []starlark.Value, resultAvals []trace.AVal) ([][]byte, error) {
	var arg starlark.Value = starlark.None
	if c.argTree != nil {
		var err error
		if arg, err = c.argTree.Unflatten(leaves); err != nil {
			return nil, err
		}
	}
	var kwargs []starlark.Tuple
	if c.withDevice {
		kwargs = []starlark.Tuple{{starlark.String("device"), Device{dev}}}
	}
	args := starlark.Tuple{arg}
	if c.spread {
		// pure_callback and its kin: arg is (args, kwargs), spread.
		pair := arg.(starlark.Tuple)
		args = pair[0].(starlark.Tuple)
		for _, kv := range pair[1].(*starlark.Dict).Items() {
			kwargs = append(kwargs, kv)
		}
	}
	res, err := callOn(ctx, th, c.fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	return c.checkResult(res, resultAvals)
}

// checkResult converts a call's result to the declared structure and to
// the types of resultAvals.
func (c *hostCallback) checkResult(res starlark.Value, resultAvals []trace.AVal) ([][]byte, error) {
	if c.resultTree == nil {
		if res != starlark.None {
			return nil, fmt.Errorf("%s(%s): %s=None declares no result, but the callback returned %s", c.kind, c.name, c.shapeArg(), res.Type())
		}
		return nil, nil
	}
	leaves, err := c.resultTree.flattenUpTo(res)
	if err != nil {
		return nil, fmt.Errorf("%s(%s): the callback's result does not match %s: %v", c.kind, c.name, c.shapeArg(), err)
	}
	out := make([][]byte, len(leaves))
	for i, v := range leaves {
		want := resultAvals[i]
		raw, got, err := hostValueAs(v, want)
		if err != nil {
			return nil, fmt.Errorf("%s(%s): result leaf %d: %v", c.kind, c.name, i, err)
		}
		if !got.Shape.Equal(want.Shape) {
			return nil, fmt.Errorf("%s(%s): result leaf %d has shape %s, but %s declares %s (expected %s, got %s)",
				c.kind, c.name, i, shapeText(got.Shape), c.shapeArg(), shapeText(want.Shape), want, got)
		}
		out[i] = raw
	}
	return out, nil
}

// hostValueAs converts a callback's result leaf (an array, a number or a
// nested list) to want's dtype, returning its bytes and its own type.
func hostValueAs(v starlark.Value, want trace.AVal) ([]byte, trace.AVal, error) {
	dev, err := jit.LookupDevice("cpu:0")
	if err != nil {
		return nil, trace.AVal{}, err
	}
	a, ok := v.(*Array)
	if !ok {
		if a, err = AsArray("call", v, dev); err != nil {
			return nil, trace.AVal{}, err
		}
	}
	if a.Traced() {
		return nil, trace.AVal{}, fmt.Errorf("the callback returned a traced value")
	}
	got := a.aval
	if got.DType != want.DType {
		if !convertible(got, want.DType) {
			return nil, got, fmt.Errorf("dtype %s does not convert to the declared %s", got.DType.Name(), want.DType.Name())
		}
		if !got.Shape.Equal(want.Shape) {
			return nil, got, nil // the shape error says more
		}
		if a, err = Astype(a, want.DType); err != nil {
			return nil, got, err
		}
	}
	raw, err := a.hostBytes("a call result")
	return raw, got, err
}

// convertible reports whether a callback result of type got may become
// dtype want: weakly typed Python numbers convert to anything of their kind
// or wider, arrays only within their kind's promotion (no float to int).
func convertible(got trace.AVal, want trace.DType) bool {
	if got.DType == want {
		return true
	}
	if got.Weak {
		return !(got.DType.IsFloat() && !want.IsFloat() && !want.IsComplex()) &&
			!(got.DType.IsComplex() && !want.IsComplex())
	}
	t, err := trace.PromoteTypes(trace.Type{DType: got.DType}, trace.Type{DType: want})
	return err == nil && t.DType == want
}

func shapeText(s trace.Shape) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	if len(s) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
