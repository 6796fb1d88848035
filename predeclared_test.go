package jaxsh_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

// An embedding program chooses the namespaces its scripts see; the
// language, arrays and jit stay whatever it chooses.
func TestOptionsNamespacesChooseWhatScriptsSee(t *testing.T) {
	var out bytes.Buffer
	in := jaxsh.New(jaxsh.Options{Stdout: &out, Namespaces: []string{"jnp"}})
	if _, err := in.RunString(context.Background(), "ok.star", "print(jit(lambda x: x * 2)(jnp.arange(3)))\n", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "[0 2 4]\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	_, err := in.RunString(context.Background(), "lax.star", "lax.neg(1.0)\n", nil)
	if err == nil || !strings.Contains(err.Error(), "undefined: lax") {
		t.Errorf("lax without the lax namespace: got %v, want undefined: lax", err)
	}

	none := jaxsh.New(jaxsh.Options{Stdout: &out, Namespaces: []string{}})
	_, err = none.RunString(context.Background(), "jnp.star", "jnp.zeros(2)\n", nil)
	if err == nil || !strings.Contains(err.Error(), "undefined: jnp") {
		t.Errorf("jnp with no namespaces: got %v, want undefined: jnp", err)
	}

	bad := jaxsh.New(jaxsh.Options{Stdout: &out, Namespaces: []string{"jnp", "sympy"}})
	_, err = bad.RunString(context.Background(), "x.star", "x = 1\n", nil)
	if err == nil || err.Error() != `unknown namespace "sympy" (known: image, jnp, lax, nn, plot, random, scipy, tree_util)` {
		t.Errorf("unknown namespace: got %v", err)
	}
}
