package jaxsh

import (
	"context"
	"io"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// A Thread is one Starlark thread of an interpreter, for a Go goroutine
// that calls into jaxsh repeatedly and wants JAX's asynchronous model: its
// calls return as soon as their computations are dispatched, and its
// ordered effects (prints, ordered calls) come out in the order it made
// them, on its own token streams, whatever other goroutines do (SPEC §8).
// Barrier waits for everything it dispatched; Close ends it.
//
// A Thread is used by one goroutine at a time. Interpreter.Call, by
// contrast, runs each call on a fresh thread and waits for it to finish.
type Thread struct {
	session *jstarlark.Session
	thread  *starlark.Thread
}

// NewThread starts a thread of the interpreter. Its prints go to stdout, or
// to the interpreter's Options.Stdout when stdout is nil.
func (in *Interpreter) NewThread(name string, stdout io.Writer) (*Thread, error) {
	session, err := in.getSession(nil)
	if err != nil {
		return nil, err
	}
	var th *starlark.Thread
	if stdout != nil {
		th = session.NewThreadWriting(name, stdout)
	} else {
		th = session.NewThread(name)
	}
	return &Thread{session: session, thread: th}, nil
}

// Call calls fn with args on the thread. A jitted function's results are
// returned at once, still being computed; reading them (ToSlice) waits.
// Cancelling ctx stops Starlark code at its next step and the
// computations the call dispatched; results read later fail with the
// cancellation.
func (t *Thread) Call(ctx context.Context, fn starlark.Value, args ...starlark.Value) (starlark.Value, error) {
	if fn == nil {
		return nil, errNilFunction
	}
	if ctx == nil {
		return nil, errNilContext
	}
	restore := jstarlark.UseCallContext(t.thread, ctx)
	stopWatching := watch(ctx, t.thread)
	v, err := t.session.Call(t.thread, fn, starlark.Tuple(args), nil)
	stopWatching()
	restore()
	if ctx.Err() != nil {
		// The cancellation stopped this call's Starlark code; the Thread
		// itself goes on with the next call.
		t.thread.Uncancel()
	}
	return v, cancelledError(ctx, err)
}

// Barrier is effects_barrier for the thread: it returns once everything the
// thread dispatched has finished and every callback has run, with the first
// callback failure since the last barrier, if any.
func (t *Thread) Barrier() error { return t.session.Barrier(t.thread) }

// Close waits like Barrier and ends the thread; callbacks its computations
// would post later fail instead of waiting for it.
func (t *Thread) Close() error { return t.session.CloseThread(t.thread) }

// Func makes a Go function callable from Starlark, for example as the
// callback of id_tap or call (pass it in Options.Globals). As a callback it
// runs on the goroutine that runs the computation, not on the script's
// thread, so it may run concurrently with other Go code and must be safe for
// that; its arguments are the callback's (for id_tap: the tapped value, the
// transforms list, and the keyword arguments). ctx is cancelled when the
// computation calling it is (its run or call was cancelled, or Ctrl-C): a
// callback that blocks must select on it, so that nothing waits forever.
func Func(name string, fn func(ctx context.Context, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
	return jstarlark.NewGoFunction(name, fn)
}
