package numpy_test

import (
	"io"

	"github.com/jaxsh/jaxsh/internal/scripttest"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// newSession is a session whose scripts see every namespace, as a jaxsh
// script does (the error tests also reach lax and nn), plus extra.
func newSession(w io.Writer, extra starlark.StringDict) *jstarlark.Session {
	return scripttest.NewSession(w, extra)
}
