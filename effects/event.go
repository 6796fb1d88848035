package effects

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
)

// An Event is the completion of some work, with the work's error. It starts
// pending and is set exactly once; every waiter then sees the same error.
// Events are how the runtime orders work: a program's completion event is
// both the readiness of its outputs and, when it has ordered effects, the
// thread's next runtime token (sequencing-effects.txt, "Managing runtime
// tokens").
//
// All methods are safe for concurrent use.
type Event struct {
	done  chan struct{}
	claim atomic.Bool // the first Set wins the right to write err
	err   error       // written once, before done is closed
}

// NewEvent returns a pending event.
func NewEvent() *Event {
	return &Event{done: make(chan struct{})}
}

// Completed returns an event that is already done with err (nil for
// success), for results that need no work, such as a failure detected
// before anything was dispatched.
func Completed(err error) *Event {
	e := NewEvent()
	e.Set(err)
	return e
}

// Set completes the event with err (nil for success) and wakes every waiter.
// Only the first call has an effect, so a watchdog and the work itself may
// race to finish an event; Set reports whether this call was the one.
func (e *Event) Set(err error) bool {
	if !e.claim.CompareAndSwap(false, true) {
		return false
	}
	e.err = err
	close(e.done) // publishes err to everyone who receives from done
	return true
}

// Done returns a channel that is closed once the event is set.
func (e *Event) Done() <-chan struct{} {
	return e.done
}

// Err returns the event's error once it is done, and nil while it is still
// pending (use Done to tell the two apart). It never blocks.
func (e *Event) Err() error {
	select {
	case <-e.done:
		return e.err
	default:
		return nil
	}
}

// Wait blocks until the event is done and returns its error. It runs no
// callbacks: a thread that owns a Mailbox waits with Mailbox.Await instead,
// or a program that needs one of its callbacks would wait for it forever.
func (e *Event) Wait() error {
	<-e.done
	return e.err
}

// Go runs work on a new goroutine once every event in deps is done, and
// returns the event of work's completion. Nil deps are skipped.
//
// Deps only order the work: a dep that failed does not fail it, because
// whether an input's failure propagates is the caller's decision (a program
// whose input failed fails; a program that merely follows a failed program's
// runtime token still runs). A panic in work becomes a *PanicError, so a bug
// in one program fails that program instead of the process; work that ends
// its goroutine with runtime.Goexit fails its event too.
//
// Each call gets its own goroutine rather than a place in a per-device queue,
// so nothing waits behind unrelated work: a host callback that dispatches a
// computation while the program that called it is blocked gets it run.
func Go(deps []*Event, work func() error) *Event {
	return goUnless(context.Background(), deps, work)
}

// goUnless is Go for work that a cancellation of ctx stops before it
// starts: while its deps are pending, or just as they are done, a cancelled
// ctx fails the event with a *CancelledError and work never runs. (Work
// that has started watches ctx itself.)
func goUnless(ctx context.Context, deps []*Event, work func() error) *Event {
	ev := NewEvent()
	deps = append([]*Event(nil), deps...) // the caller may reuse its slice
	stop := ctx.Done()
	startWorker(func() {
		for _, d := range deps {
			if d != nil {
				select {
				case <-d.done:
				case <-stop:
					ev.Set(cancelled(ctx))
					return
				}
			}
		}
		if err := cancelled(ctx); err != nil {
			ev.Set(err)
			return
		}
		complete(ev, work)
	})
	return ev
}

// Work runs on goroutines that stay for more once they finish (up to
// maxIdleWorkers of them parked): a fresh goroutine per program would start
// with a small stack and grow it, by copying, every time a kernel needs a
// deep one, which costs more than the kernel of a small program. Each piece
// of work still gets a goroutine of its own while it runs, so nothing
// waits behind unrelated work.
var (
	idleWorkers = make(chan func())
	idleCount   atomic.Int32
)

const maxIdleWorkers = 32

func startWorker(f func()) {
	select {
	case idleWorkers <- f: // a parked worker takes it
	default:
		go worker(f)
	}
}

func worker(f func()) {
	for {
		f()
		if idleCount.Add(1) > maxIdleWorkers {
			idleCount.Add(-1)
			return
		}
		f = <-idleWorkers
		idleCount.Add(-1)
	}
}

// errGoexit completes the event of work that ended its goroutine with
// runtime.Goexit (t.FailNow does), which no return or recover reports.
var errGoexit = errors.New("effects: work ended its goroutine (runtime.Goexit) without returning")

// complete runs f and sets ev to its outcome: its error, a *PanicError, or
// errGoexit. Whoever waits on ev is never left hanging.
func complete(ev *Event, f func() error) {
	returned := false
	defer func() {
		if !returned {
			ev.Set(errGoexit)
		}
	}()
	ev.Set(runRecovered(f))
	returned = true
}

// A PanicError is a panic caught while running work or a callback job,
// turned into an error for whoever waits on the result.
type PanicError struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the panicking goroutine's stack, as runtime/debug.Stack
	// prints it.
	Stack string
}

// Error is "panic: " followed by the panic value.
func (e *PanicError) Error() string {
	return fmt.Sprintf("panic: %v", e.Value)
}

// Backtrace returns the stack of the panic. Failures uses it as the
// failure's traceback; go.starlark.net's EvalError has the same method.
func (e *PanicError) Backtrace() string {
	return e.Stack
}

// Unwrap returns the panic value when it is an error, so errors.Is and
// errors.As see through the panic.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// runRecovered calls f and turns a panic into a *PanicError.
func runRecovered(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: string(debug.Stack())}
		}
	}()
	return f()
}
