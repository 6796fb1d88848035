package starlark

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/starlark/dialect"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A REPL runs interactive input against one set of globals that lives as
// long as the REPL: each chunk (one statement, possibly a multi-line block)
// sees what earlier chunks defined. The repl package drives it; an embedder
// can drive it too. Parse, Exec and Complete must not be called
// concurrently with each other; Interrupt may be called from any goroutine.
type REPL struct {
	session *Session
	thread  *starlark.Thread
	globals starlark.StringDict
	effects *threadState // the thread's, kept here for Interrupt's goroutine

	interrupted atomic.Bool // Interrupt was called since the current Exec began
}

// ErrInterrupted is what Exec returns when Interrupt stopped the chunk.
var ErrInterrupted = errors.New("KeyboardInterrupt")

// REPLFilename is the file name of REPL input in positions and tracebacks,
// as in Python.
const REPLFilename = "<stdin>"

// replOptions are FileOptions plus load bindings that stay global, so that
// `load("lib.star", "f")` typed at the prompt defines f for later chunks
// (go.starlark.net's REPL does the same).
var replOptions = func() *syntax.FileOptions {
	o := *FileOptions
	o.LoadBindsGlobally = true
	return &o
}()

// echoName is the hidden global an expression statement is assigned to, so
// that it runs as ordinary top-level code (its traceback reads "in
// <toplevel>", as in a script) and its value can then be echoed. It exists
// only while that statement runs.
const echoName = "__repl_value__"

// NewREPL returns a REPL whose chunks run on a new thread of s (so print,
// load and LogCompiles behave as in scripts). Its globals start as the
// session's predeclared names: go.starlark.net's REPL chunks have no
// separate predeclared environment, so they are globals a chunk may rebind.
func (s *Session) NewREPL() *REPL {
	g := make(starlark.StringDict, len(s.predeclared))
	for k, v := range s.predeclared {
		g[k] = v
	}
	th := s.NewThread("main")
	return &REPL{session: s, thread: th, globals: g, effects: stateOf(th)}
}

// Close ends the REPL's thread after the implicit barrier: it waits for
// every computation the session dispatched and the callbacks they trigger,
// and returns the first callback or computation failure nobody saw.
func (r *REPL) Close() error {
	r.thread.Uncancel()
	r.effects.renewContext() // a Ctrl-C before the end stopped only what ran then
	return CloseThread(r.thread)
}

// Running counts the computations the REPL dispatched that are still
// running (Run says so at exit before it waits for them).
func (r *REPL) Running() int { return Running(r.thread) }

// Parse reads one chunk of REPL input with the dialect's rewrites, calling
// readline for each line it needs (see dialect.ParseCompoundStmt). A blank
// line ends an open block. The chunk may hold no statements.
func (r *REPL) Parse(readline func() ([]byte, error)) (*syntax.File, error) {
	return dialect.ParseCompoundStmt(replOptions, REPLFilename, readline)
}

// Exec runs a parsed chunk. Each top-level expression statement that gives a
// value other than None prints the value's repr on the session's stdout
// (JAX's Array(...) text for arrays) and binds it to `_`, as Python's REPL
// does. Statements after a failing one do not run. The error is one that
// FormatError renders, or ErrInterrupted.
func (r *REPL) Exec(f *syntax.File) error {
	r.interrupted.Store(false)
	r.thread.Uncancel()      // an Interrupt that came after the previous chunk ended
	r.effects.renewContext() // the same, for the thread's waits and computations
	if dumpEnabled("syntax") {
		fmt.Fprintf(os.Stderr, "=== syntax of %s (after the dialect's rewrites)\n%s\n", f.Path, dialect.Format(f))
	}
	// One statement at a time, so that `x = f(); x` echoes x and `1; _ + 1`
	// sees the `_` the first statement set. A chunk holds one compound
	// statement or a line of simple ones, so splitting it changes nothing
	// else (a decorated def is a def and an assignment, run in order).
	for _, stmt := range f.Stmts {
		expr, isExpr := stmt.(*syntax.ExprStmt)
		if isExpr {
			start, _ := expr.X.Span()
			stmt = &syntax.AssignStmt{
				OpPos: start,
				Op:    syntax.EQ,
				LHS:   &syntax.Ident{NamePos: start, Name: echoName},
				RHS:   expr.X,
			}
		}
		one := &syntax.File{Path: f.Path, Options: f.Options, Stmts: []syntax.Stmt{stmt}}
		_, err := runThread(r.thread, func() (struct{}, error) {
			return struct{}{}, starlark.ExecREPLChunk(one, r.thread, r.globals)
		})
		var value starlark.Value
		if isExpr {
			value = r.globals[echoName]
			delete(r.globals, echoName)
		}
		if err != nil {
			if r.interrupted.Load() {
				return ErrInterrupted
			}
			return err
		}
		if isExpr && value != nil && value != starlark.None {
			r.globals["_"] = value
			// The echo may wait for a computation: as the thread, so that
			// Interrupt ends the wait and a failure is the chunk's error.
			text, err := runThread(r.thread, func() (string, error) { return EchoText(value), nil })
			if err != nil {
				if r.interrupted.Load() {
					return ErrInterrupted
				}
				return err
			}
			fmt.Fprintln(stdoutOf(r.thread), text)
		}
	}
	return nil
}

// Interrupt stops the chunk that Exec is running at its next step, and makes
// that Exec return ErrInterrupted; between chunks it has no effect. A Go
// builtin that is already running (a large kernel) finishes first, but a
// wait for a computation's result ends at once (the computation goes on).
func (r *REPL) Interrupt() {
	r.interrupted.Store(true)
	r.thread.Cancel(ErrInterrupted.Error())
	r.effects.interrupt(ErrInterrupted) // waits end, computations stop
}

// Globals are the REPL's globals: the names its chunks defined and the
// session's predeclared ones (the repl package completes names from them).
// Read them between chunks, never while Exec runs.
func (r *REPL) Globals() starlark.StringDict { return r.globals }

// EchoText is how the REPL echoes a value: its repr, as JAX's REPL shows
// it. That is the value's String but for dtypes and devices, whose str
// (what print shows) is their bare name where JAX's repr is
// dtype('float32') and CpuDevice(id=0).
func EchoText(v starlark.Value) string {
	switch x := v.(type) {
	case DType:
		return "dtype('" + x.DT.Name() + "')"
	case Device:
		kind := "Cpu"
		if x.D.Platform() == "cuda" {
			kind = "Cuda"
		}
		return fmt.Sprintf("%sDevice(id=%d)", kind, x.D.ID())
	}
	return v.String()
}
