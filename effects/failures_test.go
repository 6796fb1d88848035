package effects

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// starlarkLikeError has the method go.starlark.net's *EvalError has: its
// Error is the message and its Backtrace the whole traceback.
type starlarkLikeError struct{ msg, backtrace string }

func (e *starlarkLikeError) Error() string     { return e.msg }
func (e *starlarkLikeError) Backtrace() string { return e.backtrace }

func TestFailuresEmptyTakeIsNil(t *testing.T) {
	var f Failures
	if err := f.Take(); err != nil {
		t.Fatalf("Take on no failures = %#v, want a nil error", err)
	}
	f.Add(nil)
	if err := f.Take(); err != nil {
		t.Fatalf("Add(nil) recorded a failure: %v", err)
	}
}

func TestFailuresKeepsFirstWithTracebackAndCountsTheRest(t *testing.T) {
	var f Failures
	first := &starlarkLikeError{
		msg: "division by zero",
		backtrace: "Traceback (most recent call last):\n" +
			"  tap.star:3:10: in on_tap\n" +
			"Error: division by zero\n",
	}
	f.Add(fmt.Errorf("tap on cpu:0: %w", first))
	f.Add(errors.New("second"))
	f.Add(errors.New("third"))
	err := f.Take()
	var ce *CallbackError
	if !errors.As(err, &ce) {
		t.Fatalf("Take = %T, want *CallbackError", err)
	}
	want := "CallbackError: tap on cpu:0: division by zero\n" +
		"Traceback (most recent call last):\n" +
		"  tap.star:3:10: in on_tap\n" +
		"Error: division by zero\n" +
		"(and 2 more callback failures)"
	if got := err.Error(); got != want {
		t.Fatalf("Error() =\n%s\nwant\n%s", got, want)
	}
	if ce.More != 2 || !errors.Is(err, first) {
		t.Fatalf("More = %d, Is(first) = %v", ce.More, errors.Is(err, first))
	}
	if err := f.Take(); err != nil {
		t.Fatalf("second Take = %v, want nil after reset", err)
	}
	f.Add(errors.New("after reset"))
	if got := f.Take().Error(); got != "CallbackError: after reset" {
		t.Fatalf("after reset: %q", got)
	}
}

func TestCallbackErrorText(t *testing.T) {
	for _, c := range []struct {
		e    CallbackError
		want string
	}{
		{CallbackError{Message: "m"}, "CallbackError: m"},
		{CallbackError{Message: "m", More: 1}, "CallbackError: m\n(and 1 more callback failure)"},
		{CallbackError{Message: "m", Traceback: "tb1\ntb2", More: 3}, "CallbackError: m\ntb1\ntb2\n(and 3 more callback failures)"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: Error() = %q, want %q", c.e, got, c.want)
		}
	}
}

func TestFailuresPanicKeepsItsStack(t *testing.T) {
	var f Failures
	f.Add(runRecovered(func() error { panic("tap bug") }))
	ce := f.Take().(*CallbackError)
	if ce.Message != "panic: tap bug" || ce.Traceback == "" {
		t.Fatalf("Message %q, Traceback %q", ce.Message, ce.Traceback)
	}
}

func TestFailuresConcurrentAddsAreAllCounted(t *testing.T) {
	var f Failures
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				f.Add(errors.New("x"))
			}
		})
	}
	wg.Wait()
	if ce := f.Take().(*CallbackError); ce.More != 799 {
		t.Fatalf("More = %d, want 799", ce.More)
	}
}
