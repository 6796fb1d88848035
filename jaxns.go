package jaxsh

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jaxsh/jaxsh/internal/jaxnames"
	"github.com/jaxsh/jaxsh/lib/tree"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// A namespace is a module under its JAX name (jax, jax.numpy, ...): its
// members, and for a missing name an error that says whether JAX has it
// ("jax.scipy.signal is not in jaxsh yet") or not ("module jax.numpy has no
// .foo"). Submodules are namespaces too.
type namespace struct {
	path    string
	members starlark.StringDict
}

var _ starlark.HasAttrs = (*namespace)(nil)

func newNamespace(path string, members starlark.StringDict) *namespace {
	return &namespace{path: path, members: members}
}

func (n *namespace) String() string        { return fmt.Sprintf("<module %q>", n.path) }
func (n *namespace) Type() string          { return "module" }
func (n *namespace) Freeze()               { n.members.Freeze() }
func (n *namespace) Truth() starlark.Bool  { return starlark.True }
func (n *namespace) Hash() (uint32, error) { return starlark.String(n.path).Hash() }

func (n *namespace) AttrNames() []string {
	names := make([]string, 0, len(n.members))
	for k := range n.members {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func (n *namespace) Attr(name string) (starlark.Value, error) {
	if v, ok := n.members[name]; ok {
		if m, ok := v.(*starlarkstruct.Module); ok {
			return newNamespace(n.path+"."+name, m.Members), nil
		}
		return v, nil
	}
	if jaxnames.Has(n.path, name) {
		return nil, fmt.Errorf("%s.%s is not in jaxsh yet", n.path, name)
	}
	return nil, fmt.Errorf("module %s has no .%s", n.path, name)
}

// isModule reports whether v is a module that import may name.
func isModule(v starlark.Value) bool {
	switch v.(type) {
	case *namespace, *starlarkstruct.Module:
		return true
	}
	return false
}

// jaxTopLevel are the predeclared names that JAX has at its top level too.
var jaxTopLevel = strings.Fields(`jit grad value_and_grad vmap jvp vjp linearize jacfwd jacrev jacobian
	hessian checkpoint remat custom_jvp custom_vjp eval_shape make_jaxpr devices local_devices
	device_count local_device_count device_put device_get default_backend block_until_ready
	effects_barrier ShapeDtypeStruct pure_callback stop_gradient checkpoint_policies float0`)

// importer is the hidden builtin __import__(module, name) of the dialect's
// import statements: it finds module among the modules scripts can import
// (jax and its submodules, math, json, time) and returns the dotted name
// name: the module itself or a prefix of it (import a.b binds a), or a
// member of it (from a import b).
type importer struct {
	roots map[string]starlark.Value // top-level module name -> module
}

func (im *importer) builtin() *starlark.Builtin {
	return starlark.NewBuiltin("__import__", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var module, name string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &module, &name); err != nil {
			return nil, err
		}
		if _, err := im.module(module); err != nil {
			return nil, err
		}
		if member, ok := strings.CutPrefix(name, module+"."); ok {
			m, _ := im.module(module)
			v, err := attr(m, member)
			if err != nil {
				if jaxnames.Has(module, member) {
					return nil, fmt.Errorf("%s.%s is not in jaxsh yet", module, member)
				}
				return nil, fmt.Errorf("cannot import name '%s' from '%s' (%s has no .%s)", member, module, module, member)
			}
			return v, nil
		}
		return im.module(name)
	})
}

// module resolves a dotted module path.
func (im *importer) module(path string) (starlark.Value, error) {
	parts := strings.Split(path, ".")
	v, ok := im.roots[parts[0]]
	if !ok {
		if parts[0] == "numpy" {
			return nil, fmt.Errorf("no module named 'numpy': jaxsh's arrays are JAX's; import jax.numpy as jnp")
		}
		return nil, fmt.Errorf("no module named %q (jaxsh's modules: %s)", path, im.list())
	}
	for i, part := range parts[1:] {
		next, err := attr(v, part)
		prefix := strings.Join(parts[:i+2], ".")
		if err != nil || !isModule(next) {
			if jaxnames.IsModule(prefix) {
				return nil, fmt.Errorf("%s is not in jaxsh yet", prefix)
			}
			return nil, fmt.Errorf("no module named %q (jaxsh's modules: %s)", prefix, im.list())
		}
		v = next
	}
	return v, nil
}

func attr(v starlark.Value, name string) (starlark.Value, error) {
	h, ok := v.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no attributes", v.Type())
	}
	x, err := h.Attr(name)
	if err == nil && x == nil {
		err = fmt.Errorf("%s has no .%s", v, name)
	}
	return x, err
}

// list names the modules that can be imported.
func (im *importer) list() string {
	var names []string
	var walk func(prefix string, v starlark.Value)
	walk = func(prefix string, v starlark.Value) {
		names = append(names, prefix)
		h, ok := v.(starlark.HasAttrs)
		if !ok {
			return
		}
		for _, n := range h.AttrNames() {
			if sub, err := h.Attr(n); err == nil && isModule(sub) && prefix == "jax" {
				walk(prefix+"."+n, sub)
			}
		}
	}
	roots := make([]string, 0, len(im.roots))
	for r := range im.roots {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	for _, r := range roots {
		walk(r, im.roots[r])
	}
	return strings.Join(names, ", ")
}

// jaxPaths are the JAX names of the library namespaces.
var jaxPaths = map[string]string{
	"jnp":       "jax.numpy",
	"lax":       "jax.lax",
	"nn":        "jax.nn",
	"random":    "jax.random",
	"scipy":     "jax.scipy",
	"tree_util": "jax.tree_util",
	"debug":     "jax.debug",
}

// addJax wraps the library namespaces of predeclared under their JAX
// names, and adds the jax namespace (mirroring JAX's top level from what
// predeclared holds) and the hidden __import__ that import statements
// call. all is predeclared with the language's own names.
func addJax(predeclared, all starlark.StringDict) {
	members := starlark.StringDict{}
	for short, path := range jaxPaths {
		v, ok := all[short]
		if !ok {
			continue
		}
		m, ok := v.(*starlarkstruct.Module)
		if !ok {
			continue
		}
		ns := newNamespace(path, m.Members)
		if _, mine := predeclared[short]; mine {
			predeclared[short] = ns
		}
		members[strings.TrimPrefix(path, "jax.")] = ns
	}
	for _, name := range jaxTopLevel {
		if v, ok := all[name]; ok {
			members[name] = v
		}
	}
	if _, ok := all["tree_util"]; ok {
		members["tree"] = newNamespace("jax.tree", tree.Short.Members)
		for _, name := range []string{"tree_map", "tree_leaves", "tree_structure", "tree_flatten", "tree_unflatten"} {
			members[name] = tree.Module.Members[name]
		}
	}
	if v, ok := all["io_callback"]; ok {
		members["experimental"] = newNamespace("jax.experimental", starlark.StringDict{"io_callback": v})
	}
	jax := newNamespace("jax", members)
	jax.Freeze()
	predeclared["jax"] = jax
	roots := map[string]starlark.Value{"jax": jax}
	for _, name := range []string{"math", "json", "time"} {
		if v, ok := all[name]; ok {
			roots[name] = v
		}
	}
	predeclared["__import__"] = (&importer{roots: roots}).builtin()
}
