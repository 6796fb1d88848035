package tree

import (
	"fmt"
	"strings"

	jstar "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is jax.tree_util.
var Module = &starlarkstruct.Module{Name: "tree_util", Members: starlark.StringDict{}}

// Short is jax.tree: the same functions without the tree_ prefix.
var Short = &starlarkstruct.Module{Name: "tree", Members: starlark.StringDict{}}

func init() {
	for name, fn := range map[string]jstar.BuiltinFunc{
		"map":       treeMap,
		"leaves":    treeLeaves,
		"structure": treeStructure,
		"flatten":   treeFlatten,
		"unflatten": treeUnflatten,
		"reduce":    treeReduce,
		"all":       treeAll,
		"transpose": treeTranspose,
	} {
		jstar.Register(Module, "tree_"+name, fn)
		jstar.Register(Short, name, fn)
	}
}

// flatten returns tree's leaves and structure, asking isLeaf (when not
// None) of each subtree first.
func flatten(thread *starlark.Thread, fn string, tree starlark.Value, isLeaf starlark.Value) ([]starlark.Value, *jstar.TreeDef, error) {
	if isLeaf == nil || isLeaf == starlark.None {
		return jstar.FlattenTree(fn, tree)
	}
	if _, ok := isLeaf.(starlark.Callable); !ok {
		return nil, nil, fmt.Errorf("%s: is_leaf must be a function, got %s", fn, isLeaf.Type())
	}
	var leaves []starlark.Value
	var walk func(v starlark.Value) (*jstar.TreeDef, error)
	walk = func(v starlark.Value) (*jstar.TreeDef, error) {
		answer, err := starlark.Call(thread, isLeaf, starlark.Tuple{v}, nil)
		if err != nil {
			return nil, err
		}
		if answer.Truth() {
			leaves = append(leaves, v)
			return &jstar.TreeDef{Kind: jstar.TreeLeaf}, nil
		}
		var items []starlark.Value
		kind := jstar.TreeTuple
		switch x := v.(type) {
		case starlark.NoneType:
			return &jstar.TreeDef{Kind: jstar.TreeNone}, nil
		case starlark.Tuple:
			items = x
		case *starlark.List:
			kind = jstar.TreeList
			for i := range x.Len() {
				items = append(items, x.Index(i))
			}
		case *starlark.Dict:
			_, d, err := jstar.FlattenTree(fn, emptyCopy(x))
			if err != nil {
				return nil, err
			}
			d.Children = d.Children[:0]
			for _, k := range d.Keys {
				child, _, _ := x.Get(starlark.String(k))
				c, err := walk(child)
				if err != nil {
					return nil, err
				}
				d.Children = append(d.Children, c)
			}
			return d, nil
		default:
			leaves = append(leaves, v)
			return &jstar.TreeDef{Kind: jstar.TreeLeaf}, nil
		}
		d := &jstar.TreeDef{Kind: kind}
		for _, item := range items {
			c, err := walk(item)
			if err != nil {
				return nil, err
			}
			d.Children = append(d.Children, c)
		}
		return d, nil
	}
	d, err := walk(tree)
	if err != nil {
		return nil, nil, err
	}
	return leaves, d, nil
}

// emptyCopy is a dict with x's keys and None values: its structure gives
// the keys checked and sorted as pytrees order them.
func emptyCopy(x *starlark.Dict) *starlark.Dict {
	d := starlark.NewDict(x.Len())
	for _, k := range x.Keys() {
		_ = d.SetKey(k, starlark.None)
	}
	return d
}

// upTo returns the subtrees of v at the leaves of d: v must have d's
// structure down to d's leaves. which names v in errors.
func upTo(fn, which string, d *jstar.TreeDef, v starlark.Value) ([]starlark.Value, error) {
	var out []starlark.Value
	var walk func(d *jstar.TreeDef, v starlark.Value, path string) error
	walk = func(d *jstar.TreeDef, v starlark.Value, path string) error {
		mismatch := func(format string, args ...any) error {
			where := ""
			if path != "" {
				where = " at " + path
			}
			return fmt.Errorf("%s: %s does not match the first tree's structure %s%s: %s", fn, which, d, where, fmt.Sprintf(format, args...))
		}
		switch d.Kind {
		case jstar.TreeLeaf:
			out = append(out, v)
			return nil
		case jstar.TreeNone:
			if v != starlark.None {
				return mismatch("expected None, got %s", jstar.ShortRepr(v))
			}
			return nil
		case jstar.TreeDict:
			dict, ok := v.(*starlark.Dict)
			if !ok {
				return mismatch("expected a dict, got %s", jstar.ShortRepr(v))
			}
			if dict.Len() != len(d.Keys) {
				return mismatch("expected the keys %s, got %s", quoteKeys(d.Keys), jstar.ShortRepr(v))
			}
			for i, k := range d.Keys {
				child, found, _ := dict.Get(starlark.String(k))
				if !found {
					return mismatch("expected the keys %s, got %s", quoteKeys(d.Keys), jstar.ShortRepr(v))
				}
				if err := walk(d.Children[i], child, fmt.Sprintf("%s[%q]", path, k)); err != nil {
					return err
				}
			}
			return nil
		}
		var items []starlark.Value
		matches := false
		switch x := v.(type) {
		case starlark.Tuple:
			if d.Kind == jstar.TreeTuple {
				items, matches = x, true
			}
		case *starlark.List:
			if d.Kind == jstar.TreeList {
				matches = true
				for i := range x.Len() {
					items = append(items, x.Index(i))
				}
			}
		}
		kind := "tuple"
		if d.Kind == jstar.TreeList {
			kind = "list"
		}
		if !matches {
			return mismatch("expected a %s, got %s", kind, jstar.ShortRepr(v))
		}
		if len(items) != len(d.Children) {
			return mismatch("expected a %s of %d, got %d elements", kind, len(d.Children), len(items))
		}
		for i, c := range d.Children {
			if err := walk(c, items[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(d, v, ""); err != nil {
		return nil, err
	}
	return out, nil
}

// quoteKeys lists dict keys as a PyTreeDef writes them: 'a', 'b'.
func quoteKeys(keys []string) string {
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = "'" + k + "'"
	}
	return strings.Join(quoted, ", ")
}
