package effects

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// orderLog is a log of events appended from many goroutines.
type orderLog struct {
	mu      sync.Mutex
	entries []string
}

func (l *orderLog) add(s string) {
	l.mu.Lock()
	l.entries = append(l.entries, s)
	l.mu.Unlock()
}

func (l *orderLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.entries)
}

// jitter sleeps up to max, so that goroutines finish in random order unless
// something orders them.
func jitter(max time.Duration) {
	time.Sleep(time.Duration(rand.Int64N(int64(max) + 1)))
}

// dispatch is what jit will do with Tokens alone: wait for the kinds'
// tokens, run, record.
func dispatch(tk *Tokens, device string, kinds []string, work func() error) *Event {
	done := Go(tk.Deps(kinds), work)
	tk.Record(device, kinds, done)
	return done
}

func TestTokensOrderedChainRunsInDispatchOrderAcrossDevices(t *testing.T) {
	tk, mb := NewTokens(), NewMailbox()
	var log orderLog
	const n = 100
	for i := range n {
		dispatch(tk, fmt.Sprintf("cpu:%d", i%2), []string{"print"}, func() error {
			jitter(200 * time.Microsecond)
			log.add(fmt.Sprint(i))
			return nil
		})
	}
	onOwnerWithin("Barrier", func() { tk.Barrier(mb) })
	got := log.get()
	if len(got) != n {
		t.Fatalf("%d programs ran before Barrier returned, want %d", len(got), n)
	}
	for i, s := range got {
		if s != fmt.Sprint(i) {
			t.Fatalf("program %s ran in position %d: %v", s, i, got)
		}
	}
}

// TestTokensKindsAreOrderedIndependently: prints are ordered among
// themselves and calls among themselves, but a call never waits for a
// print.
func TestTokensKindsAreOrderedIndependently(t *testing.T) {
	tk, mb := NewTokens(), NewMailbox()
	var prints, calls orderLog
	gate := NewEvent()
	// The first print blocks until the calls are all done: if calls waited
	// for prints, this would deadlock.
	dispatch(tk, "cpu:0", []string{"print"}, func() error {
		<-gate.Done()
		prints.add("0")
		return nil
	})
	var lastCall *Event
	for i := range 20 {
		dispatch(tk, "cpu:1", []string{"print"}, func() error {
			jitter(100 * time.Microsecond)
			prints.add(fmt.Sprint(i + 1))
			return nil
		})
		lastCall = dispatch(tk, "cpu:0", []string{"call"}, func() error {
			jitter(100 * time.Microsecond)
			calls.add(fmt.Sprint(i))
			return nil
		})
	}
	mustFinish(t, lastCall, "calls while the first print is blocked")
	if len(prints.get()) != 0 {
		t.Fatalf("prints ran before the first print: %v", prints.get())
	}
	gate.Set(nil)
	onOwnerWithin("Barrier", func() { tk.Barrier(mb) })
	for name, l := range map[string][]string{"prints": prints.get(), "calls": calls.get()} {
		for i, s := range l {
			if s != fmt.Sprint(i) {
				t.Fatalf("%s out of order: %v", name, l)
			}
		}
	}
	if len(prints.get()) != 21 || len(calls.get()) != 20 {
		t.Fatalf("%d prints, %d calls", len(prints.get()), len(calls.get()))
	}
}

func TestTokensProgramWithTwoKindsWaitsForBoth(t *testing.T) {
	tk := NewTokens()
	printGate, callGate := NewEvent(), NewEvent()
	dispatch(tk, "cpu:0", []string{"print"}, func() error { <-printGate.Done(); return nil })
	dispatch(tk, "cpu:1", []string{"call"}, func() error { <-callGate.Done(); return nil })
	both := dispatch(tk, "cpu:0", []string{"call", "print", "call"}, func() error { return nil })
	if deps := tk.Deps([]string{"print", "print"}); len(deps) != 1 {
		t.Fatalf("Deps of a kind named twice: %d events, want 1", len(deps))
	}
	printGate.Set(nil)
	time.Sleep(5 * time.Millisecond)
	if isDone(both) {
		t.Fatal("ran before its call token was done")
	}
	callGate.Set(nil)
	mustFinish(t, both, "program with both kinds")
}

// TestTokensUnorderedProgramsOverlap: two programs without ordered effects
// on one device each wait for the other to start, which only finishes if
// they run at the same time.
func TestTokensUnorderedProgramsOverlap(t *testing.T) {
	tk := NewTokens()
	started := [2]*Event{NewEvent(), NewEvent()}
	var progs [2]*Event
	for i := range 2 {
		progs[i] = dispatch(tk, "cpu:0", nil, func() error {
			started[i].Set(nil)
			return started[1-i].Wait()
		})
	}
	mustFinish(t, progs[0], "first unordered program")
	mustFinish(t, progs[1], "second unordered program")
}

// TestTokensBarrierWaitsForEarlierProgramThatFinishesLast: the output token
// is every unfinished program on the device, not the last one dispatched
// (programs on one device need not finish in order here).
func TestTokensBarrierWaitsForEarlierProgramThatFinishesLast(t *testing.T) {
	tk, mb := NewTokens(), NewMailbox()
	slow := dispatch(tk, "cpu:0", nil, func() error { time.Sleep(20 * time.Millisecond); return nil })
	fast := dispatch(tk, "cpu:0", nil, func() error { return nil })
	mustFinish(t, fast, "fast program")
	onOwnerWithin("Barrier", func() { tk.Barrier(mb) })
	if !isDone(slow) {
		t.Fatal("Barrier returned before the slower, earlier program finished")
	}
}

// TestTokensBarrierRunsCallbacksAndWaitsForWhatTheyDispatch: programs that
// post taps, that wait on a call, and a tap that dispatches another program;
// Barrier must run all callbacks (or the call would never return) and wait
// for the program dispatched by a callback.
func TestTokensBarrierRunsCallbacksAndWaitsForWhatTheyDispatch(t *testing.T) {
	tk, mb := NewTokens(), NewMailbox()
	owner := goroutineID()
	var taps, onOwner int
	var late *Event
	for i := range 10 {
		dispatch(tk, fmt.Sprintf("cpu:%d", i%2), nil, func() error {
			jitter(time.Millisecond)
			mb.Post(func() error {
				taps++
				if goroutineID() == owner {
					onOwner++
				}
				return nil
			})
			return nil
		})
	}
	dispatch(tk, "cpu:0", []string{"call"}, func() error {
		return mb.Call(func() error {
			late = dispatch(tk, "cpu:1", nil, func() error { time.Sleep(10 * time.Millisecond); return nil })
			return nil
		})
	})
	onOwnerWithin("Barrier", func() { tk.Barrier(mb) })
	if taps != 10 || onOwner != 10 {
		t.Fatalf("%d taps ran, %d on the owner; want 10 and 10", taps, onOwner)
	}
	if late == nil || !isDone(late) {
		t.Fatal("Barrier returned before the program a callback dispatched")
	}
	if mb.Pending() {
		t.Fatal("jobs pending after Barrier")
	}
}

func TestTokensOutputSetsArePruned(t *testing.T) {
	tk := NewTokens()
	for range 10000 {
		tk.Record("cpu:0", nil, Completed(nil))
	}
	if n := len(tk.frames[0].outputs["cpu:0"].events); n > 16 {
		t.Fatalf("%d finished events kept in the output token", n)
	}
	pending := NewEvent()
	tk.Record("cpu:0", nil, pending)
	for range 1000 {
		tk.Record("cpu:0", nil, Completed(nil))
	}
	if !slices.Contains(tk.frames[0].outputs["cpu:0"].events, pending) {
		t.Fatal("pruning dropped an unfinished program")
	}
	pending.Set(nil)
}

// TestTokensBarrierRunsJobsOfFinishedPrograms: a tap posted by a program
// that finished before the barrier (so there is nothing left to wait for)
// still runs before Barrier returns.
func TestTokensBarrierRunsJobsOfFinishedPrograms(t *testing.T) {
	tk, mb := NewTokens(), NewMailbox()
	var ran bool
	p := dispatch(tk, "cpu:0", nil, func() error {
		mb.Post(func() error { ran = true; return nil })
		return nil
	})
	mustFinish(t, p, "program posting a tap")
	onOwnerWithin("Barrier", func() { tk.Barrier(mb) })
	if !ran {
		t.Fatal("Barrier returned before running a pending tap")
	}
}
