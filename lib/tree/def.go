package tree

import (
	"fmt"
	"hash/fnv"

	jstar "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Def is a pytree's structure without its leaves, JAX's PyTreeDef: it
// prints as PyTreeDef((*, {'a': *})), compares with == by structure, and
// has num_leaves, num_nodes and unflatten(leaves).
type Def struct{ d *jstar.TreeDef }

var (
	_ starlark.HasAttrs   = (*Def)(nil)
	_ starlark.Comparable = (*Def)(nil)
)

func (t *Def) String() string       { return "PyTreeDef(" + t.d.String() + ")" }
func (t *Def) Type() string         { return "PyTreeDef" }
func (t *Def) Freeze()              {}
func (t *Def) Truth() starlark.Bool { return starlark.True }
func (t *Def) Hash() (uint32, error) {
	h := fnv.New32a()
	h.Write([]byte(t.d.String()))
	return h.Sum32(), nil
}

func (t *Def) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	same := t.d.Equal(y.(*Def).d)
	switch op {
	case syntax.EQL:
		return same, nil
	case syntax.NEQ:
		return !same, nil
	}
	return false, fmt.Errorf("%s %s %s: PyTreeDefs are not ordered", t.Type(), op, y.Type())
}

func (t *Def) AttrNames() []string { return []string{"num_leaves", "num_nodes", "unflatten"} }

func (t *Def) Attr(name string) (starlark.Value, error) {
	switch name {
	case "num_leaves":
		return starlark.MakeInt(t.d.NumLeaves()), nil
	case "num_nodes":
		return starlark.MakeInt(numNodes(t.d)), nil
	case "unflatten":
		return starlark.NewBuiltin("unflatten", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var leaves starlark.Iterable
			if err := starlark.UnpackArgs("unflatten", args, kwargs, "leaves", &leaves); err != nil {
				return nil, err
			}
			return t.unflatten("PyTreeDef.unflatten", leaves)
		}).BindReceiver(t), nil
	}
	return nil, nil
}

func numNodes(d *jstar.TreeDef) int {
	n := 1
	for _, c := range d.Children {
		n += numNodes(c)
	}
	return n
}

func (t *Def) unflatten(fn string, leaves starlark.Iterable) (starlark.Value, error) {
	var values []starlark.Value
	it := leaves.Iterate()
	defer it.Done()
	var v starlark.Value
	for it.Next(&v) {
		values = append(values, v)
	}
	if want := t.d.NumLeaves(); len(values) != want {
		return nil, fmt.Errorf("%s: %s has %d leaves, got %d values", fn, t, want, len(values))
	}
	return t.d.Unflatten(values)
}
