package ad

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// An Error is a failure to differentiate an equation: it carries the
// equation's source position, so that the dialect can point at the line.
type Error struct {
	Pos  trace.Pos
	Prim string
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

func eqnError(eqn *trace.Eqn, err error) error {
	if _, ok := err.(*Error); ok {
		return err
	}
	return &Error{Pos: eqn.Pos, Prim: eqn.Prim.Name, Err: err}
}

func errorf(eqn *trace.Eqn, format string, args ...any) error {
	return eqnError(eqn, fmt.Errorf(format, args...))
}
