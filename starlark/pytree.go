package starlark

import (
	"fmt"
	"github.com/jaxsh/jaxsh/export"
	"slices"
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// Pytrees (SPEC §3): tuples, lists, dicts with string keys and None, nested,
// are containers; everything else is a leaf. jit arguments and results, loop
// carries and callback values are pytrees: FlattenTree turns one into its
// leaves and a TreeDef, and TreeDef.Unflatten rebuilds the same structure
// around new leaves. None is a container with no children, as in JAX, so it
// contributes no leaf.

// A TreeDef is the structure of a pytree without its leaves.
type TreeDef struct {
	Kind     TreeKind
	Keys     []string   // dict keys, sorted (JAX orders dict children by key)
	Children []*TreeDef // one per child; nil for a leaf
}

// A TreeKind is what a pytree node is: a leaf or one kind of container.
type TreeKind uint8

const (
	TreeLeaf TreeKind = iota
	TreeNone
	TreeTuple
	TreeList
	TreeDict
)

// FlattenTree returns the leaves of v in order and its structure. fn names
// the caller in errors (a dict with a non-string key is not a pytree).
func FlattenTree(fn string, v starlark.Value) ([]starlark.Value, *TreeDef, error) {
	var leaves []starlark.Value
	var walk func(v starlark.Value) (*TreeDef, error)
	walk = func(v starlark.Value) (*TreeDef, error) {
		switch x := v.(type) {
		case starlark.NoneType:
			return &TreeDef{Kind: TreeNone}, nil
		case starlark.Tuple:
			return walkSeq(TreeTuple, x, walk)
		case *starlark.List:
			items := make([]starlark.Value, x.Len())
			for i := range items {
				items[i] = x.Index(i)
			}
			return walkSeq(TreeList, items, walk)
		case *starlark.Dict:
			d := &TreeDef{Kind: TreeDict}
			for _, k := range x.Keys() {
				s, ok := k.(starlark.String)
				if !ok {
					return nil, fmt.Errorf("%s: a dict in a pytree must have string keys, got a %s key", fn, k.Type())
				}
				d.Keys = append(d.Keys, string(s))
			}
			sort.Strings(d.Keys)
			for _, k := range d.Keys {
				child, _, _ := x.Get(starlark.String(k))
				c, err := walk(child)
				if err != nil {
					return nil, err
				}
				d.Children = append(d.Children, c)
			}
			return d, nil
		}
		leaves = append(leaves, v)
		return &TreeDef{Kind: TreeLeaf}, nil
	}
	def, err := walk(v)
	if err != nil {
		return nil, nil, err
	}
	return leaves, def, nil
}

func walkSeq(kind TreeKind, items []starlark.Value, walk func(starlark.Value) (*TreeDef, error)) (*TreeDef, error) {
	d := &TreeDef{Kind: kind, Children: make([]*TreeDef, 0, len(items))}
	for _, it := range items {
		c, err := walk(it)
		if err != nil {
			return nil, err
		}
		d.Children = append(d.Children, c)
	}
	return d, nil
}

// NumLeaves counts the leaves the structure holds.
func (d *TreeDef) NumLeaves() int {
	if d.Kind == TreeLeaf {
		return 1
	}
	n := 0
	for _, c := range d.Children {
		n += c.NumLeaves()
	}
	return n
}

// Unflatten builds the structure around leaves, which must number exactly
// numLeaves.
func (d *TreeDef) Unflatten(leaves []starlark.Value) (starlark.Value, error) {
	if want := d.NumLeaves(); len(leaves) != want {
		return nil, fmt.Errorf("pytree %s has %d leaves, got %d values", d, want, len(leaves))
	}
	v, _ := d.build(leaves)
	return v, nil
}

func (d *TreeDef) build(leaves []starlark.Value) (starlark.Value, []starlark.Value) {
	switch d.Kind {
	case TreeLeaf:
		return leaves[0], leaves[1:]
	case TreeNone:
		return starlark.None, leaves
	case TreeDict:
		out := starlark.NewDict(len(d.Keys))
		for i, k := range d.Keys {
			var v starlark.Value
			v, leaves = d.Children[i].build(leaves)
			_ = out.SetKey(starlark.String(k), v)
		}
		return out, leaves
	}
	items := make([]starlark.Value, len(d.Children))
	for i, c := range d.Children {
		items[i], leaves = c.build(leaves)
	}
	if d.Kind == TreeTuple {
		return starlark.Tuple(items), leaves
	}
	return starlark.NewList(items), leaves
}

// String writes the structure as JAX's PyTreeDef does, with * for leaves:
// (*, [*, *], {'a': *, 'b': None}).
func (d *TreeDef) String() string {
	var b strings.Builder
	d.write(&b)
	return b.String()
}

func (d *TreeDef) write(b *strings.Builder) {
	switch d.Kind {
	case TreeLeaf:
		b.WriteString("*")
	case TreeNone:
		b.WriteString("None")
	case TreeDict:
		b.WriteString("{")
		for i, k := range d.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "'%s': ", k)
			d.Children[i].write(b)
		}
		b.WriteString("}")
	default:
		open, close := "(", ")"
		if d.Kind == TreeList {
			open, close = "[", "]"
		}
		b.WriteString(open)
		for i, c := range d.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			c.write(b)
		}
		if d.Kind == TreeTuple && len(d.Children) == 1 {
			b.WriteString(",")
		}
		b.WriteString(close)
	}
}

// Equal reports whether two structures are the same (a cache key compares
// them by String, which is equivalent).
func (d *TreeDef) Equal(o *TreeDef) bool { return d.String() == o.String() }

// FlattenUpTo returns the subtrees of v at the leaves of d, whose structure
// v must have down to d's leaves (below them v may hold anything: a call's
// result leaf may be a nested list that becomes one array). A mismatch is
// an error describing both structures.
func (d *TreeDef) FlattenUpTo(v starlark.Value) ([]starlark.Value, error) {
	var out []starlark.Value
	var walk func(d *TreeDef, v starlark.Value) bool
	walk = func(d *TreeDef, v starlark.Value) bool {
		switch d.Kind {
		case TreeLeaf:
			// A leaf may be a nested list of numbers (one array), not a
			// tuple or a dict: those are structure.
			switch v.(type) {
			case starlark.Tuple, *starlark.Dict:
				return false
			}
			out = append(out, v)
			return true
		case TreeNone:
			return v == starlark.None
		case TreeDict:
			dict, ok := v.(*starlark.Dict)
			if !ok || dict.Len() != len(d.Keys) {
				return false
			}
			for i, k := range d.Keys {
				child, found, _ := dict.Get(starlark.String(k))
				if !found || !walk(d.Children[i], child) {
					return false
				}
			}
			return true
		}
		var items []starlark.Value
		switch x := v.(type) {
		case starlark.Tuple:
			if d.Kind != TreeTuple {
				return false
			}
			items = x
		case *starlark.List:
			if d.Kind != TreeList {
				return false
			}
			for i := 0; i < x.Len(); i++ {
				items = append(items, x.Index(i))
			}
		default:
			return false
		}
		if len(items) != len(d.Children) {
			return false
		}
		for i, c := range d.Children {
			if !walk(c, items[i]) {
				return false
			}
		}
		return true
	}
	if !walk(d, v) {
		return nil, fmt.Errorf("the value %s does not have the structure %s", ShortRepr(v), d)
	}
	return out, nil
}

// ShortRepr is a value's repr, cut to a readable length for messages.
func ShortRepr(v starlark.Value) string {
	s := v.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// ExportTree converts a pytree structure to the artifact's.
func ExportTree(t *TreeDef) *export.TreeDef {
	if t == nil {
		return nil
	}
	out := &export.TreeDef{Kind: export.TreeKind(t.Kind), Keys: slices.Clone(t.Keys)}
	for _, c := range t.Children {
		out.Children = append(out.Children, ExportTree(c))
	}
	return out
}

// TreeFromExport converts an artifact's structure back.
func TreeFromExport(t *export.TreeDef) *TreeDef {
	if t == nil {
		return nil
	}
	out := &TreeDef{Kind: TreeKind(t.Kind), Keys: slices.Clone(t.Keys)}
	for _, c := range t.Children {
		out.Children = append(out.Children, TreeFromExport(c))
	}
	return out
}
