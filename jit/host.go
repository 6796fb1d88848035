package jit

import (
	"errors"

	"github.com/jaxsh/jaxsh/trace"
)

// Host operations. A running program's host ops (debug_print, id_tap, call)
// reach the host through the Host its caller passed to Execute. The front
// end makes one Host per dispatch: it knows the thread that dispatched the
// program (whose stdout and callbacks these are) and the device it runs on.
// Backends know nothing of Starlark: they hand over the equation and its
// operands' bytes.

// A HostArg is one array operand of a host op, in host memory in FromHost's
// layout. Data is valid only during the Host method it was passed to: a Host
// that keeps a value (a tap that runs later) copies it.
type HostArg struct {
	AVal trace.AVal
	Data []byte
}

// A Host runs a program's host operations. Its methods are called on the
// goroutine running the program, in program order; the program waits for
// each to return, so only Call should block for long.
type Host interface {
	// Print writes a debug_print equation's text, with its array operands
	// (tokens left out) in place of the {} fields of its fmt.
	Print(e *trace.Eqn, args []HostArg) error
	// Tap hands an id_tap equation's operands to its callback, which may run
	// later; a tap's failure is the Host's to report (at the next barrier),
	// so an error here means the tap could not even be sent.
	Tap(e *trace.Eqn, args []HostArg) error
	// Call runs a call equation's callback and returns its results, one
	// slice per result aval of the equation, in FromHost's layout.
	Call(e *trace.Eqn, args []HostArg) ([][]byte, error)
}

// ErrNoHost is what a host op fails with when its program was run without a
// Host (a caller that has no thread to run callbacks on).
var ErrNoHost = errors.New("host operation in a program run without a host")

// NoHost is a Host for programs that have no host ops; every method fails
// with ErrNoHost.
var NoHost Host = noHost{}

type noHost struct{}

func (noHost) Print(*trace.Eqn, []HostArg) error            { return ErrNoHost }
func (noHost) Tap(*trace.Eqn, []HostArg) error              { return ErrNoHost }
func (noHost) Call(*trace.Eqn, []HostArg) ([][]byte, error) { return nil, ErrNoHost }
