package starlark

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/effects"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Asynchronous dispatch (SPEC §5). A jitted call hands its program to the
// effects runtime and returns arrays at once; each result array holds the
// pending program until something reads it. Reading (printing, tolist,
// item, a host conversion, block_until_ready, an eager op) waits through
// the reading thread's mailbox, so the thread runs the callbacks its
// programs post while it waits (DESIGN decision 4).
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
	unread   []*pending // failed programs with effects whose results nobody read
	draining bool       // the thread is running posted callbacks (no nested drain)
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

// A pending is one dispatched program's results: outs is written by the
// program before done is set, and read only after.
type pending struct {
	done *effects.Event
	outs []jit.Buffer
	dev  jit.Device
	// th dispatched the program: its mailbox runs the program's callbacks.
	// st is th's state, kept here so a reader need not look it up in th's
	// locals (which only th's goroutine may touch).
	th *starlark.Thread
	st *threadState
	// hostOps is set when the program may post callbacks to th.
	hostOps bool
	// read is set once someone has waited for the results: a failure that
	// was read is not raised again by the next barrier.
	read atomic.Bool
}

// wait blocks until the program is done, running the waiting thread's
// callbacks meanwhile, and returns its error.
func (p *pending) wait() error {
	select {
	case <-p.done.Done():
	default:
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
			suspendTrace(th, func() { err = st.ctx.Await(p.done) })
			if effects.IsCancelled(err) {
				return err // the read is cancelled; the program stops too
			}
		} else if !p.hostOps {
			p.done.Wait() // nothing for the thread to run meanwhile
		} else {
			// A Go caller reading a result after the thread returned: it
			// stands in for the thread, running the callbacks the program
			// may still need (one reader per thread at a time, as SPEC §8
			// asks of embedders).
			if _, err := runThread(th, func() (struct{}, error) {
				return struct{}{}, st.ctx.Await(p.done)
			}); effects.IsCancelled(err) {
				return err
			}
		}
	}
	p.read.Store(true)
	return p.done.Err()
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
	return &Array{aval: aval, fut: p, futIndex: i}
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
	return a.fut.outs[a.futIndex], nil
}

// readyEvent is the event an operation on the array must wait for, or nil
// when the array is already computed.
func (a *Array) readyEvent() *effects.Event {
	if a.fut == nil {
		return nil
	}
	select {
	case <-a.fut.done.Done():
		return nil
	default:
		return a.fut.done
	}
}

// readyBuffer is buffer for an array whose readyEvent is done (inside the
// work of a program that waited for it).
func (a *Array) readyBuffer() (jit.Buffer, error) {
	if a.fut == nil {
		return a.buf, nil
	}
	if err := a.fut.done.Err(); err != nil {
		return nil, err
	}
	return a.fut.outs[a.futIndex], nil
}

// queueKind is the pseudo effect kind that keeps a thread's programs on
// one device in dispatch order: the device's queue. Programs on different
// devices run concurrently; a callback's own dispatches are ordered within
// it (effects.Tokens), so a callback that runs a computation on the device
// its program occupies does not wait behind that program.
func queueKind(dev jit.Device) string { return "queue " + dev.String() }

// effectKinds lists the runtime token kinds a program with these effects
// waits on: one per ordered effect kind, plus its device's queue.
func effectKinds(dev jit.Device, es trace.Effects) []string {
	kinds := []string{queueKind(dev)}
	for _, e := range es.Ordered() {
		kinds = append(kinds, e.Kind)
	}
	return kinds
}

// dispatch runs a program asynchronously on dev for thread th once every
// input array is computed, and returns the pending results. run executes
// it (on the program's goroutine, the inputs ready) with the Host its host
// ops use. A program with effects that fails and is never read is raised
// by the thread's next barrier.
func dispatch(th *starlark.Thread, dev jit.Device, effs trace.Effects, inputs []*Array, name string,
	run func(host jit.Host) ([]jit.Buffer, error)) *pending {
	st := stateOf(th)
	var deps []*effects.Event
	for _, a := range inputs {
		if ev := a.readyEvent(); ev != nil {
			deps = append(deps, ev)
		}
	}
	p := &pending{dev: dev, th: th, st: st, hostOps: len(effs) > 0}
	stdout := stdoutOf(th)
	p.done = st.ctx.Dispatch(dev.String(), effectKinds(dev, effs), deps, func(prog *effects.Program) error {
		for _, a := range inputs {
			if a.fut != nil {
				if err := a.fut.done.Err(); err != nil {
					return err
				}
			}
		}
		// The program stops when the thread's cancellation at dispatch
		// is cancelled, and charges its arrays to the thread's budget.
		var host jit.Host
		if len(effs) > 0 {
			host = &programHost{thread: th, st: st, prog: prog, dev: dev, stdout: stdout}
		} else {
			host = jit.WithLimits(jit.NoHost, prog, st.budget)
		}
		outs, err := run(host)
		if err != nil {
			if name != "" {
				err = fmt.Errorf("%s: %w", name, err)
			}
			if len(effs) > 0 {
				st.mu.Lock()
				st.unread = append(st.unread, p)
				st.mu.Unlock()
			}
			return err
		}
		p.outs = outs
		return nil
	})
	return p
}

// quickBytes bounds the memory a program may touch (arguments, results,
// temporaries) to run on the calling goroutine.
const quickBytes = 64 << 10

// quickProgram reports a program small enough that running it on the
// calling goroutine costs less than handing it to a worker and waking the
// caller for its result: no host ops (a callback would wait for the thread
// that runs it), no loops (their trip counts are unknown), and at most
// quickBytes of memory, which a few microseconds cover.
func quickProgram(j *trace.Jaxpr, p *jit.Program) bool {
	if len(j.Effects) > 0 {
		return false
	}
	for _, k := range p.Kernels {
		if k.Control != nil {
			return false
		}
	}
	m := p.MemoryAnalysis()
	return m.ArgumentSizeInBytes+m.OutputSizeInBytes+m.TempSizeInBytes <= quickBytes
}

// completedOK is the completion of every program that ran at once and
// succeeded: events are immutable once set, so one serves them all.
var completedOK = effects.Completed(nil)

// dispatchMaybeNow is dispatch, except that a quick program whose inputs
// are computed and whose device queue is idle runs at once on the calling
// goroutine: the same as a program dispatched and finished instantly, since
// nothing could observe the difference but the time it saves (~4 us).
func dispatchMaybeNow(th *starlark.Thread, dev jit.Device, effs trace.Effects, quick bool, inputs []*Array, name string,
	run func(host jit.Host) ([]jit.Buffer, error)) *pending {
	if quick {
		for _, a := range inputs {
			if a.readyEvent() != nil {
				quick = false
				break
			}
		}
	}
	st := stateOf(th)
	if quick && len(st.ctx.Tokens.Deps([]string{queueKind(dev)})) == 0 {
		p := &pending{dev: dev, th: th, st: st}
		for _, a := range inputs {
			if _, err := a.readyBuffer(); err != nil {
				p.done = effects.Completed(err)
				return p
			}
		}
		outs, err := run(jit.NoHost)
		p.outs = outs
		switch {
		case err == nil:
			p.done = completedOK
		case name != "":
			p.done = effects.Completed(fmt.Errorf("%s: %w", name, err))
		default:
			p.done = effects.Completed(err)
		}
		return p
	}
	return dispatch(th, dev, effs, inputs, name, run)
}

// barrier is effects_barrier for the thread: it waits for everything the
// thread dispatched and every callback, then raises the first tap failure
// (a CallbackError) or else the first failed effectful program that nobody
// read.
func barrier(th *starlark.Thread) error {
	st := stateOf(th)
	var err error
	suspendTrace(th, func() { err = st.ctx.Barrier() })
	st.mu.Lock()
	unread := st.unread
	st.unread = nil
	st.mu.Unlock()
	if err != nil {
		return err
	}
	for _, p := range unread {
		if !p.read.Load() {
			p.read.Store(true)
			return p.done.Err()
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
