package repl

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
)

func TestREPLComplete(t *testing.T) {
	session, err := jaxsh.Options{Stdout: io.Discard}.NewSession(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := session.NewREPL()
	defer r.Close()
	lines := strings.SplitAfter("x = jnp.arange(3)\nwhile_count = 1\n_secret = 2\ns = 'abc'\n", "\n")
	next := 0
	readline := func() ([]byte, error) {
		if next == len(lines) {
			return []byte{}, nil // the end of input closes open blocks
		}
		next++
		return []byte(lines[next-1]), nil
	}
	for next < len(lines) && lines[next] != "" {
		f, err := r.Parse(readline)
		if err == nil {
			err = r.Exec(f)
		}
		if err != nil {
			t.Fatal(jstarlark.FormatError(err))
		}
	}
	tests := []struct {
		prefix string
		want   []string // exactly, or (contains) at least
		exact  bool
	}{
		{"jnp.ar", []string{"jnp.arange", "jnp.array"}, false},
		{"x.sh", []string{"x.shape"}, true},
		{"x.T.nd", []string{"x.T.ndim"}, true},
		{"jnp.linalg.no", []string{"jnp.linalg.norm"}, true},
		{"whi", []string{"while", "while_count"}, true},
		{"le", []string{"len"}, true},
		{"s.up", []string{"s.upper"}, true},
		{"_s", []string{"_secret"}, true},
		{"_", []string{"_secret"}, false},
		{"nosuch.x", nil, true},
		{"x.shape.x", nil, true}, // a tuple has no attributes
		{"1x.a", nil, true},
	}
	for _, tt := range tests {
		got := complete(r.Globals(), tt.prefix)
		if tt.exact && !slices.Equal(got, tt.want) {
			t.Errorf("Complete(%q) = %q, want %q", tt.prefix, got, tt.want)
		}
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Complete(%q) = %q lacks %q", tt.prefix, got, w)
			}
		}
	}
	// Hidden operator builtins and private names stay out of a bare
	// completion.
	for _, name := range complete(r.Globals(), "") {
		if strings.HasPrefix(name, "_") {
			t.Errorf("Complete(\"\") offers %q", name)
		}
	}
	if got := complete(r.Globals(), "pr"); !slices.Contains(got, "print") {
		t.Errorf("Complete(\"pr\") = %q lacks print", got)
	}
}
