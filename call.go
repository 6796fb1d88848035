package jaxsh

import (
	"context"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Call calls fn — a function a script defined (found in the globals RunFile
// or RunString returned), a jitted function, a builtin — with args, on a
// new thread of the interpreter's session, and returns its result. Several
// goroutines may call at once, the same function included: each call has
// its own thread. Cancelling ctx stops the call at its next step with an
// error. Errors are those of a script run: FormatError renders the
// traceback.
func (in *Interpreter) Call(ctx context.Context, fn starlark.Value, args ...starlark.Value) (starlark.Value, error) {
	return in.CallKw(ctx, fn, args, nil)
}

// CallKw is Call with keyword arguments, each a (name, value) pair with a
// starlark.String name.
func (in *Interpreter) CallKw(ctx context.Context, fn starlark.Value, args []starlark.Value, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch {
	case ctx == nil:
		return nil, errNilContext
	case fn == nil:
		return nil, errNilFunction
	}
	session, err := in.getSession(nil)
	if err != nil {
		return nil, err
	}
	thread := session.NewThread("call")
	ctx, cancel := in.withTimeout(ctx)
	defer cancel()
	defer jstarlark.UseContext(thread, ctx)()
	defer watch(ctx, thread)()
	v, err := session.Call(thread, fn, starlark.Tuple(args), kwargs)
	// The call's thread ends here: wait for what it dispatched, so that its
	// output is complete and its results are ready when Call returns.
	if cerr := session.CloseThread(thread); err == nil {
		err = cerr
	}
	return v, cancelledError(ctx, err)
}
