package numpy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/internal/arrayfmt"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// TestPrintoptionsAgainstNumPy sets NumPy's print options with
// jnp.set_printoptions and compares str() of arrays, and jnp.array_str
// with its own arguments, with NumPy's texts (testdata/gen_printoptions.py).
func TestPrintoptionsAgainstNumPy(t *testing.T) {
	t.Cleanup(func() { _ = jstarlark.SetPrintOptions(arrayfmt.DefaultOptions()) })
	raw, err := os.ReadFile("testdata/printoptions_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]any
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	interp := jaxsh.New(jaxsh.Options{})
	for _, c := range cases {
		opts, expr, want := c[0].(map[string]any), c[1].(string), c[2].(string)
		var args []string
		for k, v := range opts {
			switch v := v.(type) {
			case bool:
				args = append(args, fmt.Sprintf("%s=%s", k, map[bool]string{true: "True", false: "False"}[v]))
			default:
				args = append(args, fmt.Sprintf("%s=%v", k, v))
			}
		}
		sort.Strings(args)
		code := "jnp.set_printoptions(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False)\n" +
			"jnp.set_printoptions(" + strings.Join(args, ", ") + ")\n" +
			"r = str(" + expr + ")\n"
		g, err := interp.RunString(context.Background(), "printoptions.star", code, nil)
		if err != nil {
			t.Errorf("%v %s: %s", args, expr, jaxsh.FormatError(err))
			continue
		}
		if got := string(g["r"].(starlark.String)); got != want {
			t.Errorf("%v %s:\ngot\n%s\nwant\n%s", args, expr, got, want)
		}
	}
}

// TestPrintoptionsReadBackAndErrors: get_printoptions returns what was
// set, repr follows the options too, and an option jaxsh fixes is refused
// with its name and the value it keeps.
func TestPrintoptionsReadBackAndErrors(t *testing.T) {
	t.Cleanup(func() { _ = jstarlark.SetPrintOptions(arrayfmt.DefaultOptions()) })
	interp := jaxsh.New(jaxsh.Options{})
	code := `jnp.set_printoptions(precision=3, threshold=4, edgeitems=1, linewidth=60, suppress=True, sign="-")
o = jnp.get_printoptions()
r = repr(jnp.array([1.0, 2.5, 1e-6, 7.0, 8.0]))
`
	g, err := interp.RunString(context.Background(), "printoptions.star", code, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	want := `{"edgeitems": 1, "threshold": 4, "floatmode": "maxprec", "precision": 3, "suppress": True, "linewidth": 60, "nanstr": "nan", "infstr": "inf", "sign": "-", "formatter": None, "legacy": False}`
	if got := g["o"].String(); got != want {
		t.Errorf("get_printoptions() = %s\nwant %s", got, want)
	}
	if got, want := string(g["r"].(starlark.String)), "Array([1., ..., 8.], dtype=float32)"; got != want {
		t.Errorf("repr = %s, want %s", got, want)
	}
	for _, c := range []struct{ code, want string }{
		{`jnp.set_printoptions(sign="+")`, `set_printoptions: sign="+" is not supported (jaxsh prints with sign="-")`},
		{`jnp.set_printoptions(precision=-1)`, "set_printoptions: precision must be >= 0, got -1"},
		{`jnp.set_printoptions(precision=2.5)`, "set_printoptions: precision must be an int, got float"},
		{`jnp.array_str(jnp.ones(2), suppress_small=1)`, "array_str: suppress_small must be a bool, got int"},
	} {
		_, err := interp.RunString(context.Background(), "bad.star", "x = 1\n"+c.code+"\n", nil)
		if err == nil || !strings.Contains(jaxsh.FormatError(err), c.want) || !strings.Contains(jaxsh.FormatError(err), "bad.star:2:") {
			t.Errorf("%s: error %v, want %q at bad.star:2", c.code, err, c.want)
		}
	}
}
