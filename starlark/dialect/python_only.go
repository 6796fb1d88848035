package dialect

import "go.starlark.net/syntax"

// pythonOnly says, for each Python keyword that Starlark reserves without
// giving it a meaning, what to write instead. The parser fails with this
// line where the keyword stands, rather than upstream's "got class, want
// primary expression".
var pythonOnly = map[syntax.Token]string{
	syntax.CLASS:    "class is not supported in Starlark: use functions, and dicts for data",
	syntax.TRY:      "try/except is not supported in Starlark: an error stops the program; check for the problem before it happens",
	syntax.EXCEPT:   "try/except is not supported in Starlark: an error stops the program; check for the problem before it happens",
	syntax.FINALLY:  "try/finally is not supported in Starlark: an error stops the program; check for the problem before it happens",
	syntax.WITH:     "with is not supported in Starlark: call the setup and the cleanup yourself",
	syntax.YIELD:    "yield is not supported in Starlark (there are no generators): build and return a list",
	syntax.GLOBAL:   "global is not supported in Starlark: a function cannot rebind a global; return the new value, or keep the state in a list or dict and change that",
	syntax.NONLOCAL: "nonlocal is not supported in Starlark: a function cannot rebind an enclosing function's variable; keep the state in a list or dict and change that",
	syntax.DEL:      "del is not supported in Starlark: use dict.pop(key) or list.pop(index)",
	syntax.RAISE:    "raise is not supported in Starlark: call fail(message) to stop with an error",
	syntax.ASYNC:    "async is not supported in Starlark: functions run to completion; jit dispatches work asynchronously by itself",
	syntax.AWAIT:    "await is not supported in Starlark: functions run to completion; use block_until_ready(x) to wait for a result",
	syntax.IS:       "'is' is not supported in Starlark: compare with == (x == None)",
	syntax.AS:       "'as' is only supported in import statements (import jax.numpy as jnp)",
}

// failPythonOnly fails with the teaching line for the lookahead token when
// it is a Python-only keyword. The failure counts as use of the dialect, so
// that its message may differ from upstream's.
func (p *parser) failPythonOnly() {
	if msg, ok := pythonOnly[p.tok]; ok {
		p.usedExtension = true
		p.sc.fail(p.val.pos, "%s", msg)
	}
}

// failAssert teaches `if not cond: fail(msg)` for Python's assert
// statement, which Starlark reads as the identifier assert followed by an
// expression.
func (p *parser) failAssert(x syntax.Expr) {
	id, ok := x.(*syntax.Ident)
	if !ok || id.Name != "assert" {
		return
	}
	switch p.tok {
	case syntax.IDENT, syntax.INT, syntax.FLOAT, syntax.STRING, syntax.NOT, syntax.MINUS, syntax.LBRACK, tokFString:
		p.usedExtension = true
		p.sc.fail(id.NamePos, "assert is not a Starlark statement: write `if not condition: fail(message)`")
	}
}
