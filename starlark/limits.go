package starlark

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/effects"
	"github.com/jaxsh/jaxsh/internal/files"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Limits bound what a session's threads may use (SPEC §8–9): the host's
// defence against scripts it does not trust. Zero values mean no limit
// (MaxSteps, Budget) or the default (MaxCallbackDepth); a nil Files allows
// no file.
type Limits struct {
	// MaxSteps caps the Starlark execution steps of each thread (a run, a
	// call, the REPL's thread), callbacks included.
	MaxSteps uint64
	// Budget caps the bytes the session's arrays hold at once.
	Budget *jit.Budget
	// MaxCallbackDepth caps how deeply host callbacks nest.
	MaxCallbackDepth int
	// Files is what load() and the file functions may read and write.
	Files *files.Policy
}

// budgetsInUse is set once any session has a memory budget of its own, so
// that eager operations look up their thread's budget only then.
var budgetsInUse atomic.Bool

// Budget is the session's memory budget (Limits.Budget), or nil.
func (s *Session) Budget() *jit.Budget { return s.limits.Budget }

// SetLimits makes l the limits of the threads the session makes from now
// on. Call it before NewThread.
func (s *Session) SetLimits(l Limits) {
	s.limits = l
	if l.Budget != nil {
		budgetsInUse.Store(true)
	}
}

const filesKey = "jaxsh.files"

// applyLimits gives a new thread the session's limits.
func (s *Session) applyLimits(th *starlark.Thread) {
	if s.limits.MaxSteps > 0 {
		th.SetMaxExecutionSteps(s.limits.MaxSteps)
	}
	st := stateOf(th)
	st.budget = s.limits.Budget
	st.ctx.MaxCallbackDepth = s.limits.MaxCallbackDepth
	th.SetLocal(filesKey, s.limits.Files)
}

// SetThreadFiles makes policy what th's load() and file functions use,
// instead of the session's (a run of a script in another directory).
func SetThreadFiles(th *starlark.Thread, policy *files.Policy) {
	th.SetLocal(filesKey, policy)
}

// FilesOf returns the file policy of th (nil: no files).
func FilesOf(th *starlark.Thread) *files.Policy {
	p, _ := th.Local(filesKey).(*files.Policy)
	return p
}

// UseContext makes ctx the cancellation of th's waits and of the programs
// it dispatches (DESIGN decision 10), until the returned restore is called.
// Call it on the goroutine that runs th, before running it.
func UseContext(th *starlark.Thread, ctx context.Context) (restore func()) {
	return stateOf(th).useContext(ctx)
}

// UseCallContext makes ctx the cancellation of th's waits and of the
// programs it dispatches for one call whose results outlive it (an
// embedding Thread's call returns while its computations run): until
// restore, waits end when ctx is cancelled, and the programs dispatched
// meanwhile stop then, even after restore. Unlike UseContext it makes no
// child context, since a child could only end with those programs.
func UseCallContext(th *starlark.Thread, ctx context.Context) (restore func()) {
	return stateOf(th).useCallContext(ctx)
}

// Interrupter returns a function that, from any goroutine, cancels th's
// current context with cause: its waits end and the computations it
// dispatched stop; Starlark code running on it stops at its next step.
// Call Interrupter itself on the goroutine that runs th (it reads th's
// locals, which only that goroutine may touch).
func Interrupter(th *starlark.Thread) func(cause error) {
	st := stateOf(th)
	return func(cause error) {
		th.Cancel(cause.Error())
		st.interrupt(cause)
	}
}

// Running reports how many computations th dispatched that have not ended,
// for a message at exit ("waiting for 2 computations").
func Running(th *starlark.Thread) int {
	return stateOf(th).ctx.Unfinished()
}

// IsCancelled reports whether err ends a run because it was cancelled (a
// context, an interrupt) rather than because it failed.
func IsCancelled(err error) bool {
	var ce *effects.CancelledError
	return errors.As(err, &ce)
}

// loadWait waits for a module another thread is loading, refusing a wait
// that would close a cycle of threads waiting for each other's modules,
// and ending when th is cancelled.
func (s *Session) loadWait(th *starlark.Thread, m *module, name string) error {
	s.mu.Lock()
	for cur := m; cur != nil; cur = s.waiting[cur.loader] {
		if cur.loader == th {
			s.mu.Unlock()
			return fmt.Errorf("cycle in load graph: %s is being loaded by a thread that waits for a module this thread is loading", name)
		}
	}
	s.waiting[th] = m
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiting, th)
		s.mu.Unlock()
	}()
	ctx := stateOf(th).ctx.Cancellation()
	select {
	case <-m.done:
		return nil
	case <-ctx.Done():
		return &effects.CancelledError{Cause: context.Cause(ctx)}
	}
}

// eagerHost is the Host of an eager operation run at once on operands of
// up to elements elements: it charges the running thread's memory budget
// and, for an operation large enough to take a while, carries the thread's
// cancellation, so that Ctrl-C or a cancelled Call stops it inside its
// kernel. Finding the thread costs a goroutine lookup (a microsecond), so
// only then.
func eagerHost(elements int) jit.Host {
	long := elements >= stoppableEagerElements
	if !long && !budgetsInUse.Load() {
		return jit.NoHost
	}
	th, ok := runningThreads.Load(goroutineID())
	if !ok {
		return jit.NoHost
	}
	st := stateOf(th.(*starlark.Thread))
	var c jit.Cancellable
	if long {
		if ctx := st.ctx.Cancellation(); ctx.Done() != nil {
			c = eagerCancellation{ctx}
		}
	}
	if c == nil && st.budget == nil {
		return jit.NoHost
	}
	return jit.WithLimits(jit.NoHost, c, st.budget)
}

// stoppableEagerElements is the operand size from which an eager operation
// carries its thread's cancellation: smaller ones end within milliseconds.
const stoppableEagerElements = 1 << 18

// eagerCancellation is a thread's context as an eager operation's kernels
// see it: its error is the *effects.CancelledError a wait of the thread
// would return.
type eagerCancellation struct{ ctx context.Context }

func (c eagerCancellation) Done() <-chan struct{} { return c.ctx.Done() }

func (c eagerCancellation) Err() error {
	if c.ctx.Err() == nil {
		return nil
	}
	return &effects.CancelledError{Cause: context.Cause(c.ctx)}
}

// checkFits refuses, at the call and so at its position, a program whose
// arrays cannot fit the thread's budget or the machine even when nothing
// else is held; the backend still charges each run for what is in use.
func checkFits(th *starlark.Thread, dev jit.Device, need int64, largest trace.AVal) error {
	if dev.Platform() == "cpu" && need > jit.Machine.Limit() {
		return &jit.AllocError{AVal: largest, Bytes: need, Limit: jit.Machine.Limit(), What: "this machine's memory"}
	}
	if b := stateOf(th).budget; b != nil && need > b.Limit() {
		return &jit.AllocError{AVal: largest, Bytes: need, Limit: b.Limit(), What: "the interpreter's array memory limit"}
	}
	return nil
}

// withBacktrace keeps the positions of a runtime error in a loaded module:
// go.starlark.net's load reports "cannot load NAME: " and the error's
// message only, which for an *EvalError drops its traceback.
func withBacktrace(err error) error {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		return &loadError{ee}
	}
	return err
}

type loadError struct{ ee *starlark.EvalError }

func (e *loadError) Error() string { return strings.TrimSuffix(e.ee.Backtrace(), "\n") }
func (e *loadError) Unwrap() error { return e.ee }
