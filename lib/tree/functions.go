package tree

import (
	"fmt"

	jstar "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

func treeMap(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := "tree_map"
	var isLeaf starlark.Value = starlark.None
	for _, kv := range kwargs {
		if kv[0] != starlark.String("is_leaf") {
			return nil, fmt.Errorf("%s: unexpected keyword argument %s", fn, kv[0])
		}
		isLeaf = kv[1]
	}
	if len(args) < 2 {
		return nil, fmt.Errorf("%s: want f and at least one tree, got %d arguments", fn, len(args))
	}
	f, ok := args[0].(starlark.Callable)
	if !ok {
		return nil, fmt.Errorf("%s: f must be a function, got %s", fn, args[0].Type())
	}
	leaves, def, err := flatten(thread, fn, args[1], isLeaf)
	if err != nil {
		return nil, err
	}
	columns := [][]starlark.Value{leaves}
	for i, other := range args[2:] {
		subtrees, err := upTo(fn, fmt.Sprintf("tree %d", i+2), def, other)
		if err != nil {
			return nil, err
		}
		columns = append(columns, subtrees)
	}
	results := make([]starlark.Value, len(leaves))
	for i := range leaves {
		row := make(starlark.Tuple, len(columns))
		for j, c := range columns {
			row[j] = c[i]
		}
		if results[i], err = starlark.Call(thread, f, row, nil); err != nil {
			return nil, err
		}
	}
	return def.Unflatten(results)
}

// treeArgs unpacks (tree, is_leaf=None).
func treeArgs(fn string, args starlark.Tuple, kwargs []starlark.Tuple) (tree, isLeaf starlark.Value, err error) {
	isLeaf = starlark.None
	err = starlark.UnpackArgs(fn, args, kwargs, "tree", &tree, "is_leaf?", &isLeaf)
	return tree, isLeaf, err
}

func treeLeaves(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	tree, isLeaf, err := treeArgs("tree_leaves", args, kwargs)
	if err != nil {
		return nil, err
	}
	leaves, _, err := flatten(thread, "tree_leaves", tree, isLeaf)
	if err != nil {
		return nil, err
	}
	return starlark.NewList(leaves), nil
}

func treeStructure(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	tree, isLeaf, err := treeArgs("tree_structure", args, kwargs)
	if err != nil {
		return nil, err
	}
	_, def, err := flatten(thread, "tree_structure", tree, isLeaf)
	if err != nil {
		return nil, err
	}
	return &Def{def}, nil
}

func treeFlatten(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	tree, isLeaf, err := treeArgs("tree_flatten", args, kwargs)
	if err != nil {
		return nil, err
	}
	leaves, def, err := flatten(thread, "tree_flatten", tree, isLeaf)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{starlark.NewList(leaves), &Def{def}}, nil
}

func treeUnflatten(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var treedef *Def
	var leaves starlark.Iterable
	if err := starlark.UnpackArgs("tree_unflatten", args, kwargs, "treedef", &treedef, "leaves", &leaves); err != nil {
		return nil, err
	}
	return treedef.unflatten("tree_unflatten", leaves)
}

func treeReduce(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var function, tree, initializer starlark.Value
	var isLeaf starlark.Value = starlark.None
	if err := starlark.UnpackArgs("tree_reduce", args, kwargs, "function", &function, "tree", &tree, "initializer?", &initializer, "is_leaf?", &isLeaf); err != nil {
		return nil, err
	}
	leaves, _, err := flatten(thread, "tree_reduce", tree, isLeaf)
	if err != nil {
		return nil, err
	}
	acc := initializer
	if acc == nil {
		if len(leaves) == 0 {
			return nil, fmt.Errorf("tree_reduce: a tree without leaves and no initializer")
		}
		acc, leaves = leaves[0], leaves[1:]
	}
	for _, leaf := range leaves {
		if acc, err = starlark.Call(thread, function, starlark.Tuple{acc, leaf}, nil); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

func treeAll(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	tree, isLeaf, err := treeArgs("tree_all", args, kwargs)
	if err != nil {
		return nil, err
	}
	leaves, _, err := flatten(thread, "tree_all", tree, isLeaf)
	if err != nil {
		return nil, err
	}
	for _, leaf := range leaves {
		if !leaf.Truth() {
			return starlark.False, nil
		}
	}
	return starlark.True, nil
}

// treeTranspose turns a tree of structure outer (of trees of structure
// inner) into a tree of structure inner of trees of structure outer.
func treeTranspose(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var outer, inner *Def
	var tree starlark.Value
	if err := starlark.UnpackArgs("tree_transpose", args, kwargs, "outer_treedef", &outer, "inner_treedef", &inner, "pytree_to_transpose", &tree); err != nil {
		return nil, err
	}
	leaves, def, err := jstar.FlattenTree("tree_transpose", tree)
	if err != nil {
		return nil, err
	}
	expected := compose(outer.d, inner.d)
	if !def.Equal(expected) {
		return nil, fmt.Errorf("tree_transpose: the tree has structure %s, want %s (outer %s holding inner %s)", def, expected, outer.d, inner.d)
	}
	nOuter, nInner := outer.d.NumLeaves(), inner.d.NumLeaves()
	columns := make([]starlark.Value, nInner)
	for j := range nInner {
		column := make([]starlark.Value, nOuter)
		for i := range nOuter {
			column[i] = leaves[i*nInner+j]
		}
		if columns[j], err = outer.d.Unflatten(column); err != nil {
			return nil, err
		}
	}
	return inner.d.Unflatten(columns)
}

// compose is outer with each leaf replaced by inner.
func compose(outer, inner *jstar.TreeDef) *jstar.TreeDef {
	if outer.Kind == jstar.TreeLeaf {
		return inner
	}
	c := *outer
	c.Children = make([]*jstar.TreeDef, len(outer.Children))
	for i, child := range outer.Children {
		c.Children[i] = compose(child, inner)
	}
	return &c
}
