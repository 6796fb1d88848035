package starlark

import (
	"fmt"
	"io"
	"strings"

	"go.starlark.net/starlark"
)

// builtinPrint is print(*args, sep=" ", end="\n"): strings print bare,
// arrays in NumPy's str() layout, everything else as str() does.
func builtinPrint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	sep, end := " ", "\n"
	if err := starlark.UnpackArgs(b.Name(), nil, kwargs, "sep?", &sep, "end?", &end); err != nil {
		return nil, err
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
	if _, err := io.WriteString(stdoutOf(thread), buf.String()); err != nil {
		return nil, fmt.Errorf("print: %v", err)
	}
	return starlark.None, nil
}
