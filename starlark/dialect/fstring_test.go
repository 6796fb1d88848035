package dialect

import (
	"io"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

func TestFStrings(t *testing.T) {
	tests := []struct{ src, want string }{
		{`f"plain"`, `"plain"`},
		{`f"{{x}}"`, `"{x}"`},
		{`f"{x}"`, `__fstring__("{}", x)`},
		{`F'a{x}b{y!r}c'`, `__fstring__("a{}b{!r}c", x, y)`},
		{`f"{x:>10.3f}"`, `__fstring__("{:>10.3f}", x)`},
		{`f"{x:{w}.{p}f} {y}"`, `__fstring__("{:{}.{}f} {}", x, w, p, y)`},
		{`f"{x!s:^{w}}"`, `__fstring__("{!s:^{}}", x, w)`},
		{`f"{x=}"`, `__fstring__("x={!r}", x)`},
		{`f"{ x = }"`, `__fstring__(" x = {!r}", x)`},
		{`f"{x=:.2f}"`, `__fstring__("x={:.2f}", x)`},
		{`f"{x=!s}"`, `__fstring__("x={!s}", x)`},
		{`f"{d['k']}"`, `__fstring__("{}", d['k'])`},
		{`f"{a != b} {a == b} {a <= b} {a < b}"`, `__fstring__("{} {} {} {}", __ne__(a, b), __eq__(a, b), __le__(a, b), __lt__(a, b))`},
		{`f"{x ** 2 @ w:.1e}"`, `__fstring__("{:.1e}", __matmul__(__pow__(x, 2), w))`},
		{`f"{[v for v in xs]}"`, `__fstring__("{}", [v for v in xs])`},
		{`f"{ {'a': 1}['a'] }"`, `__fstring__("{}", {'a': 1}['a'])`},
		{`f"{x, y}"`, `__fstring__("{}", x, y)`},
		{`f"{f'{x}'}"`, `__fstring__("{}", __fstring__("{}", x))`},
		{`f"{x}\n{{\t"`, `__fstring__("{}\n{{\t", x)`},
		{`rf"\d{x}"`, `__fstring__("\\d{}", x)`},
		// As in Python, {{ in a spec opens a field holding a dict.
		{`f"{x:{{}}}"`, `__fstring__("{:{}}", x, {})`},
		{`f"""{
x
}"""`, `__fstring__("{}", x)`},
		{`f"{'%.2f' % x}"`, `__fstring__("{}", __mod__('%.2f', x))`},
		{`f"{x:%}"`, `__fstring__("{:%}", x)`},
		{`f"{x!r:}"`, `__fstring__("{!r}", x)`},
		{`f"{x:{'>'}{10}}"`, `__fstring__("{:{}{}}", x, '>', 10)`},
		{`f"{x:{y:>3}}"`, `__fstring__("{:{:>3}}", x, y)`},
	}
	for _, test := range tests {
		x, err := ParseExpr(nil, "t.star", test.src)
		if test.want == "" {
			if err == nil {
				t.Errorf("%s: no error, got %s", test.src, exprString(x))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", test.src, err)
			continue
		}
		// The tuple field's text shows the tuple as its elements.
		if got := exprString(x); got != test.want && !(strings.Contains(test.src, "x, y") && got == `__fstring__("{}", x, y)`) {
			t.Errorf("%s\n got %s\nwant %s", test.src, got, test.want)
		}
	}
}

func TestFStringErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`x = f"{}"`, "e.star:1:8: f-string: empty expression not allowed"},
		{`x = f"{ }"`, "e.star:1:8: f-string: empty expression not allowed"},
		{`x = f"a}b"`, "e.star:1:8: f-string: single '}' is not allowed"},
		{`x = f"{x"`, "e.star:1:9: f-string: expecting '}'"},
		{`x = f"{x!z}"`, "e.star:1:10: f-string: invalid conversion character: expected 's', 'r', or 'a'"},
		{`x = f"{x!r x}"`, "e.star:1:11: f-string: expecting '}'"},
		{`x = f"{x#}"`, "e.star:1:9: f-string expression part cannot include '#'"},
		{`x = f"{x\n}"`, "e.star:1:9: f-string expression part cannot include a backslash"},
		{`x = f"{x)}"`, "e.star:1:9: f-string: unmatched ')'"},
		{`x = f"{(x]}"`, "e.star:1:10: f-string: closing parenthesis ']' does not match opening parenthesis '('"},
		{`x = f"{x:{y:{z}}}"`, "e.star:1:14: f-string: expressions nested too deeply"},
		{`x = f"{x y}"`, "e.star:1:10: f-string: expecting '}'"},
		{`x = f"{x +}"`, "e.star:1:11: got end of file, want primary expression"},
		{"x = 1\ny = f'''\n{a +\n  b c}'''", "e.star:4:5: f-string: expecting '}'"},
		{`x = f"\q{x}"`, `e.star:1:7: invalid escape sequence \q`},
		{`x = f"{x}`, "e.star:1:5: unexpected EOF in string"},
		{"x = f\"{x}\n\"", "e.star:1:5: unexpected newline in string"},
	}
	for _, test := range tests {
		_, err := Parse(nil, "e.star", test.src)
		if err == nil {
			t.Errorf("%q: no error, want %s", test.src, test.want)
			continue
		}
		if _, ok := err.(syntax.Error); !ok {
			t.Errorf("%q: error %v is a %T, want syntax.Error", test.src, err, err)
		}
		if err.Error() != test.want {
			t.Errorf("%q\n got %v\nwant %s", test.src, err, test.want)
		}
	}
}

func TestFStringPositions(t *testing.T) {
	f, err := Parse(nil, "p.star", "s = f'''ab{x}{\n  y.z}'''\n")
	if err != nil {
		t.Fatal(err)
	}
	call := f.Stmts[0].(*syntax.AssignStmt).RHS.(*syntax.CallExpr)
	if got := call.Fn.(*syntax.Ident).NamePos.String(); got != "p.star:1:5" {
		t.Errorf("call at %s, want p.star:1:5", got)
	}
	if got := call.Args[1].(*syntax.Ident).NamePos.String(); got != "p.star:1:12" {
		t.Errorf("x at %s, want p.star:1:12", got)
	}
	if got := syntax.Start(call.Args[2]).String(); got != "p.star:2:3" {
		t.Errorf("y.z at %s, want p.star:2:3", got)
	}
}

func TestImportsAndLoadAttribute(t *testing.T) {
	tests := []struct{ src, want string }{
		{"import jax\n", `jax = __import__("jax", "jax")`},
		{"import jax.numpy as jnp\n", `jnp = __import__("jax.numpy", "jax.numpy")`},
		{"import jax.numpy\n", `jax = __import__("jax.numpy", "jax")`},
		{"import jax.random as jr, jax.lax\n", "jr = __import__(\"jax.random\", \"jax.random\")\njax = __import__(\"jax.lax\", \"jax\")"},
		{"from jax import jit, grad, lax as L\n", "jit = __import__(\"jax\", \"jax.jit\")\ngrad = __import__(\"jax\", \"jax.grad\")\nL = __import__(\"jax\", \"jax.lax\")"},
		{"from jax.numpy import (sin,\n  cos,)\n", "sin = __import__(\"jax.numpy\", \"jax.numpy.sin\")\ncos = __import__(\"jax.numpy\", \"jax.numpy.cos\")"},
		{"def f():\n  import jax.numpy as jnp\n  return jnp.load\n", "def f():\n  jnp = __import__(\"jax.numpy\", \"jax.numpy\")\n  return jnp.load"},
		{"import jax; x = 1\n", "jax = __import__(\"jax\", \"jax\")\nx = 1"},
		{"y = jnp.load('a.npy').load\n", `y = jnp.load('a.npy').load`},
		{"load('m.star', 'a')\nx.load(1)\n", "load('m.star', a=\"a\")\nx.load(1)"},
		{"s = '%.3f' % x\nt = '{:>4}'.format(x, k=1)\nu = 7 % 2\n", "s = __mod__('%.3f', x)\nt = __str_format__('{:>4}', x, k=1)\nu = __mod__(7, 2)"},
		{"x %= 2\n", "x %= 2"},
	}
	for _, test := range tests {
		f, err := Parse(nil, "t.star", test.src)
		if err != nil {
			t.Errorf("%q: %v", test.src, err)
			continue
		}
		if got := stmtsString(f.Stmts); got != test.want {
			t.Errorf("%q\n got:\n%s\nwant:\n%s", test.src, got, test.want)
		}
	}
}

func TestPythonOnlySyntax(t *testing.T) {
	tests := []struct{ src, want string }{
		{"class C:\n  pass\n", "e.star:1:1: class is not supported in Starlark: use functions, and dicts for data"},
		{"try:\n  f()\nexcept:\n  pass\n", "e.star:1:1: try/except is not supported in Starlark: an error stops the program; check for the problem before it happens"},
		{"with open(p) as f:\n  pass\n", "e.star:1:1: with is not supported in Starlark: call the setup and the cleanup yourself"},
		{"def g():\n  yield 1\n", "e.star:2:3: yield is not supported in Starlark (there are no generators): build and return a list"},
		{"def g():\n  global n\n", "e.star:2:3: global is not supported in Starlark: a function cannot rebind a global; return the new value, or keep the state in a list or dict and change that"},
		{"def g():\n  nonlocal n\n", "e.star:2:3: nonlocal is not supported in Starlark: a function cannot rebind an enclosing function's variable; keep the state in a list or dict and change that"},
		{"if x is None:\n  pass\n", "e.star:1:6: 'is' is not supported in Starlark: compare with == (x == None)"},
		{"raise ValueError('x')\n", "e.star:1:1: raise is not supported in Starlark: call fail(message) to stop with an error"},
		{"del d['k']\n", "e.star:1:1: del is not supported in Starlark: use dict.pop(key) or list.pop(index)"},
		{"assert x == 1, 'msg'\n", "e.star:1:1: assert is not a Starlark statement: write `if not condition: fail(message)`"},
		{"x = as\n", "e.star:1:5: 'as' is only supported in import statements (import jax.numpy as jnp)"},
		{"from . import x\n", "e.star:1:7: relative imports are not supported: import a module by its full name (from jax import numpy)"},
		{"from jax import *\n", "e.star:1:17: from jax import * is not supported: name what you import (from jax import jit, grad)"},
		{"import\n", "e.star:2:1: not an identifier"},
		{"x = y.if\n", "e.star:1:9: not an identifier"},
	}
	for _, test := range tests {
		_, err := Parse(nil, "e.star", test.src)
		if err == nil || err.Error() != test.want {
			t.Errorf("%q\n got %v\nwant %s", test.src, err, test.want)
		}
		// Each is a dialect error: upstream rejects the input too.
		if _, upstreamErr := (&syntax.FileOptions{}).Parse("e.star", test.src, 0); upstreamErr == nil {
			t.Errorf("%q: upstream accepts it", test.src)
		}
		if _, problem := compareFile("e.star", test.src, 0); problem != "" {
			t.Errorf("%q: %s", test.src, problem)
		}
	}
	// assert stays an identifier elsewhere.
	if _, err := Parse(nil, "e.star", "assert.eq(1, 1)\nassert = 2\n"); err != nil {
		t.Error(err)
	}
}

func TestREPLImportsAndFStrings(t *testing.T) {
	lines := []string{
		"import jax.numpy as jnp\n",
		"s = f'''{x:>{w}}\n", "{y!r}'''\n",
		"print(f\"{a=}\", '%5.2f' % b)\n",
	}
	readline := func() ([]byte, error) {
		if len(lines) == 0 {
			return nil, io.EOF
		}
		line := lines[0]
		lines = lines[1:]
		return []byte(line), nil
	}
	for i, want := range []string{
		`jnp = __import__("jax.numpy", "jax.numpy")`,
		`s = __fstring__("{:>{}}\n{!r}", x, w, y)`,
		`print(__fstring__("a={!r}", a), __mod__('%5.2f', b))`,
	} {
		f, err := ParseCompoundStmt(nil, "repl", readline)
		if err != nil {
			t.Fatalf("statement %d: %v", i, err)
		}
		if got := stmtsString(f.Stmts); got != want {
			t.Errorf("statement %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
