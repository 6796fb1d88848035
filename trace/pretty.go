package trace

import "strings"

// A small Wadler–Lindig pretty printer, the algorithm of JAX's
// (jax/_src/pretty_printer.py and jaxlib/_pretty_printer.cc), so that jaxpr
// text breaks lines exactly where JAX's does: a group prints on one line
// when it fits in the remaining width, otherwise its breaks become newlines.

type doc interface{}

type (
	ppText   string
	ppBreak  string // prints as its text, or as a newline plus indentation
	ppConcat []doc
	ppGroup  struct{ child doc }
	ppNest   struct {
		n     int
		child doc
	}
)

func ppJoin(sep doc, docs []doc) doc {
	out := make(ppConcat, 0, 2*len(docs))
	for i, d := range docs {
		if i > 0 {
			out = append(out, sep)
		}
		out = append(out, d)
	}
	return out
}

// fits reports whether d printed flat takes at most width columns.
func fits(d doc, width int) bool {
	stack := []doc{d}
	for width >= 0 && len(stack) > 0 {
		d, stack = stack[len(stack)-1], stack[:len(stack)-1]
		switch x := d.(type) {
		case ppText:
			width -= len(x)
		case ppBreak:
			width -= len(x)
		case ppConcat:
			for i := len(x) - 1; i >= 0; i-- {
				stack = append(stack, x[i])
			}
		case ppGroup:
			stack = append(stack, x.child)
		case ppNest:
			stack = append(stack, x.child)
		}
	}
	return width >= 0
}

// format lays d out in lines of the given width.
func format(d doc, width int) string {
	type agendum struct {
		indent int
		flat   bool
		d      doc
	}
	var out strings.Builder
	k := 0 // current column
	stack := []agendum{{0, false, d}}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := a.d.(type) {
		case ppText:
			out.WriteString(string(x))
			k += len(x)
		case ppBreak:
			if a.flat {
				out.WriteString(string(x))
				k += len(x)
			} else {
				out.WriteByte('\n')
				out.WriteString(strings.Repeat(" ", a.indent))
				k = a.indent
			}
		case ppConcat:
			for i := len(x) - 1; i >= 0; i-- {
				stack = append(stack, agendum{a.indent, a.flat, x[i]})
			}
		case ppGroup:
			stack = append(stack, agendum{a.indent, fits(x, width-k), x.child})
		case ppNest:
			stack = append(stack, agendum{a.indent + x.n, a.flat, x.child})
		}
	}
	return out.String()
}
