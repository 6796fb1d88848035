package starlark

import (
	"fmt"
	"io"
	"strings"

	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	"github.com/jaxsh/jaxsh/internal/pyfmt"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// builtinPrint is print(*args, sep=" ", end="\n", ordered=True): strings
// print bare, arrays in NumPy's str() layout, everything else as str()
// does. Inside a trace (or with a traced argument) it prints nothing at
// trace time: it stages a debug_print that prints the runtime values each
// time the compiled program runs.
func builtinPrint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep, end, ordered := " ", "\n", true
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "sep?", &sep, "end?", &end, "ordered?", &ordered); err != nil {
		return nil, err
	}
	// The arrays of the arguments, those inside tuples, lists and dicts
	// included: each is read (or, traced, printed at run time).
	var arrays []*Array
	operands := make([]pyfmt.Value, len(args))
	for i, v := range args {
		operands[i] = formatOperand(v, &arrays)
	}
	for _, a := range arrays {
		if !a.Traced() {
			// A computation that failed, or an array donated away, raises
			// its error here, where it is read, rather than printing in its
			// place.
			if err := a.live(); err != nil {
				return nil, err
			}
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
		}
	}
	ts, err := traceOf(arrays)
	if err != nil {
		return nil, err
	}
	if ts != nil {
		return stagePrint(ts, args, operands, sep, end, ordered)
	}
	var buf strings.Builder
	for i, v := range args {
		if i > 0 {
			buf.WriteString(sep)
		}
		switch v := v.(type) {
		case starlark.String:
			buf.WriteString(string(v))
		case *Array:
			buf.WriteString(v.Str())
		default:
			buf.WriteString(v.String())
		}
	}
	buf.WriteString(end)
	if ordered {
		// After the ordered prints of every program dispatched before it.
		waitOrderedPrints(thread)
	}
	if _, err := io.WriteString(stdoutOf(thread), buf.String()); err != nil {
		return nil, fmt.Errorf("print: %v", err)
	}
	return starlark.None, nil
}

// stagePrint records print as a debug_print of ts: each array argument is a
// {} field of fmt and an operand, an array inside a tuple, list or dict a
// {!r} field (as the container's repr shows it); everything else is
// written into fmt as print shows it, braces doubled.
func stagePrint(ts *Trace, args starlark.Tuple, operands []pyfmt.Value, sep, end string, ordered bool) (starlark.Value, error) {
	esc := strings.NewReplacer("{", "{{", "}", "}}")
	var f strings.Builder
	var arrays []*Array
	for i, v := range args {
		if i > 0 {
			f.WriteString(esc.Replace(sep))
		}
		switch v := v.(type) {
		case starlark.String:
			f.WriteString(esc.Replace(string(v)))
		case *Array:
			f.WriteString("{}")
			arrays = append(arrays, v)
		default:
			if h, ok := operands[i].(*holed); ok {
				text, holes := h.Parts()
				for j, t := range text {
					f.WriteString(esc.Replace(t))
					if j < len(holes) {
						f.WriteString("{!r}")
						arrays = append(arrays, holes[j].(*Array))
					}
				}
				continue
			}
			f.WriteString(esc.Replace(v.String()))
		}
	}
	f.WriteString(esc.Replace(end))
	params := trace.Params{"fmt": f.String(), "ordered": ordered}
	if _, err := BindTraced(ts, "debug_print", params, arrays...); err != nil {
		return nil, err
	}
	return starlark.None, nil
}

// bufferStr is a buffer's values in NumPy's str() layout.
func bufferStr(b jit.Buffer) (string, error) {
	raw, err := jit.ToHost(b)
	if err != nil {
		return "", err
	}
	av := b.AVal()
	h := arrayfmt.Array{DType: av.DType.Name(), Shape: av.Shape, Data: typedSlice(av.DType, raw)}
	return arrayfmt.Str(h, PrintOptions()), nil
}
