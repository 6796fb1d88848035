package effects

import (
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestEventSetIsIdempotentFirstWins(t *testing.T) {
	ev := NewEvent()
	if ev.Err() != nil {
		t.Fatal("pending event reports an error")
	}
	select {
	case <-ev.Done():
		t.Fatal("new event is done")
	default:
	}
	first := errors.New("first")
	if !ev.Set(first) {
		t.Fatal("first Set reported it did not complete the event")
	}
	if ev.Set(nil) || ev.Set(errors.New("second")) {
		t.Fatal("a later Set reported it completed the event")
	}
	if ev.Err() != first || ev.Wait() != first {
		t.Fatalf("Err = %v, Wait = %v; want the first error", ev.Err(), ev.Wait())
	}
}

func TestCompletedIsDone(t *testing.T) {
	for _, want := range []error{nil, io.EOF} {
		ev := Completed(want)
		select {
		case <-ev.Done():
		default:
			t.Fatalf("Completed(%v) is not done", want)
		}
		if ev.Err() != want || ev.Set(errors.New("late")) {
			t.Fatalf("Completed(%v): Err = %v, or a later Set won", want, ev.Err())
		}
	}
}

func TestConcurrentSetHasOneWinnerAndManyWaitersSeeIt(t *testing.T) {
	ev := NewEvent()
	const waiters, setters = 64, 8
	var seen sync.WaitGroup
	got := make([]error, waiters)
	for i := range waiters {
		seen.Go(func() { got[i] = ev.Wait() })
	}
	errs := make([]error, setters)
	var winners atomic.Int32
	var set sync.WaitGroup
	for i := range setters {
		errs[i] = errors.New("setter")
		set.Go(func() {
			if ev.Set(errs[i]) {
				winners.Add(1)
			}
		})
	}
	set.Wait()
	seen.Wait()
	if winners.Load() != 1 {
		t.Fatalf("%d setters won, want 1", winners.Load())
	}
	for i, err := range got {
		if err != ev.Err() || err == nil {
			t.Fatalf("waiter %d saw %v, the event holds %v", i, err, ev.Err())
		}
	}
}

func TestGoWaitsForEveryDep(t *testing.T) {
	a, b := NewEvent(), NewEvent()
	var ran atomic.Bool
	ev := Go([]*Event{a, nil, b}, func() error { ran.Store(true); return nil })
	a.Set(nil)
	time.Sleep(10 * time.Millisecond)
	if ran.Load() {
		t.Fatal("work ran before its second dep was done")
	}
	b.Set(nil)
	if err := mustFinish(t, ev, "Go after both deps"); err != nil || !ran.Load() {
		t.Fatalf("err = %v, ran = %v", err, ran.Load())
	}
}

func TestGoFailedDepOnlyOrders(t *testing.T) {
	dep := Completed(errors.New("input failed"))
	ev := Go([]*Event{dep}, func() error { return nil })
	if err := mustFinish(t, ev, "Go after failed dep"); err != nil {
		t.Fatalf("a failed dep failed the work: %v", err)
	}
}

func TestGoReturnsWorkError(t *testing.T) {
	want := errors.New("work failed")
	if err := mustFinish(t, Go(nil, func() error { return want }), "Go"); err != want {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

func TestGoDoesNotKeepCallersSlice(t *testing.T) {
	gate := NewEvent()
	deps := []*Event{gate}
	ev := Go(deps, func() error { return nil })
	deps[0] = nil // reusing the slice must not drop the dependency
	time.Sleep(5 * time.Millisecond)
	select {
	case <-ev.Done():
		t.Fatal("work ran before the dep that was in the slice at call time")
	default:
	}
	gate.Set(nil)
	mustFinish(t, ev, "Go")
}

func TestGoTurnsPanicIntoPanicError(t *testing.T) {
	cause := errors.New("boom")
	err := mustFinish(t, Go(nil, func() error { panic(cause) }), "panicking work")
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %T %v, want *PanicError", err, err)
	}
	if pe.Error() != "panic: boom" || !errors.Is(err, cause) {
		t.Fatalf("Error() = %q, Is(cause) = %v", pe.Error(), errors.Is(err, cause))
	}
	if pe.Backtrace() == "" || pe.Backtrace() != pe.Stack {
		t.Fatalf("Backtrace() = %q", pe.Backtrace())
	}
}

func TestGoWorkThatCallsGoexitStillCompletes(t *testing.T) {
	err := mustFinish(t, Go(nil, func() error {
		// What t.FailNow does inside work: the goroutine ends without a
		// return value or a panic.
		runtimeGoexit()
		return nil
	}), "Goexit work")
	if err != errGoexit {
		t.Fatalf("err = %v, want errGoexit", err)
	}
}

// TestGoChainRunsInDependencyOrder builds a chain where each work item
// depends on the previous one and checks they ran in order, with the newest
// work dispatched first to show that order comes from deps, not dispatch.
func TestGoChainRunsInDependencyOrder(t *testing.T) {
	const n = 50
	gates := make([]*Event, n+1)
	gates[0] = NewEvent()
	var mu sync.Mutex
	var log []int
	for i := 1; i <= n; i++ {
		gates[i] = NewEvent()
	}
	results := make([]*Event, n+1)
	for i := n; i >= 1; i-- { // newest first
		results[i] = Go([]*Event{gates[i-1]}, func() error {
			mu.Lock()
			log = append(log, i)
			mu.Unlock()
			gates[i].Set(nil)
			return nil
		})
	}
	gates[0].Set(nil)
	mustFinish(t, results[n], "end of chain")
	for i, v := range log {
		if v != i+1 {
			t.Fatalf("log = %v, want 1..%d in order", log, n)
		}
	}
}

// runtimeGoexit is runtime.Goexit, named here so the test above reads as
// what it simulates.
var runtimeGoexit = runtime.Goexit
