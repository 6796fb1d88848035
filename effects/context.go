package effects

import (
	"context"
	"fmt"
)

// A Context is the effect state of one user thread: its Tokens, the Mailbox
// its callbacks run from, and the Failures of its taps. The thread that owns
// it dispatches programs with Dispatch and blocks only through its Mailbox
// (Await, Barrier, WaitOrdered), so callbacks keep running while it waits.
//
// Like Tokens, a Context is used on its thread's goroutine only, except for
// the Mailbox's Post and Call and the Failures, which any goroutine may use.
// Embedders that call jitted functions from several goroutines give each
// goroutine its own Context (SPEC §8: "each with its own token streams").
type Context struct {
	Tokens   *Tokens
	Mailbox  *Mailbox
	Failures *Failures
	// MaxInFlight, when positive, replaces the package's MaxInFlight as
	// this thread's bound on unfinished programs per device.
	MaxInFlight int
	// MaxCallbackDepth, when positive, replaces DefaultMaxCallbackDepth as
	// how deeply this thread's callbacks may nest.
	MaxCallbackDepth int

	cancel context.Context // see SetContext; nil: never cancelled
}

// NewContext returns the context of a thread that has dispatched nothing.
func NewContext() *Context {
	return &Context{Tokens: NewTokens(), Mailbox: NewMailbox(), Failures: &Failures{}}
}

// Dispatch starts a program on device, asynchronously, and returns the event
// of its completion. The program's work runs on its own goroutine once every
// event in inputs (its operands' readiness) and the thread's runtime token of
// each ordered effect kind in kinds are done; its completion then becomes
// those kinds' runtime token and joins device's output token (DESIGN
// decision 5). A failed input does not stop the work: work decides (usually
// by failing with the input's error).
//
// work receives the Program, through which its host operations run Starlark
// callbacks (Call, Tap) and learn of its cancellation. Dispatch may be
// called from inside a callback: the new program is then ordered within the
// callback (see Program).
//
// When the thread already has MaxInFlight unfinished programs on device,
// Dispatch first waits for the oldest, running callbacks meanwhile. If the
// thread is cancelled then, or before the program starts, the program does
// not run and its event fails with a *CancelledError.
func (c *Context) Dispatch(device string, kinds []string, inputs []*Event, work func(*Program) error) *Event {
	if err := c.makeRoom(device); err != nil {
		return Completed(err)
	}
	t := c.Tokens
	deps := append(append([]*Event(nil), inputs...), t.Deps(kinds)...)
	ctx := c.Cancellation()
	p := &Program{ctx: c, cancel: ctx, device: device, scope: t.scope(), seq: t.next()}
	done := goUnless(ctx, deps, func() error { return work(p) })
	t.record(p.seq, device, kinds, done)
	return done
}

// WaitOrdered blocks the thread, running callbacks, until every ordered
// effect of the kinds dispatched so far has happened. A print outside any
// trace calls WaitOrdered("print") before writing, so that it appears after
// the prints of programs dispatched before it (SPEC §5). It returns a
// *CancelledError if the thread is cancelled first, and nil otherwise.
func (c *Context) WaitOrdered(kinds ...string) error {
	for {
		deps := c.Tokens.Deps(kinds)
		if len(deps) == 0 {
			return nil
		}
		for _, ev := range deps {
			if err := c.Await(ev); IsCancelled(err) {
				return err
			}
		}
		// Callbacks that ran meanwhile may have added ordered work of these
		// kinds; look again.
	}
}

// Barrier is effects_barrier: it blocks the thread until every program it
// dispatched has finished and every callback they posted has run (running
// them meanwhile), then returns the tap failures collected since the last
// Barrier as a *CallbackError, or nil. If the thread is cancelled first it
// returns a *CancelledError and leaves the failures for the next Barrier.
func (c *Context) Barrier() error {
	ctx := c.Cancellation()
	if !c.Tokens.BarrierOr(c.Mailbox, ctx.Done()) {
		return cancelled(ctx)
	}
	return c.Failures.Take()
}

// Close ends the thread: it waits like Barrier, so that no output and no
// callback is lost at the end of a script (SPEC §1), then closes the
// Mailbox, so anything posted later fails with ErrClosed instead of waiting
// for a thread that is gone. It returns Barrier's error.
func (c *Context) Close() error {
	err := c.Barrier()
	c.Mailbox.Close()
	return err
}

// A Program is one dispatched program as its host operations see it. Its
// methods run callbacks on the owning thread, from the program's goroutine.
//
// Work that a callback dispatches is ordered as if it happened inside the
// program, at the callback: it follows the ordered effects that preceded
// the program, and what the thread dispatches after the callback ends
// follows it. It never waits for the program itself (which, in a Call,
// waits for the callback). Callbacks run nested on the thread's goroutine
// (one that blocks runs the next inside its wait), so a program blocked on
// a suspended callback cannot finish until every callback above it
// returns; work dispatched above it therefore does not wait for programs
// that may depend on the blocked one, even if that lets it overtake their
// effects. JAX, whose callbacks run on threads of their own, has no such
// cycle to break.
type Program struct {
	ctx    *Context
	cancel context.Context // the thread's cancellation when it was dispatched
	device string
	seq    uint64
	// scope is what the program's callbacks dispatch under. It is read and
	// grown only by those callbacks, on the thread's goroutine.
	scope scope
}

// Device returns the device the program was dispatched on.
func (p *Program) Device() string { return p.device }

// Context returns the thread the program belongs to, for instance to record
// the failure of a Go tap callback run directly (p.Context().Failures.Add).
func (p *Program) Context() *Context { return p.ctx }

// Done is closed once the program is cancelled: its work checks it
// between kernels, blocks and loop iterations and then fails with Err.
func (p *Program) Done() <-chan struct{} { return p.cancel.Done() }

// Err is nil while the program may go on, and its *CancelledError once
// it is cancelled.
func (p *Program) Err() error { return cancelled(p.cancel) }

// Cancellation is the context the program was dispatched under, for Go
// callbacks that take one.
func (p *Program) Cancellation() context.Context { return p.cancel }

// Call runs job on the owning thread and waits for it: a host `call`. It
// returns job's error, a *PanicError if it panicked, or ErrClosed if the
// thread has ended. Before returning it also waits for the ordered work the
// callback dispatched, so the program's later effects follow that work.
// Call blocks its goroutine: call it from the program's work, never from
// the owning thread. If the program is cancelled first, Call returns its
// *CancelledError at once, and the job, if it has not started, never runs.
func (p *Program) Call(job func() error) error {
	var added scope
	posted := p.ctx.Mailbox.Post(func() error {
		if err := p.Err(); err != nil {
			return err
		}
		if err := p.ctx.checkDepth(); err != nil {
			return err
		}
		p.enter(p.seq)
		defer func() { added = p.exit() }()
		return job()
	})
	select {
	case <-posted.Done():
	case <-p.Done():
		return p.Err()
	}
	// added is written by the job before posted is set.
	for _, ev := range added.events() {
		select {
		case <-ev.Done():
		case <-p.Done():
			return p.Err()
		}
	}
	return posted.Err()
}

// Tap posts job to run on the owning thread and returns at once: a host
// id_tap or id_print, which the program does not wait for. A failure (an
// error, a panic, or ErrClosed if the thread had ended when the tap was
// posted) is recorded in the thread's Failures for its next Barrier. Taps
// from one program run in the order it posted them.
func (p *Program) Tap(job func() error) {
	failures := p.ctx.Failures
	posted := p.ctx.Mailbox.Post(func() error {
		if err := p.ctx.checkDepth(); err != nil {
			failures.Add(err)
			return nil
		}
		p.enter(0)
		defer p.exit()
		failures.Add(runRecovered(job))
		return nil
	})
	failures.Add(posted.Err()) // ErrClosed if the thread has already ended
}

// enter starts a callback's frame on the thread; blocks is the program's
// dispatch number when the program waits for the callback.
func (p *Program) enter(blocks uint64) {
	p.ctx.Tokens.enter(p.scope, blocks)
}

// exit ends the callback's frame and returns the ordered work it started,
// which the program's later callbacks follow too.
func (p *Program) exit() scope {
	added := p.ctx.Tokens.exit()
	if len(added) > 0 {
		p.scope = p.scope.join(added)
	}
	return added
}

// DefaultMaxCallbackDepth is how deeply callbacks may nest on a thread: a
// callback that calls a jitted function whose callback calls one again...
// Each level holds a program and a goroutine stack; recursion through
// `call` without a base case would otherwise run until memory ran out.
const DefaultMaxCallbackDepth = 64

// A DepthError is a callback refused because too many are nested already.
type DepthError struct{ Limit int }

func (e *DepthError) Error() string {
	return fmt.Sprintf("host callbacks nested more than %d deep (a callback that calls the computation that called it, without end?)", e.Limit)
}

// checkDepth refuses a callback about to start above the thread's limit.
func (c *Context) checkDepth() error {
	limit := c.MaxCallbackDepth
	if limit <= 0 {
		limit = DefaultMaxCallbackDepth
	}
	if len(c.Tokens.frames)-1 >= limit {
		return &DepthError{Limit: limit}
	}
	return nil
}
