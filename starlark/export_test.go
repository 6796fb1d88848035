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

// EchoName is the REPL's hidden global for an expression's value.
const EchoName = echoName

// SetJitCallHook makes every top-level call of a jitted function go
// through hook instead (the export round trip of export_roundtrip_test.go).
// It returns the function that turns it off.
func SetJitCallHook(hook func(thread *starlark.Thread, j *Jitted, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) (off func()) {
	exportRoundTrip = hook
	return func() { exportRoundTrip = nil }
}

// SplitCall is what a call of j compiles for, without tracing it: the
// compile cache's key (signature and device) and the dynamic array leaves.
func (j *Jitted) SplitCall(args starlark.Tuple, kwargs []starlark.Tuple) (string, []*Array, error) {
	call, err := j.split(args, kwargs)
	if err != nil {
		return "", nil, err
	}
	return call.sig.Key() + "@" + call.dev.String(), call.leaves, nil
}
