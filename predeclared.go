package jaxsh

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/lib/export"
	"github.com/jaxsh/jaxsh/lib/hostcallback"
	"github.com/jaxsh/jaxsh/lib/image"
	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/nn"
	"github.com/jaxsh/jaxsh/lib/numpy"
	"github.com/jaxsh/jaxsh/lib/plot"
	"github.com/jaxsh/jaxsh/lib/random"
	"github.com/jaxsh/jaxsh/lib/scipy"
	"github.com/jaxsh/jaxsh/lib/transform"
	"github.com/jaxsh/jaxsh/lib/tree"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// namespaces are the library modules a script can see, by the name it sees
// them under. This is the one place where the language (package starlark)
// and its libraries (lib/...) meet: neither imports the other's side.
var namespaces = map[string]*starlarkstruct.Module{
	"jnp":       numpy.Module,
	"lax":       lax.Module,
	"nn":        nn.Module,
	"random":    random.Module,
	"tree_util": tree.Module,
	"scipy":     scipy.Module,
	"image":     image.Module,
	"plot":      plot.Module,
}

// Builtins returns the top-level names the libraries add to the language's
// own (package starlark's Predeclared): the function transformations,
// export and the host callbacks. Every session has them, whichever
// namespaces it chose.
func Builtins() starlark.StringDict {
	d := starlark.StringDict{}
	for _, names := range []starlark.StringDict{transform.Builtins(), export.Builtins(), hostcallback.Builtins()} {
		for k, v := range names {
			d[k] = v
		}
	}
	return d
}

// NamespaceNames lists the names of the library namespaces Options.Namespaces
// may choose from, sorted.
func NamespaceNames() []string {
	names := make([]string, 0, len(namespaces))
	for n := range namespaces {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// freezeNamespaces freezes the shared modules once: Freeze writes a flag
// in every member, so sessions starting concurrently must not each do it.
var freezeNamespaces sync.Once

// Namespaces returns the library namespaces named (all of them when names is
// nil) as predeclared names. An unknown name is an error.
func Namespaces(names []string) (starlark.StringDict, error) {
	if names == nil {
		names = NamespaceNames()
	}
	freezeNamespaces.Do(func() {
		for _, m := range namespaces {
			m.Freeze()
		}
	})
	d := make(starlark.StringDict, len(names))
	for _, n := range names {
		m, ok := namespaces[n]
		if !ok {
			return nil, fmt.Errorf("unknown namespace %q (known: %s)", n, strings.Join(NamespaceNames(), ", "))
		}
		d[n] = m
	}
	return d, nil
}
