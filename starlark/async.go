package starlark

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/effects"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Asynchronous reads (SPEC §5). A jitted call hands its program to jit's
// dispatch (jit.Dispatch, jit.Compiled.Call) for its thread, a jit.Caller,
// and returns arrays at once; each result array holds the pending program
// (a jit.Future) until something reads it. Reading (printing, tolist, item,
// a host conversion, block_until_ready, an eager op) waits through the
// reading thread's mailbox, so the thread runs the callbacks its programs
// post while it waits (DESIGN decision 4).
//
// Every Starlark thread has an effects.Context: its runtime tokens, its
// mailbox and its tap failures. Programs are ordered per thread, as the
// design note promises.

const effectsKey = "jaxsh.effects"

// threadState is what a thread needs beyond its effects.Context: the
// failures of programs nobody has read yet, which the next barrier raises.
type threadState struct {
	ctx *effects.Context

	mu       sync.Mutex
	unread   []*jit.Future // failed programs with effects whose results nobody read
	draining bool          // the thread is running posted callbacks (no nested drain)
	// cancel cancels the context the thread's waits and programs use now
	// (see useContext); nil until an entry point sets one.
	cancel context.CancelCauseFunc
	// budget is the memory budget of the thread's session (nil: only the
	// machine's); set when the session makes the thread.
	budget *jit.Budget
	// running counts the entry points (runThread) running the thread now.
	// A Starlark thread runs on one goroutine at a time, so while it is
	// running, code waiting for its programs runs there.
	running atomic.Int32
	// progress hears about waits for programs, or is nil (see Progress).
	progress Progress
}

// stateOf returns the thread's effect state, making it on first use.
func stateOf(th *starlark.Thread) *threadState {
	if s, ok := th.Local(effectsKey).(*threadState); ok {
		return s
	}
	s := &threadState{ctx: effects.NewContext()}
	th.SetLocal(effectsKey, s)
	return s
}

// useContext makes a child of parent the thread's cancellation (DESIGN
// decision 10): its waits for results, barriers and room to dispatch end
// once it is cancelled, and so do the programs it dispatches from now on.
// Call it on the thread's goroutine; restore puts the previous one back.
func (st *threadState) useContext(parent context.Context) (restore func()) {
	ctx, cancel := context.WithCancelCause(parent)
	st.mu.Lock()
	prevCancel := st.cancel
	st.cancel = cancel
	st.mu.Unlock()
	prev := st.ctx.SetContext(ctx)
	return func() {
		st.ctx.SetContext(prev)
		st.mu.Lock()
		st.cancel = prevCancel
		st.mu.Unlock()
		cancel(nil)
	}
}

// useCallContext makes ctx itself the thread's cancellation (see
// UseCallContext). interrupt has nothing of its own to cancel meanwhile:
// whoever owns ctx cancels it.
func (st *threadState) useCallContext(ctx context.Context) (restore func()) {
	st.mu.Lock()
	prevCancel := st.cancel
	st.cancel = nil
	st.mu.Unlock()
	prev := st.ctx.SetContext(ctx)
	return func() {
		st.ctx.SetContext(prev)
		st.mu.Lock()
		st.cancel = prevCancel
		st.mu.Unlock()
	}
}

// renewContext gives the thread a fresh cancellation if it has none or its
// current one was cancelled (the REPL, after a Ctrl-C): work dispatched
// earlier keeps the context it had, so one Ctrl-C stops everything still
// running from before it.
func (st *threadState) renewContext() {
	if st.ctx.Cancellation().Err() == nil && st.cancel != nil {
		return
	}
	st.useContext(context.Background())
}

// interrupt cancels the thread's current context with cause: its waits end
// and its running programs stop. Any goroutine may call it.
func (st *threadState) interrupt(cause error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.cancel != nil {
		st.cancel(cause)
	}
}

// A pending is one dispatched program's results (a jit.Future) and the
// thread that dispatched it.
type pending struct {
	fut *jit.Future
	// th dispatched the program: its mailbox runs the program's callbacks.
	// st is th's state, kept here so a reader need not look it up in th's
	// locals (which only th's goroutine may touch).
	th *starlark.Thread
	st *threadState
	// hostOps is set when the program may post callbacks to th.
	hostOps bool
}

// threadCaller is a Starlark thread as the jit package's Caller: programs
// dispatched for it are ordered by its runtime tokens, their host
// operations run through its mailbox and print to its stdout, and their
// unread failures wait for its next barrier.
type threadCaller struct {
	th *starlark.Thread
	st *threadState
}

var _ jit.Caller = threadCaller{}

// callerOf is th as a jit.Caller.
func callerOf(th *starlark.Thread) threadCaller { return threadCaller{th: th, st: stateOf(th)} }

func (c threadCaller) Effects() *effects.Context { return c.st.ctx }

// NewHost makes the Host of a dispatched program: the thread's own, for
// host ops; for a program without them, one that stops it when the
// thread's cancellation at dispatch is cancelled and charges its arrays to
// the thread's budget.
func (c threadCaller) NewHost(dev jit.Device, hostOps bool) func(prog *effects.Program) jit.Host {
	if !hostOps {
		budget := c.st.budget
		return func(prog *effects.Program) jit.Host { return jit.WithLimits(jit.NoHost, prog, budget) }
	}
	stdout := stdoutOf(c.th) // read on the thread's goroutine, at dispatch
	return func(prog *effects.Program) jit.Host {
		return &programHost{thread: c.th, st: c.st, prog: prog, dev: dev, stdout: stdout}
	}
}

func (c threadCaller) Unread(f *jit.Future) {
	c.st.mu.Lock()
	c.st.unread = append(c.st.unread, f)
	c.st.mu.Unlock()
}

// pendingOf is the pending results of f, a program dispatched for c.
func (c threadCaller) pendingOf(f *jit.Future, hostOps bool) *pending {
	return &pending{fut: f, th: c.th, st: c.st, hostOps: hostOps}
}

// operandsOf is the arrays as operands of a dispatched program.
func operandsOf(arrays []*Array) []jit.Operand {
	ops := make([]jit.Operand, len(arrays))
	for i, a := range arrays {
		ops[i] = a.operand()
	}
	return ops
}

// operand is the array as an operand of a dispatched program.
func (a *Array) operand() jit.Operand {
	if a.fut != nil {
		return jit.Operand{Fut: a.fut.fut, Index: int(a.futIndex)}
	}
	return jit.Operand{Buf: a.buf}
}

// wait blocks until the program is done, running the waiting thread's
// callbacks meanwhile, and returns its error.
func (p *pending) wait() error {
	done := p.fut.Event()
	select {
	case <-done.Done():
	default:
		if p.st.progress != nil {
			defer p.st.progress.Begin("running")()
		}
		// The reader is the dispatching thread (a program's results are
		// read by the thread that made them, in all but contrived cases:
		// globals shared between threads are complete once the script that
		// computed them ended), so it runs that thread's callbacks while it
		// waits. Finding the thread from the goroutine instead would cost a
		// stack trace per read.
		th, st := p.th, p.st
		if st.running.Load() > 0 {
			// While tracing, callbacks must not run (their array ops would be
			// staged into the trace): run them with the trace suspended.
			var err error
			suspendTrace(th, func() { err = st.ctx.Await(done) })
			if effects.IsCancelled(err) {
				return err // the read is cancelled; the program stops too
			}
		} else if !p.hostOps {
			done.Wait() // nothing for the thread to run meanwhile
		} else {
			// A Go caller reading a result after the thread returned: it
			// stands in for the thread, running the callbacks the program
			// may still need (one reader per thread at a time, as SPEC §8
			// asks of embedders).
			if _, err := runThread(th, func() (struct{}, error) {
				return struct{}{}, st.ctx.Await(done)
			}); effects.IsCancelled(err) {
				return err
			}
		}
	}
	p.fut.MarkRead()
	return done.Err()
}

// suspendTrace runs fn with no trace current on th.
func suspendTrace(th *starlark.Thread, fn func()) {
	prev := th.Local(currentTraceKey)
	th.SetLocal(currentTraceKey, nil)
	defer th.SetLocal(currentTraceKey, prev)
	fn()
}

// newPendingArray is result i of a dispatched program.
func newPendingArray(p *pending, i int, aval trace.AVal) *Array {
	return &Array{aval: aval, fut: p, futIndex: int32(i)}
}

// buffer returns the array's buffer, waiting for the program computing it.
// A failed program's error is the array's.
func (a *Array) buffer() (jit.Buffer, error) {
	if a.fut == nil {
		return a.buf, nil
	}
	if err := a.fut.wait(); err != nil {
		return nil, err
	}
	return a.fut.fut.Output(int(a.futIndex))
}

// readyEvent is the event an operation on the array must wait for, or nil
// when the array is already computed.
func (a *Array) readyEvent() *effects.Event {
	if a.fut == nil || a.fut.fut.Ready() {
		return nil
	}
	return a.fut.fut.Event()
}

// readyBuffer is buffer for an array whose readyEvent is done (inside the
// work of a program that waited for it).
func (a *Array) readyBuffer() (jit.Buffer, error) {
	if a.fut == nil {
		return a.buf, nil
	}
	return a.fut.fut.Output(int(a.futIndex))
}

// dispatch runs a program asynchronously on dev for thread th once every
// input array is computed (jit.Dispatch), and returns the pending results.
// run executes it with the inputs' buffers and the Host its host ops use.
func dispatch(th *starlark.Thread, dev jit.Device, effs trace.Effects, inputs []*Array, name string,
	run func(bufs []jit.Buffer, host jit.Host) ([]jit.Buffer, error)) *pending {
	caller := callerOf(th)
	return caller.pendingOf(jit.Dispatch(caller, dev, effs, operandsOf(inputs), name, run), len(effs) > 0)
}

// barrier is effects_barrier for the thread: it waits for everything the
// thread dispatched and every callback, then raises the first tap failure
// (a CallbackError) or else the first failed effectful program that nobody
// read.
func barrier(th *starlark.Thread) error {
	st := stateOf(th)
	var err error
	if st.progress != nil {
		defer st.progress.Begin("waiting for computations")()
	}
	suspendTrace(th, func() { err = st.ctx.Barrier() })
	st.mu.Lock()
	unread := st.unread
	st.unread = nil
	st.mu.Unlock()
	if err != nil {
		return err
	}
	for _, f := range unread {
		if !f.Read() {
			f.MarkRead()
			return f.Event().Err()
		}
	}
	return nil
}

// Barrier waits for everything th dispatched and the callbacks it
// triggered (effects_barrier), returning a callback failure if any. Call
// it on the goroutine that runs th.
func (s *Session) Barrier(th *starlark.Thread) error {
	_, err := runThread(th, func() (struct{}, error) { return struct{}{}, barrier(th) })
	return err
}

// CloseThread is the implicit barrier at the end of a script or a REPL
// session: it waits like Barrier, then refuses callbacks posted later, so
// that no program waits for a thread that has ended.
func (s *Session) CloseThread(th *starlark.Thread) error {
	return CloseThread(th)
}

// CloseThread is Session.CloseThread for a thread of any session.
func CloseThread(th *starlark.Thread) error {
	_, err := runThread(th, func() (struct{}, error) {
		err := barrier(th)
		stateOf(th).ctx.Mailbox.Close()
		return struct{}{}, err
	})
	return err
}

// pollCallbacks runs the callbacks posted to the thread's mailbox, at a
// builtin call (DESIGN decision 4: a `call` in a long computation is served
// promptly). Not while tracing, and not nested inside a drain.
func pollCallbacks(th *starlark.Thread) {
	if th == nil {
		return
	}
	st, ok := th.Local(effectsKey).(*threadState)
	if !ok || !st.ctx.Mailbox.Pending() || st.draining || th.Local(currentTraceKey) != nil {
		return
	}
	st.draining = true
	defer func() { st.draining = false }()
	st.ctx.Mailbox.Drain()
}

// waitOrderedPrints makes a host print wait for the ordered prints of the
// programs the thread dispatched before it.
func waitOrderedPrints(th *starlark.Thread) {
	st := stateOf(th)
	suspendTrace(th, func() { st.ctx.WaitOrdered(trace.OrderedPrint.Kind) })
}
