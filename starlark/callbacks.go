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

// Host callbacks (SPEC §5). Inside a trace, id_tap, id_print, call and
// their kin (lib/hostcallback) stage an id_tap or call equation whose
// callback param is a HostCallback; when the compiled program runs, the
// backend hands the operands to the programHost of that dispatch, which
// runs the callback on the dispatching thread through its mailbox
// (Starlark functions, never concurrently with the script) or in place (Go
// functions). This file is that delivery; what a callback does with its
// operands, and how it is staged, stored and bound again, is the
// callback's own.

// A HostCallback is the callback param of a staged id_tap or call
// equation, as the program's host runs it. It does not change once staged:
// the program may run many times, on several goroutines at once.
type HostCallback interface {
	trace.Callback
	// CallbackKind is the builtin that staged it ("id_tap", "call",
	// "pure_callback", ...), for error messages.
	CallbackKind() string
	// InPlace reports that the callback is a Go function (GoFunction):
	// it runs on the goroutine running the program, not on the script's
	// thread, and the program does not wait for the script.
	InPlace() bool
	// NumTapped is how many of an id_tap's operands the tap receives (the
	// rest are its result= leaves, passing through).
	NumTapped() int
	// RunTap runs an id_tap's tap with its operands (arrays on dev, copies
	// the callback may keep) and the transformations the equation went
	// through. ctx is the computation's cancellation.
	RunTap(ctx context.Context, th *starlark.Thread, dev jit.Device, leaves []starlark.Value, ts trace.Transforms) error
	// RunCall runs a call's function with its operands and returns its
	// results, one byte slice per leaf of resultAvals (jit.FromHost's
	// layout).
	RunCall(ctx context.Context, th *starlark.Thread, dev jit.Device, leaves []starlark.Value, resultAvals []trace.AVal) ([][]byte, error)
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

// CallContext calls the function with ctx as its cancellation: a host
// callback's is the computation's, not a thread's.
func (g *GoFunction) CallContext(ctx context.Context, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return g.fn(ctx, args, kwargs)
}

// threadContext is th's current cancellation; call it on th's goroutine.
func threadContext(th *starlark.Thread) context.Context {
	return stateOf(th).ctx.Cancellation()
}

// ThreadContext is th's current cancellation, for a callback run at once
// on th (outside any trace); call it on th's goroutine.
func ThreadContext(th *starlark.Thread) context.Context { return threadContext(th) }

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
	cb, ok := e.Params["callback"].(HostCallback)
	if !ok {
		return fmt.Errorf("id_tap: callback of type %T", e.Params["callback"])
	}
	leaves, err := copyHostArgs(args[:cb.NumTapped()], h.dev)
	if err != nil {
		return err
	}
	transforms, _ := trace.ParamAs[trace.Transforms](e.Params, "transforms")
	job := func() error { return cb.RunTap(h.prog.Cancellation(), h.thread, h.dev, leaves, transforms) }
	if cb.InPlace() {
		h.st.ctx.Failures.Add(runGuarded(cb.CallbackName(), job))
		return nil
	}
	h.prog.Tap(func() error { return onThread(h.thread, job) })
	return nil
}

// Call runs the callback, waiting for it, and returns its results checked
// against the declared result shapes.
func (h *programHost) Call(e *trace.Eqn, args []jit.HostArg) ([][]byte, error) {
	cb, ok := e.Params["callback"].(HostCallback)
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
		out, err = cb.RunCall(h.prog.Cancellation(), h.thread, h.dev, leaves, resultAvals)
		return err
	}
	if cb.InPlace() {
		err = runGuarded(cb.CallbackName(), job)
	} else {
		err = h.prog.Call(func() error { return onThread(h.thread, job) })
	}
	if err != nil {
		return nil, callFailure(cb, err)
	}
	return out, nil
}

// callFailure is the error of a call whose callback failed: the callback's
// message with its Starlark traceback, so the host-side cause is not lost
// when the error surfaces where the computation's result is read.
func callFailure(c HostCallback, err error) error {
	if ee, ok := err.(*starlark.EvalError); ok {
		return fmt.Errorf("%s(%s) failed: %s", c.CallbackKind(), c.CallbackName(), ee.Backtrace())
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
