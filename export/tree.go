package export

import (
	"fmt"
	"strings"
)

// A TreeDef is the structure of a pytree without its leaves, as an
// artifact stores its inputs' and outputs' structure: the dialect's
// containers (tuples, lists, dicts with string keys, None) around leaves.
type TreeDef struct {
	Kind     TreeKind
	Keys     []string // TreeDict only: one per child, sorted
	Children []*TreeDef
}

// TreeKind is the kind of one node of a TreeDef.
type TreeKind uint8

// The node kinds.
const (
	TreeLeaf TreeKind = iota
	TreeNone
	TreeTuple
	TreeList
	TreeDict
)

// Leaf is the structure of a single array.
func Leaf() *TreeDef { return &TreeDef{Kind: TreeLeaf} }

// Tuple is a tuple of the given structures.
func Tuple(children ...*TreeDef) *TreeDef { return &TreeDef{Kind: TreeTuple, Children: children} }

// NumLeaves counts the leaves.
func (t *TreeDef) NumLeaves() int {
	if t.Kind == TreeLeaf {
		return 1
	}
	n := 0
	for _, c := range t.Children {
		n += c.NumLeaves()
	}
	return n
}

// String writes the structure as JAX's PyTreeDef does, with * for leaves:
// PyTreeDef((*, [*, *], {'a': *, 'b': None})).
func (t *TreeDef) String() string {
	var b strings.Builder
	b.WriteString("PyTreeDef(")
	t.write(&b)
	b.WriteString(")")
	return b.String()
}

func (t *TreeDef) write(b *strings.Builder) {
	switch t.Kind {
	case TreeLeaf:
		b.WriteString("*")
	case TreeNone:
		b.WriteString("None")
	case TreeTuple, TreeList:
		open, close := "(", ")"
		if t.Kind == TreeList {
			open, close = "[", "]"
		}
		b.WriteString(open)
		for i, c := range t.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			c.write(b)
		}
		if t.Kind == TreeTuple && len(t.Children) == 1 {
			b.WriteString(",")
		}
		b.WriteString(close)
	case TreeDict:
		b.WriteString("{")
		for i, c := range t.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyStr(t.Keys[i]) + ": ")
			c.write(b)
		}
		b.WriteString("}")
	}
}

// check reports a structure that no pytree has.
func (t *TreeDef) check(depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("pytree structure nested deeper than %d", maxTreeDepth)
	}
	switch t.Kind {
	case TreeLeaf, TreeNone:
		if len(t.Children) != 0 || len(t.Keys) != 0 {
			return fmt.Errorf("a pytree leaf or None with children")
		}
	case TreeTuple, TreeList:
		if len(t.Keys) != 0 {
			return fmt.Errorf("a pytree tuple or list with keys")
		}
	case TreeDict:
		if len(t.Keys) != len(t.Children) {
			return fmt.Errorf("a pytree dict with %d keys for %d children", len(t.Keys), len(t.Children))
		}
		for i := 1; i < len(t.Keys); i++ {
			if t.Keys[i-1] >= t.Keys[i] {
				return fmt.Errorf("a pytree dict whose keys are not sorted and distinct")
			}
		}
	default:
		return fmt.Errorf("unknown pytree node kind %d", t.Kind)
	}
	for _, c := range t.Children {
		if c == nil {
			return fmt.Errorf("a missing pytree node")
		}
		if err := c.check(depth + 1); err != nil {
			return err
		}
	}
	return nil
}

const maxTreeDepth = 256
