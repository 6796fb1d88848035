package jit

import (
	"errors"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/trace"
)

// Host operations. A compiled program's host ops (debug_print today;
// id_tap and call later) call back into the host on the goroutine running
// the program: dispatch is synchronous, so a backend runs them in program
// order as it meets them, and the front end finds its session from that
// goroutine.

// A HostCallback is what a backend calls for a host op whose params hold a
// callback (id_tap, call), with the op's array operands, on the goroutine
// running the program.
type HostCallback interface {
	trace.Callback
	CallHost(args []Buffer) error
}

// A Printer prints one debug_print equation's runtime values: format holds
// one {} per array operand ({{ and }} for braces), args the operands'
// buffers (no token). It runs on the goroutine running the program.
type Printer func(format string, args []Buffer) error

var printer atomic.Pointer[Printer]

// SetPrinter installs the function that backends call for debug_print
// (the dialect installs one that writes to the running session's stdout).
func SetPrinter(p Printer) { printer.Store(&p) }

// DebugPrint is what a backend calls to run a debug_print equation: it
// hands the format and the array operands to the installed Printer.
func DebugPrint(format string, args []Buffer) error {
	p := printer.Load()
	if p == nil || *p == nil {
		return errors.New("debug_print: no printer installed")
	}
	return (*p)(format, args)
}
