// Package effects is the runtime side of jaxsh's ordered effects: events
// that order asynchronous work, per-thread runtime and output tokens,
// mailboxes that run callbacks on their owner thread, and the collection of
// callback failures that effects_barrier reports. It follows JAX's design
// note (../shared/seeds/sequencing-effects.txt) and host_callback
// (../shared/seeds/host-callback.txt), and knows nothing of Starlark, jaxprs
// or backends: effect kinds are strings ("print", "call"), devices are their
// names ("cpu:0").
//
// # Model
//
// A user thread owns a Context: its Tokens, its Mailbox and its Failures.
// The thread dispatches programs with Context.Dispatch, which returns an
// *Event at once; the program runs on its own goroutine (Go) as soon as its
// inputs and the runtime tokens of its ordered effect kinds are done. There
// is no per-device queue: ordering comes only from tokens and data, so a
// callback that dispatches a computation is never stuck behind the program
// waiting for it.
//
// A program's host operations reach the thread through the *Program handed
// to its work. Program.Call (a host `call`) posts the callback to the
// thread's Mailbox and waits for it; Program.Tap (id_tap, id_print) posts it
// and goes on. The thread runs posted callbacks only on its own goroutine:
// when it blocks (Mailbox.Await, Context.Barrier, Context.WaitOrdered,
// Context.Close) and when it polls at a builtin call (Mailbox.Pending, then
// Mailbox.Drain). So Starlark callbacks never run concurrently with their
// script or with each other (DESIGN decision 4). Go callbacks may instead
// run directly on the program's goroutine; that is the embedder's choice.
//
// # Guarantees
//
//   - Ordered effects of one kind happen in the order the thread dispatched
//     their programs, across devices; kinds are independent of each other,
//     and programs without ordered effects are not serialized at all.
//   - Work a callback dispatches is ordered as if it happened inside the
//     callback's program at the call: after the effects that precede the
//     program, before the program's later effects (for a Call) and before
//     what the thread dispatches after the callback returns.
//   - Nothing here deadlocks by itself: a program waiting on a callback
//     gets it run whenever its thread waits; a callback may dispatch and
//     wait for more work, even work with callbacks of its own; work
//     dispatched by a callback never waits for a program that (directly or
//     through tokens) waits for a suspended callback (see Program). Waits
//     through data are the caller's own: a callback that waits for an array
//     computed from the result of a program blocked on a callback (its own
//     program, or one whose suspended callback it runs above) hangs; JAX
//     hangs in the first case too.
//   - Barrier returns only when every program the thread dispatched is done
//     and every callback they posted has run, including work those
//     callbacks dispatched. Close does the same and then refuses further
//     callbacks with ErrClosed, so a program never waits for a thread that
//     has ended.
//   - Jobs run in post order (globally, hence per poster); a job that
//     blocks runs later ones nested inside its wait.
//
// # Cancellation and back-pressure
//
// A Context carries the thread's cancellation (SetContext, a
// context.Context). Every wait of the thread selects on it and returns a
// *CancelledError once it is cancelled; each program keeps the one current
// at its dispatch and stops when it is cancelled (Program.Done, Err): before
// it starts, in a Call, and wherever its work checks (the backends do so
// between kernels, blocks and loop iterations). A thread has at most
// MaxInFlight unfinished programs per device: a Dispatch beyond that waits
// for the oldest, running callbacks, so a fast loop holds bounded memory and
// its taps run while it goes on.
//
// # Failures
//
// A failed or panicking Call is the program's error (a *PanicError for a
// panic); the program fails and the error surfaces where its results are
// read. A failed Tap has nobody waiting, so it is added to the thread's
// Failures, and the next Barrier returns a *CallbackError holding the first
// failure whole (message and traceback, taken from a Backtrace method such
// as go.starlark.net's *EvalError has) and the count of the others.
//
// # Integration
//
//   - jit dispatch: ctx.Dispatch(dev.String(), orderedKinds, inputEvents,
//     func(p *effects.Program) error { return exe.Execute(args, p) }), where
//     the backend keeps p for its host operations and its cancellation;
//     reading a result is ctx.Await(ev).
//   - Backend host ops: a Starlark callback goes through p.Call or p.Tap; a
//     Go callback runs in place, its tap failures added with
//     p.Context().Failures.Add. A device print needs no callback: the
//     program writes it itself, ordered by its token.
//   - Starlark builtins: at each builtin call, if ctx.Mailbox.Pending()
//     then ctx.Mailbox.Drain(); a print outside a trace calls
//     ctx.WaitOrdered("print") first; effects_barrier is ctx.Barrier(); the
//     end of a script is ctx.Close().
package effects
