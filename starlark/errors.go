package starlark

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/effects"
	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// FormatError renders an error from parsing, resolving or running a jaxsh
// program the way the jaxsh command prints it on stderr: a syntax or
// resolution error as FILE:LINE:COL: message, a runtime error as a Starlark
// traceback. The hidden builtins that stand for operators are not shown as
// functions: an error in `a ** b` reads "Error: ..." at the operator.
func FormatError(err error) string {
	var evalErr *starlark.EvalError
	var syntaxErr syntax.Error
	var resolveErrs resolve.ErrorList
	var callbackErr *effects.CallbackError
	_, isEval := err.(*starlark.EvalError)
	switch {
	case !isEval && errors.As(err, &callbackErr):
		// Raised by a barrier outside any statement (the end of a script):
		// its own text has the label, the callback's traceback and the count.
		return err.Error()
	case errors.As(err, &evalErr):
		return traceback(evalErr)
	case errors.As(err, &syntaxErr):
		return syntaxErr.Error()
	case errors.As(err, &resolveErrs):
		lines := make([]string, len(resolveErrs))
		for i, e := range resolveErrs {
			lines[i] = e.Error()
		}
		return strings.Join(lines, "\n")
	}
	return err.Error()
}

func traceback(e *starlark.EvalError) string {
	var b strings.Builder
	stack := e.CallStack
	in := ""
	if last := len(stack) - 1; last >= 0 && stack[last].Pos.Filename() == "<builtin>" {
		if _, hidden := hiddenOperators[stack[last].Name]; !hidden {
			in = " in " + stack[last].Name
		}
		stack = stack[:last]
	}
	if len(stack) > 0 {
		b.WriteString("Traceback (most recent call last):\n")
	}
	for _, fr := range stack {
		if fr.Pos.Filename() == "<builtin>" {
			continue // a builtin that called back into Starlark (jit, partial): no source line
		}
		fmt.Fprintf(&b, "  %s: in %s\n", fr.Pos, fr.Name)
	}
	msg := e.Msg
	if in != "" {
		// Builtins often prefix their own name ("len: ..."); say it once.
		msg = strings.TrimPrefix(msg, in[len(" in "):]+": ")
	}
	fmt.Fprintf(&b, "Error%s: %s", in, msg)
	return b.String()
}
