package starlark

import (
	"github.com/jaxsh/jaxsh/jit"
	"go.starlark.net/starlark"
)

// Internals that the tests in package starlark_test read. They live there
// because their scripts need the library namespaces, which import this
// package.

// Buf is the array's buffer as it stands, without waiting.
func (a *Array) Buf() jit.Buffer { return a.buf }

// Live reports whether the array is deleted (donated).
func (a *Array) Live() error { return a.live() }

// RunThread runs fn as an entry point of thread (runThread).
func RunThread(thread *starlark.Thread, fn func() (struct{}, error)) (struct{}, error) {
	return runThread(thread, fn)
}

// EchoName is the REPL's hidden global for an expression's value.
const EchoName = echoName

// Globals are the REPL's globals.
func (r *REPL) Globals() starlark.StringDict { return r.globals }
