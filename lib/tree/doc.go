// Package tree is jaxsh's tree_util module, JAX's jax.tree_util; the root
// package offers it also as jax.tree with the short names (tree_map is
// jax.tree.map). Pytrees are jaxsh's (SPEC §3): tuples, lists, dicts with
// string keys (children ordered by key) and None (a node without
// children) are nodes; everything else is a leaf. is_leaf(x), when given,
// is asked of every subtree first, and a true answer makes it a leaf.
//
// Members (docs/builtins.md is generated from this table):
//
//	| name | what |
//	|---|---|
//	| `tree_map(f, tree, *rest, is_leaf=None)` | f applied leaf by leaf; each of rest has tree's structure down to tree's leaves |
//	| `tree_leaves(tree, is_leaf=None)`, `tree_structure(tree, is_leaf=None)`, `tree_flatten(tree, is_leaf=None)` | the leaves in order, the PyTreeDef, or both |
//	| `tree_unflatten(treedef, leaves)` | the tree of that structure holding leaves |
//	| `tree_reduce(function, tree, initializer, is_leaf=None)` | the leaves folded with function, from initializer when given |
//	| `tree_all(tree, is_leaf=None)` | whether every leaf is true |
//	| `tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose)` | an outer tree of inner trees turned into an inner tree of outer trees |
//
// A PyTreeDef prints as JAX's does (PyTreeDef({'a': *, 'b': [*, None]})),
// compares with == by structure, and has num_leaves, num_nodes and
// unflatten(leaves).
package tree
