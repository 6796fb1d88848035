package jaxsh

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/internal/jaxnames"
	"go.starlark.net/starlark"
)

// minCoverage is the share of each module's public names that jaxsh must
// have; a name removed by mistake fails here.
var minCoverage = map[string]float64{
	"jax.numpy":           0.9,
	"jax.numpy.linalg":    0.95,
	"jax.numpy.fft":       1,
	"jax.nn":              0.85,
	"jax.nn.initializers": 0.95,
	"jax.lax":             0.7,
	"jax.random":          0.5,
}

// TestJAXCoverage measures how many of JAX's public names (the complete
// lists in internal/jaxnames) the jax namespace has, and how many of the
// surveyed files reference a name still missing. Run with -v for the table
// and the missing names.
func TestJAXCoverage(t *testing.T) {
	jax := predeclaredJax(t)
	modules := jaxnames.PublicModules()
	sort.Strings(modules)
	for _, module := range modules {
		ns, err := resolve(jax, strings.TrimPrefix(module, "jax."))
		if err != nil {
			t.Errorf("%s: %v", module, err)
			continue
		}
		names := jaxnames.Public(module)
		var present, missingFiles int
		var missing []string
		for _, n := range names {
			v, err := ns.Attr(n.Name)
			if err == nil && v != nil {
				present++
				continue
			}
			// A name JAX has is reported as missing from jaxsh, not as a typo.
			if want := module + "." + n.Name + " is not in jaxsh yet"; err == nil || err.Error() != want {
				t.Errorf("%s.%s: error %v, want %q", module, n.Name, err, want)
			}
			missing = append(missing, n.Name)
			if n.Files > 0 {
				missingFiles += n.Files
			}
		}
		share := float64(present) / float64(len(names))
		t.Logf("%-20s %3d / %3d  %5.1f%%  files referencing a missing name: %d", module, present, len(names), 100*share, missingFiles)
		t.Logf("    missing: %s", strings.Join(missing, " "))
		if share < minCoverage[module] {
			t.Errorf("%s: %d of %d public names (%.1f%%), want at least %.0f%%", module, present, len(names), 100*share, 100*minCoverage[module])
		}
	}
}

func predeclaredJax(t *testing.T) starlark.HasAttrs {
	t.Helper()
	mods, err := Namespaces(nil)
	if err != nil {
		t.Fatal(err)
	}
	all := starlark.StringDict{}
	for k, v := range mods {
		all[k] = v
	}
	pre := starlark.StringDict{}
	addJax(pre, all)
	return pre["jax"].(starlark.HasAttrs)
}

func resolve(v starlark.HasAttrs, path string) (starlark.HasAttrs, error) {
	for _, part := range strings.Split(path, ".") {
		next, err := v.Attr(part)
		if err != nil {
			return nil, err
		}
		h, ok := next.(starlark.HasAttrs)
		if !ok {
			return nil, fmt.Errorf("%s is a %s, not a module", part, next.Type())
		}
		v = h
	}
	return v, nil
}
