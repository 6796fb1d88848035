package effects

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Failures collects the errors of asynchronous callbacks (id_tap, id_print)
// until the thread's next effects_barrier reports them. No program waits for
// a tap, so nobody else would see its error; host_callback.txt does the same
// ("the last exception is recorded and the subsequent barrier_wait() will
// raise"), except that we keep the first failure, the cause of any that
// follow, and count the rest.
//
// The zero value is ready to use. Methods are safe for concurrent use: Go
// callbacks may fail on any goroutine.
type Failures struct {
	mu    sync.Mutex
	first error
	more  int
}

// Add records a callback failure; nil is ignored. The first failure since
// the last Take is kept whole; later ones are only counted.
func (f *Failures) Add(err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first == nil {
		f.first = err
	} else {
		f.more++
	}
}

// Take returns nil if no callback failed since the last Take, or else a
// *CallbackError describing the failures, and starts afresh. The result's
// static type is error so that "no failure" is a true nil.
func (f *Failures) Take() error {
	f.mu.Lock()
	first, more := f.first, f.more
	f.first, f.more = nil, 0
	f.mu.Unlock()
	if first == nil {
		return nil
	}
	return &CallbackError{
		Message:   first.Error(),
		Traceback: traceback(first),
		More:      more,
		Err:       first,
	}
}

// traceback returns the traceback an error carries, through any wrapping:
// that of the first error in its chain with a Backtrace method, as
// go.starlark.net's *EvalError and our *PanicError have; "" if none has.
func traceback(err error) string {
	var bt interface{ Backtrace() string }
	if errors.As(err, &bt) {
		return strings.TrimRight(bt.Backtrace(), "\n")
	}
	return ""
}

// A CallbackError reports the callback failures one effects_barrier found
// (SPEC §5). Its text is, line by line:
//
//	CallbackError: <Message>
//	<Traceback, its lines as they are>       (omitted when empty)
//	(and <More> more callback failures)      (omitted when More == 0;
//	                                          "failure" when More == 1)
//
// with no newline at the end.
type CallbackError struct {
	// Message is the first failure's Error() text.
	Message string
	// Traceback is the first failure's traceback (its Backtrace() text,
	// without trailing newlines), or "".
	Traceback string
	// More counts the failures after the first.
	More int
	// Err is the first failure itself.
	Err error
}

// Error returns the text described on CallbackError.
func (e *CallbackError) Error() string {
	var b strings.Builder
	b.WriteString("CallbackError: ")
	b.WriteString(e.Message)
	if e.Traceback != "" {
		b.WriteByte('\n')
		b.WriteString(e.Traceback)
	}
	if e.More > 0 {
		noun := "failures"
		if e.More == 1 {
			noun = "failure"
		}
		fmt.Fprintf(&b, "\n(and %d more callback %s)", e.More, noun)
	}
	return b.String()
}

// Unwrap returns the first failure, so errors.Is and errors.As reach it.
func (e *CallbackError) Unwrap() error {
	return e.Err
}
