package jaxsh

import (
	_ "embed"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// help(obj): the text of docs/builtins.md, whose tables are generated from
// the library packages' doc comments (TestBuiltinsDoc keeps them in step),
// so the REPL's help and the documentation are one source. Functions
// written in the dialect answer with their own docstrings.

//go:embed docs/builtins.md
var builtinsDoc string

// A docRow is one row of a generated member table: the names it lists (as
// written, e.g. "sum" or "tree_map(f, tree, *rest, is_leaf=None)") and the
// text of its other cell.
type docRow struct {
	section string
	spans   []string
	what    string
}

var (
	docRows     []docRow
	sectionText = map[string][]string{} // a section's table lines, for help(module)
	spanRE      = regexp.MustCompile("`([^`]+)`")
	headingRE   = regexp.MustCompile("^## `([a-z_.]+)`")
)

func init() {
	section := ""
	for _, line := range strings.Split(builtinsDoc, "\n") {
		if m := headingRE.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		if section == "" || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "|---") {
			continue
		}
		sectionText[section] = append(sectionText[section], line)
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 2 {
			continue
		}
		// Either "| names | what |" or "| group | names |": the names are
		// the cell made only of backticked spans.
		names, what := cells[0], cells[1]
		if onlySpans(cells[1]) && !onlySpans(cells[0]) {
			names, what = cells[1], cells[0]
		}
		row := docRow{section: section, what: what}
		for _, m := range spanRE.FindAllStringSubmatch(names, -1) {
			row.spans = append(row.spans, m[1])
		}
		docRows = append(docRows, row)
	}
}

func onlySpans(cell string) bool {
	return strings.TrimSpace(spanRE.ReplaceAllString(strings.ReplaceAll(cell, ",", ""), "")) == ""
}

// docFor finds what the tables say of name in section: the matching span
// (a signature when the table gives one) and the row's description.
func docFor(section, name string) (string, string, bool) {
	for _, r := range docRows {
		if r.section != section {
			continue
		}
		for _, span := range r.spans {
			for _, tok := range strings.Fields(span) {
				id := tok
				if i := strings.IndexByte(id, '('); i >= 0 {
					id = id[:i]
				}
				id = strings.TrimPrefix(id, section+".")
				if id == name {
					if strings.Contains(span, "(") && strings.HasPrefix(span, tok) {
						return span, r.what, true
					}
					return name, r.what, true
				}
			}
		}
	}
	return "", "", false
}

// helpBuiltin is help(obj), printing to the thread's output; libs are the
// library modules by namespace name.
func helpBuiltin(libs starlark.StringDict) *starlark.Builtin {
	return starlark.NewBuiltin("help", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var obj starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0, &obj); err != nil {
			return nil, err
		}
		w := jstarlark.StdoutOf(thread)
		if obj == nil {
			fmt.Fprint(w, helpIntro(libs))
			return starlark.None, nil
		}
		writeHelp(w, obj, libs)
		return starlark.None, nil
	})
}

func helpIntro(libs starlark.StringDict) string {
	names := make([]string, 0, len(libs))
	for n := range libs {
		names = append(names, n)
	}
	sort.Strings(names)
	return "jaxsh: JAX's programming model in a Starlark dialect.\n" +
		"  help(obj)      the documentation of a function or module, e.g. help(jnp.sum), help(lax)\n" +
		"  namespaces     " + strings.Join(names, ", ") + " (also under jax: import jax.numpy as jnp)\n" +
		"  staging        jit, grad, vmap, make_jaxpr, ... (dir() lists every name)\n" +
		"  exit()         leave (or Ctrl-D); Ctrl-C stops the running statement\n" +
		"The full reference is docs/builtins.md; the language is docs/language.md.\n"
}

// writeHelp prints the documentation of obj.
func writeHelp(w io.Writer, obj starlark.Value, libs starlark.StringDict) {
	switch v := obj.(type) {
	case *starlark.Function:
		fmt.Fprintf(w, "%s%s\n", v.Name(), paramText(v))
		if doc := v.Doc(); doc != "" {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(doc, "\n", "\n    "))
		}
		return
	case *starlark.Builtin:
		section, name := locate(v, libs)
		if sig, what, ok := docFor(section, name); ok {
			if sig == name || !strings.Contains(sig, "(") {
				fmt.Fprintf(w, "%s.%s\n    %s\n", section, name, what)
			} else {
				fmt.Fprintf(w, "%s.%s: %s\n    %s\n", section, name, sig, what)
			}
			return
		}
		if sig, what, ok := docFor("Predeclared names", v.Name()); ok {
			fmt.Fprintf(w, "%s\n    %s\n", sig, what)
			return
		}
		fmt.Fprintf(w, "%s: a builtin function (docs/builtins.md has no entry for it)\n", v.Name())
		return
	}
	if name := moduleName(obj, libs); name != "" {
		if lines := sectionText[name]; len(lines) > 0 {
			fmt.Fprintf(w, "module %s:\n", name)
			for _, l := range lines {
				fmt.Fprintln(w, "  "+l)
			}
			return
		}
	}
	fmt.Fprintf(w, "%s: a value of type %s\n", jstarlark.EchoText(obj), obj.Type())
}

// locate finds the library namespace holding the builtin b (by identity,
// submodules included) and its dotted name there.
func locate(b *starlark.Builtin, libs starlark.StringDict) (section, name string) {
	var search func(prefix string, members starlark.StringDict) string
	search = func(prefix string, members starlark.StringDict) string {
		for k, v := range members {
			if v == starlark.Value(b) {
				return prefix + k
			}
			if sub, ok := v.(*starlarkstruct.Module); ok {
				if found := search(prefix+k+".", sub.Members); found != "" {
					return found
				}
			}
		}
		return ""
	}
	for ns, m := range libs {
		if mod, ok := m.(*starlarkstruct.Module); ok {
			if found := search("", mod.Members); found != "" {
				return ns, found
			}
		}
	}
	return "", b.Name()
}

// moduleName is the library namespace a module value shows (its JAX-named
// wrapper or a submodule of it included): "jnp" for jax.numpy.fft.
func moduleName(obj starlark.Value, libs starlark.StringDict) string {
	path := ""
	switch v := obj.(type) {
	case *namespace:
		path = v.path
	case *starlarkstruct.Module:
		path = v.Name
	}
	for short, full := range jaxPaths {
		if path == full || strings.HasPrefix(path, full+".") || path == short || strings.HasPrefix(path, short+".") {
			if _, ok := libs[short]; ok {
				return short
			}
		}
	}
	return ""
}

// paramText renders a function's parameters: (x, axis = -1).
func paramText(f *starlark.Function) string {
	var parts []string
	for i := 0; i < f.NumParams(); i++ {
		name, _ := f.Param(i)
		if d := f.ParamDefault(i); d != nil {
			name += "=" + d.String()
		}
		parts = append(parts, name)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
