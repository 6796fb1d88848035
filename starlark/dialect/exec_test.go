package dialect

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/internal/pyformat"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Stand-ins for the runtime's hidden builtins, enough to check that the
// desugared trees compile and mean what the dialect says, on plain numbers.
func hiddenBuiltins() starlark.StringDict {
	pow := func(_ *starlark.Thread, fn *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, y starlark.Value
		if err := starlark.UnpackPositionalArgs(fn.Name(), args, kwargs, 2, &x, &y); err != nil {
			return nil, err
		}
		xi, xok := x.(starlark.Int)
		yi, yok := y.(starlark.Int)
		if xok && yok && yi.Sign() >= 0 {
			n, _ := yi.Int64()
			result := starlark.MakeInt(1)
			for ; n > 0; n-- {
				result = result.Mul(xi)
			}
			return result, nil
		}
		xf, xok := starlark.AsFloat(x)
		yf, yok := starlark.AsFloat(y)
		if !xok || !yok {
			return nil, fmt.Errorf("unsupported operand types for **: %s and %s", x.Type(), y.Type())
		}
		return starlark.Float(math.Pow(xf, yf)), nil
	}
	tagged := func(tag string) *starlark.Builtin {
		return starlark.NewBuiltin(tag, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return append(starlark.Tuple{starlark.String(tag)}, args...), nil
		})
	}
	compare := func(op syntax.Token) *starlark.Builtin {
		return starlark.NewBuiltin(op.String(), func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			ok, err := starlark.Compare(op, args[0], args[1])
			return starlark.Bool(ok), err
		})
	}
	echo := starlark.NewBuiltin("echo", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return args[0], nil
	})
	builtins := starlark.StringDict{
		"__pow__":      starlark.NewBuiltin("__pow__", pow),
		"__matmul__":   tagged("matmul"),
		"__slice__":    tagged("slice"),
		"__ellipsis__": starlark.String("Ellipsis"),
		"__lt__":       compare(syntax.LT),
		"__le__":       compare(syntax.LE),
		"__gt__":       compare(syntax.GT),
		"__ge__":       compare(syntax.GE),
		"__eq__":       compare(syntax.EQL),
		"__ne__":       compare(syntax.NEQ),
		"__import__":   starlark.NewBuiltin("__import__", importEcho),
		"keys":         &subscriptEcho{},
		"echo":         echo,
	}
	for name, b := range pyformat.Builtins() {
		builtins[name] = b
	}
	return builtins
}

// importEcho stands for the runtime's __import__: it returns what the
// import asked for, as "module -> name".
func importEcho(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return starlark.String(string(args[0].(starlark.String)) + " -> " + string(args[1].(starlark.String))), nil
}

// subscriptEcho returns its subscript, so that x[...] shows what the
// runtime receives.
type subscriptEcho struct{}

func (*subscriptEcho) String() string        { return "keys" }
func (*subscriptEcho) Type() string          { return "keys" }
func (*subscriptEcho) Freeze()               {}
func (*subscriptEcho) Truth() starlark.Bool  { return true }
func (*subscriptEcho) Hash() (uint32, error) { return 0, errors.New("unhashable") }
func (*subscriptEcho) Get(k starlark.Value) (starlark.Value, bool, error) {
	return k, true, nil
}

var runtimeOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

func run(t *testing.T, src string) (starlark.StringDict, error) {
	t.Helper()
	f, err := Parse(runtimeOptions, "run.star", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	predeclared := hiddenBuiltins()
	program, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return program.Init(&starlark.Thread{Name: "test"}, predeclared)
}

func TestDesugaredProgramsRun(t *testing.T) {
	globals, err := run(t, `
neg_square = -2 ** 2
tower = 2 ** 3 ** 2
half = 2 ** -1
mixed = 2 + 3 * 2 ** 2
mm = "a" @ "b"
x = 3
x **= 2
items = [1, 2]
items[0] @= 5
order = []
def trace(name):
    def decorate(f):
        order.append(name)
        return lambda: name + "(" + f() + ")"
    return decorate

@trace("outer")
@trace("inner")
def f():
    return "f"

called = f()
cmp = (1 < 2, 2 <= 2, 3 > 4, 4 >= 4, 1 == 1.0, "a" != "b", 1 in [1], 1 not in [1])
keys_seen = keys[1:3, None, ..., ::2]
plain_index = keys[1]
plain_slice = [0, 1, 2, 3, 4][1:4:2]
ell = ...
import jax.numpy as jnp
import jax.lax
from jax import jit as J
w, p = 8, 2
fs = f"[{3.14159:>{w}.{p}f}] {x=} {'%05.1f' % 2.25}"
fm = "{:+.2e}|{0!r:>5}".format(1234.5) if False else "{:+.2e}|{:>5}".format(1234.5, "ab")
`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"neg_square":  "-4",
		"tower":       "512",
		"half":        "0.5",
		"mixed":       "14",
		"mm":          `("matmul", "a", "b")`,
		"x":           "9",
		"items":       `[("matmul", 1, 5), 2]`,
		"called":      `"outer(inner(f))"`,
		"order":       `["inner", "outer"]`,
		"cmp":         "(True, True, False, True, True, True, True, False)",
		"keys_seen":   `(("slice", 1, 3, None), None, "Ellipsis", ("slice", None, None, 2))`,
		"plain_index": "1",
		"plain_slice": "[1, 3]",
		"ell":         `"Ellipsis"`,
		"jnp":         `"jax.numpy -> jax.numpy"`,
		"jax":         `"jax.lax -> jax"`,
		"J":           `"jax -> jax.jit"`,
		"fs":          `"[    3.14] x=9 002.2"`,
		"fm":          `"+1.23e+03|   ab"`,
	}
	for name, w := range want {
		if got := globals[name].String(); got != w {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
}

// TestRuntimeErrorPosition checks that an error raised by a hidden builtin
// is reported at its operator.
func TestRuntimeErrorPosition(t *testing.T) {
	_, err := run(t, "x = 1\ny = [\n  x ** 'a']\n")
	var evalErr *starlark.EvalError
	if !errors.As(err, &evalErr) {
		t.Fatalf("got %v, want an EvalError", err)
	}
	stack := evalErr.CallStack
	if len(stack) < 2 {
		t.Fatalf("call stack %v too short", stack)
	}
	caller := stack[len(stack)-2]
	if got := caller.Pos.String(); got != "run.star:3:5" {
		t.Errorf("error at %s, want run.star:3:5 (the **)\n%s", got, evalErr.Backtrace())
	}
}
