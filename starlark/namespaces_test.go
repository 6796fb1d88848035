package starlark_test

import (
	"io"

	"github.com/jaxsh/jaxsh"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// These tests are in package starlark_test, not starlark: their scripts use
// jnp, lax and nn, which live above this package (lib/...) and reach it
// through the root package that assembles them. Package starlark itself
// never imports a library.

// newSession is NewSession with every namespace predeclared, as a jaxsh
// script sees them, plus extra.
func newSession(w io.Writer, extra starlark.StringDict) *Session {
	ns, err := jaxsh.Namespaces(nil)
	if err != nil {
		panic(err)
	}
	for k, v := range jaxsh.Builtins() {
		ns[k] = v
	}
	for k, v := range extra {
		ns[k] = v
	}
	return NewSession(w, ns)
}
