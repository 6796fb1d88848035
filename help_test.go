package jaxsh_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

// help(obj) prints what docs/builtins.md says of a library member, a
// dialect function's docstring, or a module's table.
func TestHelp(t *testing.T) {
	cases := map[string][]string{
		"help(jnp.sum)":                         {"jnp.sum\n    reductions (`axis` int or tuple, `keepdims`)\n"},
		"help(nn.relu)":                         {"nn.relu: relu(x)\n    activations\n"},
		"help(tree_util.tree_map)":              {"tree_util.tree_map: tree_map(f, tree, *rest, is_leaf=None)\n"},
		"help(jnp.diff)":                        {"diff(a, n=1, axis=-1, prepend=None, append=None)\n    diff(a, n=1, axis=-1, prepend=None, append=None): the n-th discrete difference along axis.\n"},
		"help(jit)":                             {"jit(fun, static_argnums=(), static_argnames=(), donate_argnums=(), device=None, inline=False)\n    compile `fun`"},
		"help(random)":                          {"module random:\n", "| `normal(key, shape=(), dtype=float32)` | standard normal |\n"},
		"import jax.numpy as np\nhelp(np.mean)": {"jnp.mean\n"},
		"help(jnp.float32)":                     {"dtype('float32'): a value of type dtype\n"},
		"help()":                                {"help(obj)", "namespaces     image, jnp, lax, nn, plot, random, scipy, tree_util"},
	}
	for code, wants := range cases {
		var out bytes.Buffer
		interp := jaxsh.New(jaxsh.Options{Stdout: &out})
		if _, err := interp.RunString(context.Background(), "help.star", code, nil); err != nil {
			t.Fatalf("%s: %s", code, jaxsh.FormatError(err))
		}
		for _, want := range wants {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s printed:\n%s\nwant it to contain:\n%s", code, out.String(), want)
			}
		}
	}
}
