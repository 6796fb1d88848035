package starlark

import (
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// float0 arrays are what the transformations give for the tangents and
// cotangents of integer and boolean values, as JAX's are: a shape and no
// data (elements of zero bytes). They print as NumPy prints JAX's, b''
// per element, and nothing computes with them.

// Float0Array is the float0 array of shape on dev.
func Float0Array(dev jit.Device, shape trace.Shape) (*Array, error) {
	return NewArrayFromHost(dev, trace.Float0, shape, nil)
}

func float0Error(what string) error {
	return fmt.Errorf("%s: float0 arrays (the tangents of integer and boolean values) have no elements to compute with", what)
}

// float0Text is NumPy's text of a float0 array of shape: b” per element,
// nested by dimension, elements separated by sep (" " for str, ", " for
// repr); rows after the first are indented by indent more (the width of
// what precedes the text on its first line).
func float0Text(shape trace.Shape, sep string, indent int) string {
	if len(shape) == 0 {
		return "b''"
	}
	var b strings.Builder
	var write func(dims trace.Shape, depth int)
	write = func(dims trace.Shape, depth int) {
		b.WriteByte('[')
		for i := range dims[0] {
			if i > 0 {
				b.WriteString(strings.TrimRight(sep, " "))
				if len(dims) > 1 {
					b.WriteString("\n" + strings.Repeat(" ", indent+depth+1))
				} else if sep != "" {
					b.WriteByte(' ')
				}
			}
			if len(dims) == 1 {
				b.WriteString("b''")
			} else {
				write(dims[1:], depth+1)
			}
		}
		b.WriteByte(']')
	}
	write(shape, 0)
	return b.String()
}
