package starlark

import (
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"
)

// Pytrees (SPEC §3): tuples, lists, dicts with string keys and None, nested,
// are containers; everything else is a leaf. jit arguments and results, loop
// carries and callback values are pytrees: flattenTree turns one into its
// leaves and a treeDef, and treeDef.unflatten rebuilds the same structure
// around new leaves. None is a container with no children, as in JAX, so it
// contributes no leaf.

// A treeDef is the structure of a pytree without its leaves.
type treeDef struct {
	kind     treeKind
	keys     []string   // dict keys, sorted (JAX orders dict children by key)
	children []*treeDef // one per child; nil for a leaf
}

type treeKind uint8

const (
	treeLeaf treeKind = iota
	treeNone
	treeTuple
	treeList
	treeDict
)

// flattenTree returns the leaves of v in order and its structure. fn names
// the caller in errors (a dict with a non-string key is not a pytree).
func flattenTree(fn string, v starlark.Value) ([]starlark.Value, *treeDef, error) {
	var leaves []starlark.Value
	var walk func(v starlark.Value) (*treeDef, error)
	walk = func(v starlark.Value) (*treeDef, error) {
		switch x := v.(type) {
		case starlark.NoneType:
			return &treeDef{kind: treeNone}, nil
		case starlark.Tuple:
			return walkSeq(treeTuple, x, walk)
		case *starlark.List:
			items := make([]starlark.Value, x.Len())
			for i := range items {
				items[i] = x.Index(i)
			}
			return walkSeq(treeList, items, walk)
		case *starlark.Dict:
			d := &treeDef{kind: treeDict}
			for _, k := range x.Keys() {
				s, ok := k.(starlark.String)
				if !ok {
					return nil, fmt.Errorf("%s: a dict in a pytree must have string keys, got a %s key", fn, k.Type())
				}
				d.keys = append(d.keys, string(s))
			}
			sort.Strings(d.keys)
			for _, k := range d.keys {
				child, _, _ := x.Get(starlark.String(k))
				c, err := walk(child)
				if err != nil {
					return nil, err
				}
				d.children = append(d.children, c)
			}
			return d, nil
		}
		leaves = append(leaves, v)
		return &treeDef{kind: treeLeaf}, nil
	}
	def, err := walk(v)
	if err != nil {
		return nil, nil, err
	}
	return leaves, def, nil
}

func walkSeq(kind treeKind, items []starlark.Value, walk func(starlark.Value) (*treeDef, error)) (*treeDef, error) {
	d := &treeDef{kind: kind, children: make([]*treeDef, 0, len(items))}
	for _, it := range items {
		c, err := walk(it)
		if err != nil {
			return nil, err
		}
		d.children = append(d.children, c)
	}
	return d, nil
}

// numLeaves counts the leaves the structure holds.
func (d *treeDef) numLeaves() int {
	if d.kind == treeLeaf {
		return 1
	}
	n := 0
	for _, c := range d.children {
		n += c.numLeaves()
	}
	return n
}

// unflatten builds the structure around leaves, which must number exactly
// numLeaves.
func (d *treeDef) unflatten(leaves []starlark.Value) (starlark.Value, error) {
	if want := d.numLeaves(); len(leaves) != want {
		return nil, fmt.Errorf("pytree %s has %d leaves, got %d values", d, want, len(leaves))
	}
	v, _ := d.build(leaves)
	return v, nil
}

func (d *treeDef) build(leaves []starlark.Value) (starlark.Value, []starlark.Value) {
	switch d.kind {
	case treeLeaf:
		return leaves[0], leaves[1:]
	case treeNone:
		return starlark.None, leaves
	case treeDict:
		out := starlark.NewDict(len(d.keys))
		for i, k := range d.keys {
			var v starlark.Value
			v, leaves = d.children[i].build(leaves)
			_ = out.SetKey(starlark.String(k), v)
		}
		return out, leaves
	}
	items := make([]starlark.Value, len(d.children))
	for i, c := range d.children {
		items[i], leaves = c.build(leaves)
	}
	if d.kind == treeTuple {
		return starlark.Tuple(items), leaves
	}
	return starlark.NewList(items), leaves
}

// String writes the structure as JAX's PyTreeDef does, with * for leaves:
// (*, [*, *], {'a': *, 'b': None}).
func (d *treeDef) String() string {
	var b strings.Builder
	d.write(&b)
	return b.String()
}

func (d *treeDef) write(b *strings.Builder) {
	switch d.kind {
	case treeLeaf:
		b.WriteString("*")
	case treeNone:
		b.WriteString("None")
	case treeDict:
		b.WriteString("{")
		for i, k := range d.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "'%s': ", k)
			d.children[i].write(b)
		}
		b.WriteString("}")
	default:
		open, close := "(", ")"
		if d.kind == treeList {
			open, close = "[", "]"
		}
		b.WriteString(open)
		for i, c := range d.children {
			if i > 0 {
				b.WriteString(", ")
			}
			c.write(b)
		}
		if d.kind == treeTuple && len(d.children) == 1 {
			b.WriteString(",")
		}
		b.WriteString(close)
	}
}

// equal reports whether two structures are the same (a cache key compares
// them by String, which is equivalent).
func (d *treeDef) equal(o *treeDef) bool { return d.String() == o.String() }

// flattenUpTo returns the subtrees of v at the leaves of d, whose structure
// v must have down to d's leaves (below them v may hold anything: a call's
// result leaf may be a nested list that becomes one array). A mismatch is
// an error describing both structures.
func (d *treeDef) flattenUpTo(v starlark.Value) ([]starlark.Value, error) {
	var out []starlark.Value
	var walk func(d *treeDef, v starlark.Value) bool
	walk = func(d *treeDef, v starlark.Value) bool {
		switch d.kind {
		case treeLeaf:
			// A leaf may be a nested list of numbers (one array), not a
			// tuple or a dict: those are structure.
			switch v.(type) {
			case starlark.Tuple, *starlark.Dict:
				return false
			}
			out = append(out, v)
			return true
		case treeNone:
			return v == starlark.None
		case treeDict:
			dict, ok := v.(*starlark.Dict)
			if !ok || dict.Len() != len(d.keys) {
				return false
			}
			for i, k := range d.keys {
				child, found, _ := dict.Get(starlark.String(k))
				if !found || !walk(d.children[i], child) {
					return false
				}
			}
			return true
		}
		var items []starlark.Value
		switch x := v.(type) {
		case starlark.Tuple:
			if d.kind != treeTuple {
				return false
			}
			items = x
		case *starlark.List:
			if d.kind != treeList {
				return false
			}
			for i := 0; i < x.Len(); i++ {
				items = append(items, x.Index(i))
			}
		default:
			return false
		}
		if len(items) != len(d.children) {
			return false
		}
		for i, c := range d.children {
			if !walk(c, items[i]) {
				return false
			}
		}
		return true
	}
	if !walk(d, v) {
		return nil, fmt.Errorf("the value %s does not have the structure %s", shortRepr(v), d)
	}
	return out, nil
}

// shortRepr is a value's repr, cut to a readable length for messages.
func shortRepr(v starlark.Value) string {
	s := v.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
