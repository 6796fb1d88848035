package effects

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// A wait on a program that never ends returns the thread's cancellation,
// promptly, and the program itself sees it.
func TestCancelEndsWaitsAndStopsWork(t *testing.T) {
	c := NewContext()
	cctx, cancel := context.WithCancelCause(context.Background())
	c.SetContext(cctx)
	stopped := make(chan error, 1)
	ev := c.Dispatch("cpu:0", nil, nil, func(p *Program) error {
		<-p.Done() // a kernel that only stops when told
		stopped <- p.Err()
		return p.Err()
	})
	interrupt := errors.New("KeyboardInterrupt")
	time.AfterFunc(5*time.Millisecond, func() { cancel(interrupt) })
	start := time.Now()
	var err error
	onOwnerWithin("cancelled await", func() { err = c.Await(ev) })
	if !IsCancelled(err) || !errors.Is(err, interrupt) {
		t.Fatalf("Await = %v, want a CancelledError caused by %v", err, interrupt)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Await took %v after cancellation", d)
	}
	select {
	case perr := <-stopped:
		if !errors.Is(perr, interrupt) {
			t.Fatalf("program saw %v", perr)
		}
	case <-time.After(waitTimeout):
		t.Fatal("program did not see its cancellation")
	}
	if err := ev.Wait(); !IsCancelled(err) {
		t.Fatalf("program's event = %v, want its cancellation", err)
	}
}

// After a cancellation the thread takes a fresh context and goes on: later
// programs run, and the cancelled one's successors are not stuck behind it.
func TestProgramsAfterCancellationRun(t *testing.T) {
	c := NewContext()
	first, cancel := context.WithCancel(context.Background())
	c.SetContext(first)
	never := NewEvent() // an input that never arrives
	var ran atomic.Bool
	blocked := c.Dispatch("cpu:0", []string{"print"}, []*Event{never}, func(*Program) error {
		ran.Store(true)
		return nil
	})
	cancel()
	c.SetContext(context.Background())
	next := c.Dispatch("cpu:0", []string{"print"}, nil, func(*Program) error { return nil })
	if err := awaitWithin(c.Mailbox, next, "program after a cancellation"); err != nil {
		t.Fatal(err)
	}
	if err := blocked.Err(); !IsCancelled(err) || ran.Load() {
		t.Fatalf("cancelled program: err %v, ran %v; want cancelled before running", err, ran.Load())
	}
	if err := c.Barrier(); err != nil {
		t.Fatal(err)
	}
}

func TestBarrierAndWaitOrderedAreCancellable(t *testing.T) {
	c := NewContext()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	c.SetContext(ctx)
	release := make(chan struct{})
	defer close(release)
	c.Dispatch("cpu:0", []string{"print"}, nil, func(*Program) error { <-release; return nil })
	var berr, werr error
	onOwnerWithin("cancelled barrier", func() { berr = c.Barrier(); werr = c.WaitOrdered("print") })
	if !errors.Is(berr, context.DeadlineExceeded) || !errors.Is(werr, context.DeadlineExceeded) {
		t.Fatalf("Barrier = %v, WaitOrdered = %v; want the deadline", berr, werr)
	}
}

// A program waiting in Call for a callback its thread never runs (the
// thread is busy, or gone) gets its cancellation instead, and the callback
// never runs.
func TestCallReturnsOnCancellation(t *testing.T) {
	c := NewContext()
	ctx, cancel := context.WithCancel(context.Background())
	c.SetContext(ctx)
	var ran atomic.Bool
	ev := c.Dispatch("cpu:0", []string{"call"}, nil, func(p *Program) error {
		return p.Call(func() error { ran.Store(true); return nil })
	})
	time.Sleep(2 * time.Millisecond)
	cancel()
	select {
	case <-ev.Done():
	case <-time.After(waitTimeout):
		t.Fatal("Call did not return on cancellation")
	}
	if !IsCancelled(ev.Err()) {
		t.Fatalf("program = %v, want cancelled", ev.Err())
	}
	c.Mailbox.Drain()
	if ran.Load() {
		t.Fatal("the callback of a cancelled program ran")
	}
}

// At most MaxInFlight programs of a thread are unfinished per device; the
// next dispatch waits, running the thread's callbacks (here, the taps that
// let the programs finish) while it waits.
func TestDispatchIsBounded(t *testing.T) {
	c := NewContext()
	c.MaxInFlight = 4
	var inFlight, peak atomic.Int32
	var taps int
	gate := make(chan struct{})
	onOwnerWithin("bounded dispatch", func() {
		for i := range 40 {
			c.Dispatch("cpu:0", nil, nil, func(p *Program) error {
				n := inFlight.Add(1)
				for {
					m := peak.Load()
					if n <= m || peak.CompareAndSwap(m, n) {
						break
					}
				}
				if i == 0 {
					<-gate // the first program holds its room until a tap has run
				}
				p.Tap(func() error { taps++; return nil })
				inFlight.Add(-1)
				return nil
			})
			if i == 0 {
				c.Mailbox.Post(func() error { close(gate); return nil })
			}
		}
		if err := c.Barrier(); err != nil {
			t.Fatal(err)
		}
	})
	if p := peak.Load(); p > 4 {
		t.Fatalf("%d programs in flight at once, want at most 4", p)
	}
	if taps != 40 {
		t.Fatalf("%d taps ran, want 40", taps)
	}
	// Other devices have rooms of their own.
	if set := c.Tokens.current().outputs["cpu:0"]; set != nil && len(unfinished(set.events)) != 0 {
		t.Fatal("unfinished programs after the barrier")
	}
}

// A dispatch waiting for room is cancellable: the program is not run and
// its event carries the cancellation.
func TestDispatchWaitingForRoomIsCancellable(t *testing.T) {
	c := NewContext()
	c.MaxInFlight = 2
	ctx, cancel := context.WithCancel(context.Background())
	c.SetContext(ctx)
	release := make(chan struct{})
	defer close(release)
	for range 2 {
		c.Dispatch("cpu:0", nil, nil, func(*Program) error { <-release; return nil })
	}
	time.AfterFunc(5*time.Millisecond, cancel)
	var ev *Event
	var ran atomic.Bool
	onOwnerWithin("dispatch waiting for room", func() {
		ev = c.Dispatch("cpu:0", nil, nil, func(*Program) error { ran.Store(true); return nil })
	})
	if !IsCancelled(ev.Err()) || ran.Load() {
		t.Fatalf("dispatch = %v (ran %v), want cancelled without running", ev.Err(), ran.Load())
	}
}

// Many dispatches with taps hold a bounded number of goroutines: the
// goroutine count stays flat instead of growing with the loop.
func TestManyTappedDispatchesStayBounded(t *testing.T) {
	c := NewContext()
	n := 20000
	if testing.Short() {
		n = 2000
	}
	base := runtime.NumGoroutine()
	var taps, peak int
	onOwnerWithin("many tapped dispatches", func() {
		for i := range n {
			c.Dispatch("cpu:0", []string{"print"}, nil, func(p *Program) error {
				p.Tap(func() error { taps++; return nil })
				return nil
			})
			if c.Mailbox.Pending() {
				c.Mailbox.Drain() // what a builtin call does
			}
			if i%500 == 0 {
				peak = max(peak, runtime.NumGoroutine()-base)
			}
		}
		if err := c.Barrier(); err != nil {
			t.Fatal(err)
		}
	})
	if taps != n {
		t.Fatalf("%d taps, want %d", taps, n)
	}
	if peak > 2*MaxInFlight+8 {
		t.Fatalf("%d extra goroutines at peak, want about MaxInFlight (%d)", peak, MaxInFlight)
	}
}

// A callback that dispatches a program whose callback dispatches another,
// without end, is stopped at the depth limit with a clear error instead of
// recursing until memory runs out.
func TestCallbackDepthIsBounded(t *testing.T) {
	c := NewContext()
	c.MaxCallbackDepth = 5
	depth := 0
	var recurse func(p *Program) error
	recurse = func(p *Program) error {
		return p.Call(func() error {
			depth++
			return c.Await(c.Dispatch("cpu:0", []string{"call"}, nil, recurse))
		})
	}
	var err error
	onOwnerWithin("recursion through call", func() { err = c.Await(c.Dispatch("cpu:0", []string{"call"}, nil, recurse)) })
	var de *DepthError
	if !errors.As(err, &de) || depth != 5 {
		t.Fatalf("err = %v after %d levels, want a DepthError after 5", err, depth)
	}
}
