package starlark_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/jaxsh/jaxsh/internal/scripttest"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// TestScripts runs every testdata/*.star file in go.starlark.net's style:
// chunks separated by --- lines, the assert module predeclared, and `###
// "regexp"` comments marking the line where a chunk must fail.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.star")
	if err != nil || len(files) == 0 {
		t.Fatalf("no script tests found: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			scripttest.Chunks(t, file, scriptExtras)
		})
	}
}

// scriptExtras are the script tests' own predeclared names.
var scriptExtras = starlark.StringDict{"probe": probe{}, "sym": starlark.NewBuiltin("sym", newSym)}

// probe[index] returns the index it was given, so scripts can observe what a
// subscript such as probe[1:3, None, ..., ::2] evaluates to.
type probe struct{}

var _ starlark.Mapping = probe{}

func (probe) String() string        { return "probe" }
func (probe) Type() string          { return "probe" }
func (probe) Freeze()               {}
func (probe) Truth() starlark.Bool  { return starlark.True }
func (probe) Hash() (uint32, error) { return 0, nil }
func (probe) Get(k starlark.Value) (starlark.Value, bool, error) {
	return k, true, nil
}

// sym is a symbolic value: arithmetic on syms builds the expression text with
// full parentheses, so scripts can check how the dialect grouped operators.
// Through HasBinary and HasMatmul it also claims **, @ and the comparisons,
// as arrays do.
type sym string

var (
	_ starlark.HasBinary = sym("")
	_ starlark.HasUnary  = sym("")
	_ HasMatmul          = sym("")
)

func (s sym) Matmul(y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if side == starlark.Left {
		return sym(fmt.Sprintf("(%s@%s)", s, y)), nil
	}
	return sym(fmt.Sprintf("(%s@%s)", y, s)), nil
}

func newSym(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &name); err != nil {
		return nil, err
	}
	return sym(name), nil
}

func (s sym) String() string        { return string(s) }
func (sym) Type() string            { return "sym" }
func (sym) Freeze()                 {}
func (sym) Truth() starlark.Bool    { return starlark.True }
func (s sym) Hash() (uint32, error) { return starlark.String(s).Hash() }
func (s sym) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if side == starlark.Left {
		return sym(fmt.Sprintf("(%s%s%s)", s, op, y)), nil
	}
	return sym(fmt.Sprintf("(%s%s%s)", y, op, s)), nil
}
func (s sym) Unary(op syntax.Token) (starlark.Value, error) {
	return sym(fmt.Sprintf("(%s%s)", op, s)), nil
}

func TestFormatErrorHidesOperatorBuiltins(t *testing.T) {
	var out bytes.Buffer
	session := newSession(&out, nil)
	for _, tc := range []struct{ src, want string }{
		{"x = 1\ny = x < 'a'\n", "Traceback (most recent call last):\n  ops.star:2:7: in <toplevel>\nError: int < string not implemented"},
		{"y = 2 ** 'a'\n", "Traceback (most recent call last):\n  ops.star:1:7: in <toplevel>\nError: unknown binary op: int ** string"},
		{"y = len(1)\n", "Traceback (most recent call last):\n  ops.star:1:8: in <toplevel>\nError in len: value of type int has no len"},
	} {
		_, err := session.ExecFile(session.NewThread("t"), "ops.star", tc.src)
		if err == nil {
			t.Errorf("%q: want an error", tc.src)
			continue
		}
		if got := FormatError(err); got != tc.want {
			t.Errorf("%q: FormatError =\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
}
