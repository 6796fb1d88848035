package repl

import (
	"slices"
	"strings"

	"go.starlark.net/starlark"
)

// Tab completion of names (terminal.go's completer asks): the REPL's
// globals, Starlark's builtins and keywords, and the attributes of the
// value a dotted chain names.

// complete returns the completions of prefix, a name or a dotted chain of
// names such as "jnp.ar" or "x.sh", as whole chains ("jnp.arange",
// "jnp.array"), sorted. A bare name completes to globals (the predeclared
// modules and builtins among them), Starlark's universal builtins and
// keywords; after a dot, to the attributes of the value the chain before the
// dot names, which complete looks up (a property such as x.T is computed).
// Names that start with "_" are offered only for a prefix that does.
func complete(globals starlark.StringDict, prefix string) []string {
	dot := strings.LastIndexByte(prefix, '.')
	partial := prefix[dot+1:]
	var names []string
	if dot < 0 {
		names = append(names, starlarkKeywords...)
		for name := range globals {
			names = append(names, name)
		}
		for name := range starlark.Universe {
			names = append(names, name)
		}
	} else {
		v := lookupChain(globals, prefix[:dot])
		attrs, ok := v.(starlark.HasAttrs)
		if !ok {
			return nil
		}
		names = attrs.AttrNames()
	}
	var out []string
	for _, name := range names {
		if !strings.HasPrefix(name, partial) || (strings.HasPrefix(name, "_") && !strings.HasPrefix(partial, "_")) {
			continue
		}
		out = append(out, prefix[:dot+1]+name)
	}
	slices.Sort(out)
	return slices.Compact(out) // a global that shadows a universal builtin is offered once
}

// starlarkKeywords are the words the dialect reserves for statements and
// operators (True, False and None are in starlark.Universe).
var starlarkKeywords = []string{
	"and", "break", "continue", "def", "elif", "else", "for", "if", "in",
	"lambda", "load", "not", "or", "pass", "return", "while",
}

// lookupChain returns the value a dotted chain of names ("jnp.linalg")
// denotes, or nil. It reads attributes without a thread, as completion runs
// between chunks; a value whose attribute panics completes to nothing.
func lookupChain(globals starlark.StringDict, chain string) (v starlark.Value) {
	defer func() {
		if recover() != nil {
			v = nil
		}
	}()
	parts := strings.Split(chain, ".")
	for i, name := range parts {
		if !isIdentifier(name) {
			return nil
		}
		if i == 0 {
			if v = globals[name]; v == nil {
				v = starlark.Universe[name]
			}
		} else if attrs, ok := v.(starlark.HasAttrs); ok {
			var err error
			if v, err = attrs.Attr(name); err != nil {
				return nil
			}
		} else {
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

func isIdentifier(s string) bool {
	if s == "" || ('0' <= s[0] && s[0] <= '9') {
		return false
	}
	for _, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c > 0x7f) {
			return false
		}
	}
	return true
}
