package starlark

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

func TestPytreeFlattenUnflattenRoundTrip(t *testing.T) {
	d := starlark.NewDict(2)
	_ = d.SetKey(starlark.String("b"), starlark.None)
	_ = d.SetKey(starlark.String("a"), starlark.Tuple{starlark.MakeInt(3)})
	tree := starlark.Tuple{
		starlark.MakeInt(1),
		starlark.NewList([]starlark.Value{starlark.String("x"), starlark.Float(2.5)}),
		d,
	}
	leaves, def, err := FlattenTree("test", tree)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := def.String(), "(*, [*, *], {'a': (*,), 'b': None})"; got != want {
		t.Errorf("treedef %s, want %s", got, want)
	}
	if got := starlark.Tuple(leaves).String(); got != `(1, "x", 2.5, 3)` {
		t.Errorf("leaves %s", got)
	}
	back, err := def.Unflatten(leaves)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := starlark.Equal(back, tree); err != nil || !eq {
		t.Errorf("unflatten gave %s, want %s", back, tree)
	}
	if _, err := def.Unflatten(leaves[:3]); err == nil || !strings.Contains(err.Error(), "has 4 leaves, got 3") {
		t.Errorf("short leaves: %v", err)
	}
	bad := starlark.NewDict(1)
	_ = bad.SetKey(starlark.MakeInt(1), starlark.None)
	if _, _, err := FlattenTree("jit", bad); err == nil || !strings.Contains(err.Error(), "jit: a dict in a pytree must have string keys, got a int key") {
		t.Errorf("int key: %v", err)
	}
	_, leafDef, _ := FlattenTree("t", starlark.MakeInt(7))
	_, noneDef, _ := FlattenTree("t", starlark.None)
	if leafDef.String() != "*" || noneDef.String() != "None" || noneDef.NumLeaves() != 0 || leafDef.Equal(noneDef) {
		t.Errorf("leaf %s, none %s", leafDef, noneDef)
	}
}
