package effects

import (
	"context"
	"errors"
)

// Cancellation (DESIGN decision 10). A thread's Context carries a
// context.Context, set with SetContext: every wait of the thread (Await,
// Barrier, WaitOrdered, the room a Dispatch waits for) selects on it, and
// each program keeps the one current when it was dispatched, which its
// work reads (Program.Done, Program.Err) to stop between kernels, blocks
// and loop iterations. Cancelling it — Ctrl-C, an embedder's deadline —
// therefore ends the thread's waits at once and stops the work it had
// dispatched within milliseconds, each with a *CancelledError.

// A CancelledError is the error of a wait or a program ended by its
// thread's cancellation. Cause is the context's cause (context.Canceled,
// context.DeadlineExceeded, or what the canceller passed to a
// context.CancelCauseFunc).
type CancelledError struct {
	Cause error
}

func (e *CancelledError) Error() string {
	return "cancelled: " + e.Cause.Error()
}

func (e *CancelledError) Unwrap() error { return e.Cause }

// IsCancelled reports whether err is (or wraps) a *CancelledError.
func IsCancelled(err error) bool {
	var ce *CancelledError
	return errors.As(err, &ce)
}

// cancelled returns the *CancelledError of a done ctx, or nil while ctx
// goes on.
func cancelled(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return &CancelledError{Cause: context.Cause(ctx)}
}

// SetContext makes ctx the thread's cancellation from now on: its waits
// select on it, and the programs it dispatches keep it. It returns the
// previous one, so a caller can restore it (the REPL makes a new one after
// each Ctrl-C; an embedder's Call uses its own for the call's duration). A
// nil ctx means context.Background(): never cancelled.
func (c *Context) SetContext(ctx context.Context) (previous context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	previous, c.cancel = c.cancel, ctx
	if previous == nil {
		previous = context.Background()
	}
	return previous
}

// Cancellation returns the thread's current context (see SetContext).
func (c *Context) Cancellation() context.Context {
	if c.cancel == nil {
		return context.Background()
	}
	return c.cancel
}

// Await blocks the thread until ev is done, running its callbacks
// meanwhile (Mailbox.Await), and returns ev's error; if the thread's
// context is cancelled first, it returns a *CancelledError instead (ev may
// still be pending). A nil ev is done.
func (c *Context) Await(ev *Event) error {
	if ev == nil {
		c.Mailbox.Drain()
		return nil
	}
	ctx := c.Cancellation()
	if !c.Mailbox.AwaitOr(ev, ctx.Done()) {
		return cancelled(ctx)
	}
	return ev.Err()
}

// MaxInFlight is how many programs a thread may have dispatched and not yet
// finished on one device (XLA's runtime allows 32 computations in flight
// per device). A Dispatch beyond it waits for the oldest, running the
// thread's callbacks meanwhile, so a loop that dispatches faster than the
// device computes holds a bounded number of programs (and taps come out
// while it runs) instead of growing memory without end.
const MaxInFlight = 32

// makeRoom blocks until the current frame has fewer than c.limit()
// unfinished programs on device, running callbacks while it waits. Only
// the frame's own programs count: inside a callback, those below it may be
// waiting for the callback itself.
func (c *Context) makeRoom(device string) error {
	limit := c.limit()
	for {
		set := c.Tokens.current().outputs[device]
		if set == nil || len(set.events) < limit {
			return nil
		}
		set.events = unfinished(set.events)
		if len(set.events) < limit {
			return nil
		}
		if err := c.Await(set.events[0]); IsCancelled(err) {
			return err
		}
	}
}

func (c *Context) limit() int {
	if c.MaxInFlight > 0 {
		return c.MaxInFlight
	}
	return MaxInFlight
}

// Unfinished counts the programs the thread dispatched that have not
// finished, on every device (a REPL that exits says how many it waits for).
func (c *Context) Unfinished() int {
	n := 0
	for _, set := range c.Tokens.frames[0].outputs {
		set.events = unfinished(set.events)
		n += len(set.events)
	}
	return n
}
