package pyfmt

import (
	"math/big"
	"testing"
)

// runtime marks a value as known only later.
type runtime struct{ Value }

// pair is a tuple holding two runtime values, as a Composite.
type pair struct{ a, b Value }

func (p pair) Type() string { return "tuple" }
func (p pair) Str() string  { return p.Repr() }
func (p pair) Repr() string { return "(" + p.a.Repr() + ", " + p.b.Repr() + ")" }
func (p pair) Parts() ([]string, []Value) {
	return []string{"(", ", ", ")"}, []Value{p.a, p.b}
}

func TestStageDefersRuntimeValues(t *testing.T) {
	isRuntime := func(v Value) bool { _, ok := v.(runtime); return ok }
	loss := runtime{pyFloat(0.693147)}
	step := pyInt{big.NewInt(7)}
	for _, c := range []struct {
		template string
		args     []Value
		kwargs   map[string]Value
		staged   string
		want     string
	}{
		{"loss {l:.4f} step {s}", nil, map[string]Value{"l": loss, "s": step}, "loss {:.4f} step 7", "loss 0.6931 step 7"},
		{"{} {!r:>12} {{x}} {:{w}.{p}e}", []Value{loss, pyStr("a"), loss}, map[string]Value{"w": pyInt{big.NewInt(10)}, "p": pyInt{big.NewInt(2)}},
			"{} {{!r:>12}} {{{{x}}}} {:10.2e}", ""},
		{"{0} and {0!r} of {1}", []Value{loss, pyStr("{}")}, nil, "{} and {!r} of {{}}", "0.693147 and 0.693147 of {}"},
		{"pair {}", []Value{pair{loss, runtime{pyStr("s")}}}, nil, "pair ({!r}, {!r})", "pair (0.693147, 's')"},
	} {
		staged, later, err := Stage(c.template, c.args, c.kwargs, isRuntime)
		if err != nil {
			t.Errorf("%q: %v", c.template, err)
			continue
		}
		if c.want == "" {
			// Compare with formatting everything at once.
			var err error
			plain := make([]Value, len(c.args))
			for i, v := range c.args {
				plain[i] = v
				if r, ok := v.(runtime); ok {
					plain[i] = r.Value
				}
			}
			if c.want, err = Format(c.template, plain, c.kwargs); err != nil {
				t.Fatal(err)
			}
			c.staged = staged
		}
		if staged != c.staged {
			t.Errorf("%q: staged %q, want %q", c.template, staged, c.staged)
		}
		for i, v := range later {
			if r, ok := v.(runtime); ok {
				later[i] = r.Value
			}
		}
		got, err := Format(staged, later, nil)
		if err != nil || got != c.want {
			t.Errorf("%q: later gives %q %v, want %q", c.template, got, err, c.want)
		}
	}
	for template, want := range map[string]string{
		"{:{}}":   "a format spec cannot use a value known only at run time",
		"{!x}":    "Unknown conversion specifier x",
		"{0:>5}":  "unsupported format string passed to tuple.__format__",
		"{1:{{}}": "unmatched '{' in format spec",
	} {
		args := []Value{loss, loss}
		if template == "{0:>5}" {
			args = []Value{pair{loss, loss}}
		}
		if _, _, err := Stage(template, args, nil, isRuntime); err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", template, err, want)
		}
	}
}
