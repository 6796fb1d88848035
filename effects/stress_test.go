package effects

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStressThreadsAndDevices runs 4 user threads, each with its own
// Context, dispatching ordered prints onto 2 devices with random delays,
// with calls whose callbacks dispatch nested prints, taps, host prints and
// waits mixed in. All threads log into one shared log. Each thread's
// entries must come out in its program order; taps and calls must run on
// their own thread's goroutine (their unlocked counters are checked by the
// race detector too); tap failures must all reach the thread's final
// barrier.
func TestStressThreadsAndDevices(t *testing.T) {
	const threads, programs = 4, 60
	var shared orderLog
	expected := make([][]string, threads)
	problems := make(chan string, 100)
	var wg sync.WaitGroup
	for th := range threads {
		wg.Go(func() {
			expected[th] = stressThread(th, programs, &shared, problems)
		})
	}
	wg.Wait()
	close(problems)
	for p := range problems {
		t.Error(p)
	}
	got := make([][]string, threads)
	for _, e := range shared.get() {
		th := int(e[0] - '0')
		got[th] = append(got[th], e)
	}
	for th := range threads {
		if !slices.Equal(got[th], expected[th]) {
			t.Errorf("thread %d logged\n%v\nwant\n%v", th, got[th], expected[th])
		}
	}
}

// stressThread is one user thread: it dispatches and returns the entries it
// expects to see logged, in program order.
func stressThread(th, programs int, shared *orderLog, problems chan<- string) []string {
	ctx := NewContext()
	owner := goroutineID()
	rng := rand.New(rand.NewPCG(uint64(th), 7))
	var (
		expected    []string
		taps, fails int // touched only by callbacks, on this goroutine
	)
	report := func(format string, args ...any) {
		select {
		case problems <- fmt.Sprintf("thread %d: ", th) + fmt.Sprintf(format, args...):
		default:
		}
	}
	entry := func(s string) string { return fmt.Sprintf("%d %s", th, s) }
	logged := func(s string) func(*Program) error {
		delay := time.Duration(rng.IntN(100)) * time.Microsecond
		return func(*Program) error {
			time.Sleep(delay)
			shared.add(s)
			return nil
		}
	}
	wantTaps := 0
	wantFails := 0
	for i := range programs {
		device := fmt.Sprintf("cpu:%d", rng.IntN(2))
		switch r := rng.IntN(10); {
		case r < 5: // a plain ordered print
			e := entry(fmt.Sprint(i))
			expected = append(expected, e)
			ctx.Dispatch(device, []string{"print"}, nil, logged(e))
		case r < 7: // print, call whose callback prints through jit, print
			before, nested, after := entry(fmt.Sprint(i, "a")), entry(fmt.Sprint(i, "b")), entry(fmt.Sprint(i, "c"))
			expected = append(expected, before, nested, after)
			nestedWork := logged(nested)
			nestedDevice := fmt.Sprintf("cpu:%d", rng.IntN(2))
			ctx.Dispatch(device, []string{"print", "call"}, nil, func(p *Program) error {
				shared.add(before)
				err := p.Call(func() error {
					if goroutineID() != owner {
						report("call %d ran off its thread", i)
					}
					ctx.Dispatch(nestedDevice, []string{"print"}, nil, nestedWork)
					return nil
				})
				shared.add(after)
				return err
			})
		case r < 9: // an unordered program with taps, some failing
			fail := rng.IntN(3) == 0
			wantTaps++
			if fail {
				wantFails++
			}
			ctx.Dispatch(device, nil, nil, func(p *Program) error {
				p.Tap(func() error {
					if goroutineID() != owner {
						report("tap %d ran off its thread", i)
					}
					taps++
					if fail {
						fails++
						return errors.New("tap failed")
					}
					return nil
				})
				return nil
			})
		default: // a print outside any trace
			e := entry(fmt.Sprint(i, "h"))
			expected = append(expected, e)
			ctx.WaitOrdered("print")
			shared.add(e)
		}
		if rng.IntN(8) == 0 {
			ctx.Mailbox.Drain() // the builtin hook
		}
	}
	err := ctx.Close()
	if taps != wantTaps || fails != wantFails {
		report("%d taps (%d failed) ran, want %d (%d)", taps, fails, wantTaps, wantFails)
	}
	var ce *CallbackError
	switch {
	case wantFails == 0 && err != nil:
		report("Close = %v, want nil", err)
	case wantFails > 0 && (!errors.As(err, &ce) || ce.More != wantFails-1 || !strings.HasPrefix(err.Error(), "CallbackError: tap failed")):
		report("Close = %v, want %d tap failures", err, wantFails)
	}
	return expected
}
