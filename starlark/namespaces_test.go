package starlark_test

import (
	"io"

	"github.com/jaxsh/jaxsh/internal/scripttest"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// These tests are in package starlark_test, not starlark: their scripts use
// jnp, lax and nn, which live above this package (lib/...) and reach it
// through the root package that assembles them. Package starlark itself
// never imports a library.

// newSession is NewSession with every namespace and library builtin
// predeclared, as a jaxsh script sees them, plus extra.
func newSession(w io.Writer, extra starlark.StringDict) *Session {
	return scripttest.NewSession(w, extra)
}
