package numpy_test

import (
	"io"

	"github.com/jaxsh/jaxsh"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// newSession is a session whose scripts see every namespace, as a jaxsh
// script does (the error tests also reach lax and nn), plus extra.
func newSession(w io.Writer, extra starlark.StringDict) *jstarlark.Session {
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
	return jstarlark.NewSession(w, ns)
}
