package effects

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// logAfter returns work that sleeps then logs s, so that unordered work
// would log out of order.
func logAfter(log *orderLog, d time.Duration, s string) func(*Program) error {
	return func(*Program) error {
		time.Sleep(d)
		log.add(s)
		return nil
	}
}

func wantLog(t *testing.T, log *orderLog, want ...string) {
	t.Helper()
	if got := log.get(); !slices.Equal(got, want) {
		t.Fatalf("log = %v, want %v", got, want)
	}
}

func TestContextDispatchWaitsForInputsButNotTheirErrors(t *testing.T) {
	ctx := NewContext()
	input, failed := NewEvent(), Completed(errors.New("input failed"))
	var sawInput error
	p := ctx.Dispatch("cpu:0", nil, []*Event{input, failed}, func(p *Program) error {
		if !isDone(input) {
			return errors.New("ran before its input was ready")
		}
		sawInput = failed.Err()
		if p.Device() != "cpu:0" || p.Context() != ctx {
			return errors.New("wrong program identity")
		}
		return nil
	})
	time.Sleep(2 * time.Millisecond)
	input.Set(nil)
	if err := awaitWithin(ctx.Mailbox, p, "program"); err != nil || sawInput == nil {
		t.Fatalf("err = %v, input error seen = %v", err, sawInput)
	}
}

func TestProgramCallRunsOnOwnerAndReturnsItsError(t *testing.T) {
	ctx := NewContext()
	owner := goroutineID()
	var on uint64
	want := errors.New("callback raised")
	p := ctx.Dispatch("cpu:0", []string{"call"}, nil, func(p *Program) error {
		if err := p.Call(func() error { on = goroutineID(); return nil }); err != nil {
			return err
		}
		return p.Call(func() error { return want })
	})
	if err := awaitWithin(ctx.Mailbox, p, "program with calls"); err != want {
		t.Fatalf("program error = %v, want the callback's %v", err, want)
	}
	if on != owner {
		t.Fatalf("callback on goroutine %d, owner %d", on, owner)
	}
	panicking := ctx.Dispatch("cpu:0", nil, nil, func(p *Program) error {
		return p.Call(func() error { panic("bad callback") })
	})
	var pe *PanicError
	if err := awaitWithin(ctx.Mailbox, panicking, "panicking call"); !errors.As(err, &pe) {
		t.Fatalf("program error = %v, want a *PanicError", err)
	}
	if err := ctx.Barrier(); err != nil {
		t.Fatalf("a failed call is the program's error, not a tap failure: %v", err)
	}
}

func TestProgramTapFailuresReachTheNextBarrierOnly(t *testing.T) {
	ctx := NewContext()
	var ran []int
	ctx.Dispatch("cpu:0", nil, nil, func(p *Program) error {
		for i := range 5 {
			p.Tap(func() error {
				ran = append(ran, i)
				switch i {
				case 1:
					return errors.New("tap 1 failed")
				case 3:
					panic("tap 3 panicked")
				}
				return nil
			})
		}
		return nil
	})
	var err error
	onOwnerWithin("Barrier", func() { err = ctx.Barrier() })
	var ce *CallbackError
	if !errors.As(err, &ce) || ce.Message != "tap 1 failed" || ce.More != 1 {
		t.Fatalf("Barrier = %v, want the first tap's failure and 1 more", err)
	}
	if !slices.Equal(ran, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("taps ran %v, want all in post order", ran)
	}
	if err := ctx.Barrier(); err != nil {
		t.Fatalf("second Barrier = %v, want nil", err)
	}
}

// TestCallbackDispatchIsOrderedInsideItsProgram: P1 prints A, calls back,
// prints C; the callback dispatches P2, which prints B, without waiting for
// it; P3, dispatched before the callback even ran, prints D. Program order
// is A B C D: B precedes C because the call waits for the callback's
// ordered work, and nothing deadlocks although P2 is dispatched while P1
// (which holds the print token P3 waits for) is running.
func TestCallbackDispatchIsOrderedInsideItsProgram(t *testing.T) {
	ctx := NewContext()
	var log orderLog
	both := []string{"print", "call"}
	ctx.Dispatch("cpu:0", both, nil, func(p *Program) error {
		log.add("A")
		if err := p.Call(func() error {
			ctx.Dispatch("cpu:1", []string{"print"}, nil, logAfter(&log, 10*time.Millisecond, "B"))
			return nil
		}); err != nil {
			return err
		}
		log.add("C")
		return nil
	})
	ctx.Dispatch("cpu:1", both, nil, logAfter(&log, 0, "D"))
	onOwnerWithin("Barrier", func() { ctx.Barrier() })
	wantLog(t, &log, "A", "B", "C", "D")
}

// TestCallbackDispatchFollowsEarlierPrograms: a callback's work waits for
// ordered effects of programs dispatched before its program, even of kinds
// its program does not have.
func TestCallbackDispatchFollowsEarlierPrograms(t *testing.T) {
	ctx := NewContext()
	var log orderLog
	ctx.Dispatch("cpu:0", []string{"print"}, nil, logAfter(&log, 20*time.Millisecond, "earlier"))
	p := ctx.Dispatch("cpu:1", []string{"call"}, nil, func(p *Program) error {
		return p.Call(func() error {
			ctx.Dispatch("cpu:1", []string{"print"}, nil, logAfter(&log, 0, "callback's"))
			return nil
		})
	})
	awaitWithin(ctx.Mailbox, p, "program")
	onOwnerWithin("Barrier", func() { ctx.Barrier() })
	wantLog(t, &log, "earlier", "callback's")
}

// TestThreadDispatchAfterCallbackFollowsItsWork: a tap (not waited for by
// its program) dispatches a slow print; a print the thread dispatches after
// the tap ran must come after it, although its program has no print.
func TestThreadDispatchAfterCallbackFollowsItsWork(t *testing.T) {
	ctx := NewContext()
	var log orderLog
	p := ctx.Dispatch("cpu:0", nil, nil, func(p *Program) error {
		p.Tap(func() error {
			ctx.Dispatch("cpu:0", []string{"print"}, nil, logAfter(&log, 20*time.Millisecond, "from tap"))
			return nil
		})
		return nil
	})
	awaitWithin(ctx.Mailbox, p, "program")
	ctx.Mailbox.Drain() // the builtin hook runs the tap
	ctx.Dispatch("cpu:1", []string{"print"}, nil, logAfter(&log, 0, "after"))
	onOwnerWithin("Barrier", func() { ctx.Barrier() })
	wantLog(t, &log, "from tap", "after")
}

// TestCallbackCallingJitWithCallbackDoesNotDeadlock is "a callback calls
// jit" with ordered calls all the way down: P1's callback dispatches P2,
// which has a call of its own, and waits for it.
func TestCallbackCallingJitWithCallbackDoesNotDeadlock(t *testing.T) {
	ctx := NewContext()
	call := []string{"call"}
	var depth int
	p1 := ctx.Dispatch("cpu:0", call, nil, func(p *Program) error {
		return p.Call(func() error {
			p2 := ctx.Dispatch("cpu:0", call, nil, func(p *Program) error {
				return p.Call(func() error { depth = 2; return nil })
			})
			return ctx.Mailbox.Await(p2)
		})
	})
	// A later program with the same kind waits for P1; the callback's P2
	// must not wait for it.
	p3 := ctx.Dispatch("cpu:0", call, nil, func(*Program) error { return nil })
	if err := awaitWithin(ctx.Mailbox, p3, "program after nested calls"); err != nil || depth != 2 || !isDone(p1) {
		t.Fatalf("err = %v, depth = %d, P1 done = %v", err, depth, isDone(p1))
	}
}

// TestNestedCallbackDoesNotWaitForBlockedProgram: P0 prints and calls back;
// its callback J0 waits for a gate. P1, dispatched after P0, only taps; its
// tap J1 runs nested inside J0's wait, dispatches a print and waits for it,
// then opens the gate. Following P0's print token would wait for P0, which
// waits for J0, which cannot resume before J1 returns: a deadlock. The
// print must not wait for P0.
func TestNestedCallbackDoesNotWaitForBlockedProgram(t *testing.T) {
	ctx := NewContext()
	var log orderLog
	gate, j0Waiting := NewEvent(), NewEvent()
	p0 := ctx.Dispatch("cpu:0", []string{"print", "call"}, nil, func(p *Program) error {
		log.add("P0 before call")
		if err := p.Call(func() error {
			j0Waiting.Set(nil)
			return ctx.Mailbox.Await(gate)
		}); err != nil {
			return err
		}
		log.add("P0 after call")
		return nil
	})
	ctx.Dispatch("cpu:1", nil, nil, func(p *Program) error {
		<-j0Waiting.Done() // so that J1 runs inside J0's wait
		p.Tap(func() error {
			print := ctx.Dispatch("cpu:1", []string{"print"}, nil, logAfter(&log, 0, "J1's print"))
			err := ctx.Mailbox.Await(print)
			gate.Set(nil)
			return err
		})
		return nil
	})
	if err := awaitWithin(ctx.Mailbox, p0, "P0"); err != nil {
		t.Fatal(err)
	}
	onOwnerWithin("Barrier", func() {
		if err := ctx.Barrier(); err != nil {
			t.Error(err)
		}
	})
	wantLog(t, &log, "P0 before call", "J1's print", "P0 after call")
}

// TestNestedCallbackStaysOrderedAfterBlockedCallbacksOwnWork: J0 (P0's
// callback) dispatches a slow print, then a program P5 whose callback J5
// runs nested inside J0's wait and prints. J5's print may follow J0's
// (J0's own work does not depend on P0), and must.
func TestNestedCallbackStaysOrderedAfterBlockedCallbacksOwnWork(t *testing.T) {
	ctx := NewContext()
	var log orderLog
	p0 := ctx.Dispatch("cpu:0", []string{"call"}, nil, func(p *Program) error {
		return p.Call(func() error {
			ctx.Dispatch("cpu:0", []string{"print"}, nil, logAfter(&log, 20*time.Millisecond, "J0's print"))
			p5 := ctx.Dispatch("cpu:1", []string{"call"}, nil, func(p *Program) error {
				return p.Call(func() error {
					ctx.Dispatch("cpu:1", []string{"print"}, nil, logAfter(&log, 0, "J5's print"))
					return nil
				})
			})
			return ctx.Mailbox.Await(p5)
		})
	})
	if err := awaitWithin(ctx.Mailbox, p0, "P0"); err != nil {
		t.Fatal(err)
	}
	onOwnerWithin("Barrier", func() { ctx.Barrier() })
	wantLog(t, &log, "J0's print", "J5's print")
}

// TestWaitOrderedPutsHostPrintAfterDevicePrints: a print outside any trace
// comes after the prints already dispatched, including one that a callback
// dispatches while the thread waits.
func TestWaitOrderedPutsHostPrintAfterDevicePrints(t *testing.T) {
	ctx := NewContext()
	var log orderLog
	ctx.Dispatch("cpu:0", []string{"print", "call"}, nil, func(p *Program) error {
		time.Sleep(5 * time.Millisecond)
		log.add("device 1")
		return p.Call(func() error {
			ctx.Dispatch("cpu:1", []string{"print"}, nil, logAfter(&log, 5*time.Millisecond, "device 2"))
			return nil
		})
	})
	onOwnerWithin("WaitOrdered", func() { ctx.WaitOrdered("print") })
	log.add("host")
	wantLog(t, &log, "device 1", "device 2", "host")
}

// TestBarrierInsideCallbackWaitsForItsWorkNotItsProgram: effects_barrier
// called by a callback must not wait for the program that is waiting for
// the callback.
func TestBarrierInsideCallbackWaitsForItsWorkNotItsProgram(t *testing.T) {
	ctx := NewContext()
	var inner *Event
	var innerDoneAtBarrier bool
	p := ctx.Dispatch("cpu:0", []string{"call"}, nil, func(p *Program) error {
		return p.Call(func() error {
			inner = ctx.Dispatch("cpu:1", nil, nil, func(*Program) error {
				time.Sleep(5 * time.Millisecond)
				return nil
			})
			err := ctx.Barrier()
			innerDoneAtBarrier = isDone(inner)
			return err
		})
	})
	if err := awaitWithin(ctx.Mailbox, p, "program whose callback calls Barrier"); err != nil {
		t.Fatal(err)
	}
	if !innerDoneAtBarrier {
		t.Fatal("Barrier inside a callback returned before the callback's own program")
	}
}

func TestContextCloseRunsEverythingThenRefusesCallbacks(t *testing.T) {
	ctx := NewContext()
	var tapped bool
	ctx.Dispatch("cpu:0", nil, nil, func(p *Program) error {
		time.Sleep(2 * time.Millisecond)
		p.Tap(func() error { tapped = true; return errors.New("late tap") })
		return nil
	})
	var err error
	onOwnerWithin("Close", func() { err = ctx.Close() })
	if !tapped || err == nil || err.Error() != "CallbackError: late tap" {
		t.Fatalf("tap ran = %v, Close = %v", tapped, err)
	}
	after := ctx.Dispatch("cpu:0", []string{"call"}, nil, func(p *Program) error {
		p.Tap(func() error { return nil })
		return p.Call(func() error { return nil })
	})
	if err := mustFinish(t, after, "program calling back after Close"); err != ErrClosed {
		t.Fatalf("call after Close = %v, want ErrClosed", err)
	}
	if err := ctx.Failures.Take(); err == nil || !errors.Is(err, ErrClosed) {
		t.Fatalf("tap after Close recorded %v, want ErrClosed", err)
	}
}

// ExampleContext shows the shape of an integration: a program with an
// ordered print and a call, the thread reading its result, and the barrier
// at the end of the script.
func ExampleContext() {
	ctx := NewContext()
	// Dispatch returns at once; the program runs when its token is free.
	result := ctx.Dispatch("cpu:0", []string{"print", "call"}, nil, func(p *Program) error {
		fmt.Println("device: before the call")
		var answer int
		if err := p.Call(func() error { // runs on the thread, in Await below
			answer = 42
			return nil
		}); err != nil {
			return err
		}
		fmt.Println("device: callback answered", answer)
		return nil
	})
	ctx.WaitOrdered("print") // a host print waits for earlier device prints
	fmt.Println("host: after the program's prints")
	if err := ctx.Mailbox.Await(result); err != nil {
		fmt.Println(err)
	}
	fmt.Println("end:", ctx.Close())
	// Output:
	// device: before the call
	// device: callback answered 42
	// host: after the program's prints
	// end: <nil>
}
