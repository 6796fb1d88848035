package jaxsh_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

// Bad inputs that used to panic, say too little, or succeed wrongly: each is
// a clear, positioned Starlark error now (or, for the shift, a value).
func TestBadInputDefects(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"nn.softmax(jnp.ones((2, 3)), where=jnp.ones((4,), dtype=bool))", "Error in softmax: where: incompatible shapes for broadcasting: (4,), (2, 3) and ()"},
		{"nn.log_softmax(jnp.ones((2, 3)), where=jnp.ones((4,), dtype=bool))", "Error in log_softmax: where: incompatible shapes"},
		{"for v in jnp.array(3.0):\n    print(v)", "TypeError: iteration over a 0-d array"},
		{"f = jit(lambda x: x + 1, donate_argnums=0)\nx = jnp.ones(3)\ny = f(x)\nprint(x)", "Error in print: Array has been deleted: it was donated to jit(lambda)"},
		{"jnp.sin(jnp.ones(3), foo=1, bar=2)", "Error in sin: unexpected keyword arguments 'foo', 'bar'"},
		{"jnp.cos(jnp.ones(3), out=1)", "Error in cos: unexpected keyword argument 'out'"},
	} {
		var out bytes.Buffer
		interp := jaxsh.New(jaxsh.Options{Stdout: &out})
		_, err := interp.RunString(context.Background(), "bad.star", c.code, nil)
		msg := ""
		if err != nil {
			msg = jaxsh.FormatError(err)
		}
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "bad.star:") || strings.Contains(msg, "internal error") {
			t.Errorf("%s:\n%s\nwant a positioned error containing %q", c.code, msg, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("%s: printed %q before failing", c.code, out.String())
		}
	}
	var out bytes.Buffer
	interp := jaxsh.New(jaxsh.Options{Stdout: &out})
	if _, err := interp.RunString(context.Background(), "shift.star",
		"print(1 << jnp.arange(5), 256 >> jnp.arange(3), jnp.arange(3) << 1, 1 << 3)", nil); err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if want := "[ 1  2  4  8 16] [256 128  64] [0 2 4] 8\n"; out.String() != want {
		t.Errorf("shifts printed %q, want %q", out.String(), want)
	}
	// The augmented shifts too, an int target taking the array (a name, an
	// index, inside a function), ints keeping their meaning, a target with
	// effects evaluated once.
	out.Reset()
	if _, err := interp.RunString(context.Background(), "ishift.star", `
x = 1
x <<= jnp.arange(5)
y = 256
y >>= jnp.arange(3)
n = 3
n <<= 2
n >>= 1
l = [1, 2]
l[1] <<= jnp.arange(3)
def f(k):
    k >>= jnp.arange(2)
    return k
calls = []
def g():
    calls.append(1)
    return l
g()[0] <<= 3
print(x, y, n, l[1], f(9), l[0], len(calls))
`, nil); err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if want := "[ 1  2  4  8 16] [256 128  64] 6 [2 4 8] [9 4] 8 1\n"; out.String() != want {
		t.Errorf("augmented shifts printed %q, want %q", out.String(), want)
	}
}

// A runtime error inside a loaded module keeps the module's positions.
func TestLoadedModuleErrorKeepsItsPosition(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.star"), []byte("def f():\n    return 1 // 0\nx = f()\n"), 0o644)
	main := filepath.Join(dir, "main.star")
	os.WriteFile(main, []byte("load('bad.star', 'x')\n"), 0o644)
	_, err := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}}).RunFile(context.Background(), main, nil)
	if err == nil {
		t.Fatal("no error")
	}
	msg := jaxsh.FormatError(err)
	for _, want := range []string{filepath.Join(dir, "bad.star") + ":2:14: in f", "floored division by zero"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%s\nlacks %q", msg, want)
		}
	}
}
