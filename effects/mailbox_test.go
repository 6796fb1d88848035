package effects

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMailboxManyPostersRunOnOwnerInPerPosterOrder has 8 goroutines post
// 1000 jobs each while the owner waits in Await. Every job must run on the
// owner goroutine, never concurrently with another, and each poster's jobs
// in the order it posted them.
func TestMailboxManyPostersRunOnOwnerInPerPosterOrder(t *testing.T) {
	const posters, perPoster = 8, 1000
	mb := NewMailbox()
	owner := goroutineID()
	allRan := NewEvent()
	var (
		running  atomic.Int32
		ran      int // touched only by jobs, which must all run on the owner
		next     [posters]int
		failures []string
	)
	fail := func(format string, args ...any) {
		if len(failures) < 5 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	var wg sync.WaitGroup
	for p := range posters {
		wg.Go(func() {
			for i := range perPoster {
				mb.Post(func() error {
					if running.Add(1) != 1 {
						fail("job %d/%d runs concurrently with another", p, i)
					}
					if id := goroutineID(); id != owner {
						fail("job %d/%d ran on goroutine %d, owner is %d", p, i, id, owner)
					}
					if next[p] != i {
						fail("poster %d: job %d ran when job %d was expected", p, i, next[p])
					}
					next[p] = i + 1
					ran++
					if ran == posters*perPoster {
						allRan.Set(nil)
					}
					running.Add(-1)
					return nil
				})
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	if err := awaitWithin(mb, allRan, "owner awaiting 8000 jobs"); err != nil {
		t.Fatal(err)
	}
	<-done
	for _, f := range failures {
		t.Error(f)
	}
	if mb.Pending() {
		t.Error("jobs still pending after all ran")
	}
}

// TestMailboxRunsJobsInGlobalPostOrder takes a ticket with each Post under
// one lock, so tickets number the posts in the order Post saw them; the jobs
// must run in ticket order.
func TestMailboxRunsJobsInGlobalPostOrder(t *testing.T) {
	mb := NewMailbox()
	var (
		ticketMu sync.Mutex
		ticket   int
		got      []int
	)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				ticketMu.Lock()
				n := ticket
				ticket++
				mb.Post(func() error { got = append(got, n); return nil })
				ticketMu.Unlock()
			}
		})
	}
	wg.Wait()
	mb.Drain()
	if len(got) != 800 {
		t.Fatalf("%d jobs ran, want 800", len(got))
	}
	for i, n := range got {
		if n != i {
			t.Fatalf("job with ticket %d ran in position %d", n, i)
		}
	}
}

// TestMailboxAwaitServesCall is the `call` pattern: a program running on its
// own goroutine needs a callback's result, posts it and waits; the owner,
// blocked waiting for the program, runs the callback from inside Await.
func TestMailboxAwaitServesCall(t *testing.T) {
	mb := NewMailbox()
	owner := goroutineID()
	var callbackOn uint64
	program := Go(nil, func() error {
		time.Sleep(2 * time.Millisecond) // the owner is already waiting
		var result int
		if err := mb.Call(func() error {
			callbackOn = goroutineID()
			result = 42
			return nil
		}); err != nil {
			return err
		}
		if result != 42 {
			return fmt.Errorf("callback result %d", result)
		}
		return nil
	})
	if err := awaitWithin(mb, program, "program calling back"); err != nil {
		t.Fatal(err)
	}
	if callbackOn != owner {
		t.Fatalf("callback ran on goroutine %d, owner is %d", callbackOn, owner)
	}
}

// TestMailboxAwaitReturnsWhenJobCompletesAwaitedEvent: the event the owner
// waits for is set by a job it runs itself.
func TestMailboxAwaitReturnsWhenJobCompletesAwaitedEvent(t *testing.T) {
	mb := NewMailbox()
	ev := NewEvent()
	want := errors.New("from the job")
	go func() {
		time.Sleep(2 * time.Millisecond)
		mb.Post(func() error { ev.Set(want); return nil })
	}()
	if err := awaitWithin(mb, ev, "event set by a job"); err != want {
		t.Fatalf("Await = %v, want %v", err, want)
	}
}

func TestMailboxJobPostingAJobRunsInSameDrain(t *testing.T) {
	mb := NewMailbox()
	var order []string
	mb.Post(func() error {
		order = append(order, "a")
		mb.Post(func() error { order = append(order, "c"); return nil })
		return nil
	})
	mb.Post(func() error { order = append(order, "b"); return nil })
	mb.Drain()
	if fmt.Sprint(order) != "[a b c]" {
		t.Fatalf("order = %v, want [a b c]", order)
	}
	if mb.Pending() {
		t.Fatal("Drain returned with jobs pending")
	}
}

// TestMailboxNestedDispatchFromJob is "a callback calls jit": a job running
// on the owner dispatches asynchronous work and waits for it with Await,
// and that work itself needs a callback from the same owner. Nothing may
// deadlock: the nested Await keeps serving the mailbox.
func TestMailboxNestedDispatchFromJob(t *testing.T) {
	mb := NewMailbox()
	owner := goroutineID()
	var depth, maxDepth int
	enter := func() func() {
		depth++
		maxDepth = max(maxDepth, depth)
		return func() { depth-- }
	}
	var innerOn uint64
	outer := Go(nil, func() error {
		return mb.Call(func() error { // the outer program's callback
			defer enter()()
			inner := Go(nil, func() error { // the callback dispatches a program
				return mb.Call(func() error { // which calls back too
					defer enter()()
					innerOn = goroutineID()
					return nil
				})
			})
			return mb.Await(inner) // and waits for its result
		})
	})
	if err := awaitWithin(mb, outer, "nested dispatch from a callback"); err != nil {
		t.Fatal(err)
	}
	if innerOn != owner || maxDepth != 2 {
		t.Fatalf("inner callback on goroutine %d (owner %d), max nesting %d (want 2)", innerOn, owner, maxDepth)
	}
}

func TestMailboxPanickingJobBecomesErrorAndLaterJobsRun(t *testing.T) {
	mb := NewMailbox()
	bad := mb.Post(func() error { panic("callback bug") })
	var ran bool
	good := mb.Post(func() error { ran = true; return nil })
	mb.Drain()
	var pe *PanicError
	if err := bad.Err(); !errors.As(err, &pe) || pe.Value != "callback bug" {
		t.Fatalf("panicking job's error = %v, want a *PanicError", err)
	}
	if !ran || good.Err() != nil {
		t.Fatal("the job after a panicking one did not run")
	}
	// Call from another goroutine sees the panic as its error.
	errc := make(chan error, 1)
	go func() { errc <- mb.Call(func() error { panic("again") }) }()
	for !mb.Pending() {
		time.Sleep(100 * time.Microsecond)
	}
	mb.Drain()
	if err := <-errc; !errors.As(err, &pe) || pe.Value != "again" {
		t.Fatalf("Call = %v, want a *PanicError", err)
	}
}

func TestMailboxJobErrorGoesToItsEvent(t *testing.T) {
	mb := NewMailbox()
	want := errors.New("callback raised")
	ev := mb.Post(func() error { return want })
	if !mb.Pending() {
		t.Fatal("Pending is false after a post")
	}
	mb.Drain()
	if ev.Err() != want {
		t.Fatalf("event error = %v, want %v", ev.Err(), want)
	}
}

func TestMailboxCloseFailsPendingAndLaterPostsFast(t *testing.T) {
	mb := NewMailbox()
	var ran bool
	pending := mb.Post(func() error { ran = true; return nil })
	mb.Close()
	if err := pending.Err(); err != ErrClosed {
		t.Fatalf("pending job's event after Close: %v, want ErrClosed", err)
	}
	late := mb.Post(func() error { ran = true; return nil })
	if err := late.Err(); err != ErrClosed {
		t.Fatalf("post after Close: %v, want ErrClosed at once", err)
	}
	withinTimeout(t, "Call after Close", func() {
		if err := mb.Call(func() error { return nil }); err != ErrClosed {
			t.Errorf("Call after Close = %v, want ErrClosed", err)
		}
	})
	mb.Drain()
	if ran || mb.Pending() {
		t.Fatal("a job ran, or is pending, after Close")
	}
	mb.Close() // twice is fine
	if err := mb.Await(Completed(nil)); err != nil {
		t.Fatalf("Await on a closed mailbox: %v", err)
	}
}

// TestMailboxCloseWakesProgramWaitingOnCallback: a program blocked in Call
// when its thread ends gets ErrClosed instead of hanging.
func TestMailboxCloseWakesProgramWaitingOnCallback(t *testing.T) {
	mb := NewMailbox()
	program := Go(nil, func() error { return mb.Call(func() error { return nil }) })
	for !mb.Pending() {
		time.Sleep(100 * time.Microsecond)
	}
	mb.Close()
	if err := mustFinish(t, program, "program calling back into a closed mailbox"); err != ErrClosed {
		t.Fatalf("program error = %v, want ErrClosed", err)
	}
}
