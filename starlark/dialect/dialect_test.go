package dialect

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

func TestExpressions(t *testing.T) {
	tests := []struct{ src, want string }{
		// ** binds tighter than a unary operator on its left, and its
		// right operand may be unary; it is right-associative.
		{"-2 ** 2", "-__pow__(2, 2)"},
		{"2 ** 3 ** 2", "__pow__(2, __pow__(3, 2))"},
		{"2 ** -1", "__pow__(2, -1)"},
		{"-2 ** -1 ** 2", "-__pow__(2, -__pow__(1, 2))"},
		{"~x ** +y", "~__pow__(x, +y)"},
		{"(-2) ** 2", "__pow__((-2), 2)"},
		{"- -x ** 2", "--__pow__(x, 2)"},
		{"x.y[0](1) ** f(2).z", "__pow__(x.y[0](1), f(2).z)"},
		{"a ** b * c", "(__pow__(a, b) * c)"},
		{"a * b ** c", "(a * __pow__(b, c))"},
		{"a ** b + c ** d", "(__pow__(a, b) + __pow__(c, d))"},
		{"-a * b", "(-a * b)"},
		// @ shares the level of * / // % and associates to the left.
		{"a @ b * c", "(__matmul__(a, b) * c)"},
		{"a * b @ c", "__matmul__((a * b), c)"},
		{"a @ b @ c", "__matmul__(__matmul__(a, b), c)"},
		{"a // b @ c % d", "__mod__(__matmul__((a // b), c), d)"},
		{"a + b @ c", "(a + __matmul__(b, c))"},
		{"a @ b ** 2", "__matmul__(a, __pow__(b, 2))"},
		{"-a @ b", "__matmul__(-a, b)"},
		// Comparisons become calls; in and not in stay.
		{"a < b", "__lt__(a, b)"},
		{"a <= b", "__le__(a, b)"},
		{"a > b", "__gt__(a, b)"},
		{"a >= b", "__ge__(a, b)"},
		{"a == b", "__eq__(a, b)"},
		{"a != b", "__ne__(a, b)"},
		{"a in b", "(a in b)"},
		{"a not in b", "(a not in b)"},
		{"a ** 2 < b @ c", "__lt__(__pow__(a, 2), __matmul__(b, c))"},
		{"not a ** b == c", "not __eq__(__pow__(a, b), c)"},
		{"a < b and c != d or e in f", "((__lt__(a, b) and __ne__(c, d)) or (e in f))"},
		{"(a < b) < c", "__lt__((__lt__(a, b)), c)"},
		{"a | b == c & d", "__eq__((a | b), (c & d))"},
		{"x if a < b else y", "(x if __lt__(a, b) else y)"},
		{"lambda x, n=2: x ** n > 0", "(lambda x, n=2: __gt__(__pow__(x, n), 0))"},
		{"[v ** 2 for v in xs if v < 0]", "[__pow__(v, 2) for v in xs if __lt__(v, 0)]"},
		{"{k: v @ w for k, v in d.items()}", "{k: __matmul__(v, w) for k, v in d.items()}"},
		// ** at the start of an argument is still **kwargs.
		{"f(x ** 2, **kw)", "f(__pow__(x, 2), **kw)"},
		{"f(*a ** b, k=a ** b)", "f(*__pow__(a, b), k=__pow__(a, b))"},
		{"f(**a ** b)", "f(**__pow__(a, b))"},
		// Ellipsis.
		{"...", "__ellipsis__"},
		{"(..., ...)", "(__ellipsis__, __ellipsis__)"},
		{"f(...)", "f(__ellipsis__)"},
		{"1..real", "1..real"},
		// Subscripts: upstream forms when plain...
		{"x[i]", "x[i]"},
		{"x[i, j]", "x[i, j]"},
		{"x[(i, j)]", "x[(i, j)]"},
		{"x[1:3]", "x[1:3]"},
		{"x[1:]", "x[1:]"},
		{"x[:3]", "x[:3]"},
		{"x[:]", "x[:]"},
		{"x[::]", "x[:]"},
		{"x[::2]", "x[::2]"},
		{"x[a:b:c]", "x[a:b:c]"},
		{"x[None]", "x[None]"},
		{"x[...]", "x[__ellipsis__]"},
		{"x[..., 0]", "x[__ellipsis__, 0]"},
		{"x[a < b]", "x[__lt__(a, b)]"},
		// ... multi-dimensional when a slice shares the brackets.
		{"x[1:3, None, ..., ::2]", "x[__slice__(1, 3, None), None, __ellipsis__, __slice__(None, None, 2)]"},
		{"x[a, b:c]", "x[a, __slice__(b, c, None)]"},
		{"x[:, 0]", "x[__slice__(None, None, None), 0]"},
		{"x[0, :]", "x[0, __slice__(None, None, None)]"},
		{"x[::-1, 1::, :2:]", "x[__slice__(None, None, -1), __slice__(1, None, None), __slice__(None, 2, None)]"},
		{"x[i][j:k, l]", "x[i][__slice__(j, k, None), l]"},
		{"x[a:b, c:d][e]", "x[__slice__(a, b, None), __slice__(c, d, None)][e]"},
		{"x[lo():hi(), ...]", "x[__slice__(lo(), hi(), None), __ellipsis__]"},
		// ... and a trailing comma makes a tuple, as in Python.
		{"x[1,]", "x[1,]"},
		{"x[1:2,]", "x[__slice__(1, 2, None),]"},
		{"x[a, b,]", "x[a, b]"},
	}
	for _, test := range tests {
		x, err := ParseExpr(nil, "t.star", test.src)
		if err != nil {
			t.Errorf("%s: %v", test.src, err)
			continue
		}
		if got := exprString(x); got != test.want {
			t.Errorf("%s\n got %s\nwant %s", test.src, got, test.want)
		}
	}
}

func TestStatements(t *testing.T) {
	tests := []struct{ src, want string }{
		{"@jit\ndef f(x):\n  return x\n", "def f(x):\n  return x\nf = jit(f)"},
		// Stacked decorators apply bottom-up: the nearest the def first.
		{"@a\n@b(1)\n@c.d\ndef f(): pass\n", "def f():\n  pass\nf = a(b(1)(c.d(f)))"},
		{"@partial(jit, static_argnums=(1,))\ndef g(x, n):\n  return x ** n\n",
			"def g(x, n):\n  return __pow__(x, n)\ng = partial(jit, static_argnums=(1,))(g)"},
		{"@d\n\n# comment\n@e\n  # indented comment\ndef f(): pass\n", "def f():\n  pass\nf = d(e(f))"},
		{"@(lambda f: f)\ndef f(): pass\n", "def f():\n  pass\nf = ((lambda f: f))(f)"},
		{"def outer():\n  @d\n  def inner(): pass\n  return inner\n",
			"def outer():\n  def inner():\n    pass\n  inner = d(inner)\n  return inner"},
		{"if c:\n  @d\n  def h(): pass\nelse:\n  h = None\n",
			"if c:\n  def h():\n    pass\n  h = d(h)\nelse:\n  h = None"},
		{"for i in r:\n    @d(i)\n    def k(): pass\n", "for i in r:\n  def k():\n    pass\n  k = d(i)(k)"},
		// **= and @= assign the call; other augmented assignments stay.
		{"x **= 2\n", "x = __pow__(x, 2)"},
		{"x @= w\n", "x = __matmul__(x, w)"},
		{"x.y[i] **= -1 ** 2\n", "x.y[i] = __pow__(x.y[i], -__pow__(1, 2))"},
		{"(x) @= w < v\n", "(x) = __matmul__((x), __lt__(w, v))"},
		{"x += 1\n", "x += 1"},
		{"x *= 2 ** 3\n", "x *= __pow__(2, 3)"},
		{"a, b = x[1:, ::2], ...\n", "a, b = x[__slice__(1, None, None), __slice__(None, None, 2)], __ellipsis__"},
		{"for i, j in x[:, 0]: s += i < j\n", "for i, j in x[__slice__(None, None, None), 0]:\n  s += __lt__(i, j)"},
		{"while a < b: a **= 2\n", "while __lt__(a, b):\n  a = __pow__(a, 2)"},
		{"load('m.star', 'a', b='c')\n", "load('m.star', a=\"a\", b=\"c\")"},
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

func TestSyntaxErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x[1:2:3:4]\n", "e.star:1:9: got ':', want ']'"},
		{"x[1:2, 3:4:5:6]\n", "e.star:1:14: got ':', want ']'"},
		{"x[1,,]\n", "e.star:1:5: got ',', want primary expression"},
		{"x[]\n", "e.star:1:3: got ']', want primary expression"},
		{"x[1, 2\n", "e.star:2:1: got end of file, want ']'"},
		{"x[a, =\n", "e.star:1:4: unparenthesized tuple with trailing comma"},
		{"@d\nx = 1\n", "e.star:2:1: decorator must be followed by def, got identifier"},
		{"@d\n", "e.star:2:1: decorator must be followed by def, got end of file"},
		{"@d\n@\ndef f(): pass\n", "e.star:2:2: got newline, want primary expression"},
		{"@d def f(): pass\n", "e.star:1:7: got def, want newline"},
		{"@d\n  def f(): pass\n", "e.star:2:3: decorator must be followed by def, got indent"},
		{"def g():\n  @d\nx = 1\n", "e.star:3:1: decorator must be followed by def, got outdent"},
		{"x = @d\n", "e.star:1:5: got '@', want primary expression"},
		{"@= x\n", "e.star:1:1: got '@=', want primary expression"},
		{"a ** \n", "e.star:1:6: got newline, want primary expression"},
		{"a ** b **\n", "e.star:1:10: got newline, want primary expression"},
		{"2 ** ** 3\n", "e.star:1:6: got '**', want primary expression"},
		{"a @ \n", "e.star:1:5: got newline, want primary expression"},
		{"a < b < c\n", "e.star:1:8: < does not associate with < (use parens)"},
		{"a, b **= 1\n", "e.star:1:1: can't use tuple expression in augmented assignment"},
		{"[a] @= 1\n", "e.star:1:1: can't use list expression in augmented assignment"},
		{"... = 1\n", "e.star:1:1: cannot assign to ..."},
		{"a, (b, ...) = 1, (2, 3)\n", "e.star:1:8: cannot assign to ..."},
		{"... += 1\n", "e.star:1:1: cannot assign to ..."},
		{"for ... in x: pass\n", "e.star:1:5: cannot assign to ..."},
		{"[1 for a, ... in x]\n", "e.star:1:11: cannot assign to ..."},
		{"f(...=1)\n", "e.star:1:7: keyword argument must have form name=expr"},
		{"def f(...): pass\n", "e.star:1:10: not an identifier"},
		{"x....y\n", "e.star:1:5: got '...', want newline"},
		{"x. ...\n", "e.star:1:7: not an identifier"},
		{"x ...\n", "e.star:1:6: got '...', want newline"},
		{"..\n", "e.star:1:1: got '.', want primary expression"},
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
		// Plain Starlark must fail as upstream does.
		if _, extended, _ := ParsePlain(nil, "e.star", test.src, 0); !extended {
			if _, upstreamErr := (&syntax.FileOptions{}).Parse("e.star", test.src, 0); fmt.Sprint(upstreamErr) != test.want {
				t.Errorf("%q: upstream says %v", test.src, upstreamErr)
			}
		}
	}
}

// TestPositions checks where the calls that stand for operators are placed:
// function name, Lparen and Rparen all at the operator.
func TestPositions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"y = a ** b\n", "__pow__ 1:7"},
		{"y = a @ b\n", "__matmul__ 1:7"},
		{"y = a <= b\n", "__le__ 1:7"},
		{"y = a == b\n", "__eq__ 1:7"},
		{"x **= 2\n", "__pow__ 1:3"},
		{"x[1:2, ::3]\n", "__slice__ 1:4, __slice__ 1:8"},
		{"@jit\n@partial(jit)\ndef f(): pass\n", "jit 1:1, partial(jit) 2:1"},
		{"if x:\n    y = [\n      a\n      ** b]\n", "__pow__ 4:7"},
	}
	for _, test := range tests {
		f, err := Parse(nil, "p.star", test.src)
		if err != nil {
			t.Errorf("%q: %v", test.src, err)
			continue
		}
		var calls []string
		syntax.Walk(f, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || call.Lparen != call.Rparen {
				return true
			}
			if id, ok := call.Fn.(*syntax.Ident); ok && strings.HasPrefix(id.Name, "__") && id.NamePos != call.Lparen {
				t.Errorf("%q: %s named at %v, called at %v", test.src, id.Name, id.NamePos, call.Lparen)
			}
			calls = append(calls, fmt.Sprintf("%s %d:%d", exprString(call.Fn), call.Lparen.Line, call.Lparen.Col))
			return true
		})
		if got := strings.Join(calls, ", "); got != test.want {
			t.Errorf("%q: got %s, want %s", test.src, got, test.want)
		}
	}

	// The decorated name keeps the def's position, and the assignment's
	// operator is the first decorator.
	f, err := Parse(nil, "p.star", "@a\n@b\ndef fn(): pass\n")
	if err != nil {
		t.Fatal(err)
	}
	assign := f.Stmts[1].(*syntax.AssignStmt)
	if got, want := fmt.Sprintf("%v %v %v", assign.OpPos, assign.LHS.(*syntax.Ident).NamePos, syntax.Start(assign.RHS)), "p.star:1:1 p.star:3:5 p.star:1:2"; got != want {
		t.Errorf("decorator assignment at %s, want %s", got, want)
	}
}

// TestParsePlainReportsExtensions checks the extension flag on both sides
// of the line.
func TestParsePlainReportsExtensions(t *testing.T) {
	tests := []struct {
		src      string
		extended bool
	}{
		{"x = a < b\n", false},
		{"x[1, 2]\nx[1:2]\nf(**kw)\ndef g(*a, **k): pass\n", false},
		{"x = a ** b\n", true},
		{"x = a @ b\n", true},
		{"x **= 2\n", true},
		{"x @= 2\n", true},
		{"x = ...\n", true},
		{"x[1, 2:3]\n", true},
		{"x[1:2, 3]\n", true},
		{"x[1,]\n", true},
		{"@d\ndef f(): pass\n", true},
		{"x = ( @\n", true},             // an error, after an extension
		{"x = (1 +\n", false},           // an error, without one
		{"x = \"**\" # @ ...\n", false}, // in a string and a comment
	}
	for _, test := range tests {
		_, extended, _ := ParsePlain(nil, "x.star", test.src, 0)
		if extended != test.extended {
			t.Errorf("%q: extended = %v, want %v", test.src, extended, test.extended)
		}
	}
}

func TestParseCompoundStmt(t *testing.T) {
	lines := []string{
		"@jit\n", "def f(x):\n", "    return x ** 2 < 1\n", "\n",
		"y = a @ b; z = 1\n",
		"\n",
		"for i in x[1:, 0]:\n", "  pass\n", "\n",
		// Strings that span readline calls.
		"s = '''a\n", "b\\\n", "c''' + r'''\n", "d'''\n",
	}
	readline := func() ([]byte, error) {
		if len(lines) == 0 {
			return nil, io.EOF
		}
		line := lines[0]
		lines = lines[1:]
		return []byte(line), nil
	}
	want := []string{
		"def f(x):\n  return __lt__(__pow__(x, 2), 1)\nf = jit(f)",
		"y = __matmul__(a, b)\nz = 1",
		"",
		"for i in x[__slice__(1, None, None), 0]:\n  pass",
		"s = ('''a\nb\\\nc''' + r'''\nd''')",
	}
	var last *syntax.File
	for i, w := range want {
		f, err := ParseCompoundStmt(nil, "repl", readline)
		if err != nil {
			t.Fatalf("statement %d: %v", i, err)
		}
		last = f
		if got := stmtsString(f.Stmts); got != w {
			t.Errorf("statement %d:\n got %s\nwant %s", i, got, w)
		}
	}
	var values []string
	syntax.Walk(last, func(n syntax.Node) bool {
		if lit, ok := n.(*syntax.Literal); ok {
			values = append(values, lit.Value.(string))
		}
		return true
	})
	if got, want := strings.Join(values, "|"), "a\nbc|\nd"; got != want {
		t.Errorf("multi-line string values %q, want %q", got, want)
	}
	if _, err := ParseCompoundStmt(nil, "repl", readline); err == nil || !strings.HasSuffix(err.Error(), "EOF") {
		t.Errorf("at the end of input: got %v, want EOF", err)
	}
}

func TestSources(t *testing.T) {
	const src = "x = 2 ** 3\n"
	for _, source := range []any{src, []byte(src), strings.NewReader(src), syntax.FilePortion{Content: []byte(src), FirstLine: 7, FirstCol: 3}} {
		f, err := Parse(nil, "s.star", source)
		if err != nil {
			t.Fatalf("%T: %v", source, err)
		}
		if got := stmtsString(f.Stmts); got != "x = __pow__(2, 3)" {
			t.Errorf("%T: got %s", source, got)
		}
	}
	if _, err := Parse(nil, "s.star", 42); err == nil || err.Error() != "invalid source: int" {
		t.Errorf("int source: got %v", err)
	}
	if _, err := Parse(nil, "/nonexistent/s.star", nil); err == nil {
		t.Errorf("missing file: no error")
	}
	f, err := Parse(nil, "s.star", syntax.FilePortion{Content: []byte(src), FirstLine: 7, FirstCol: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := syntax.Start(f.Stmts[0]).String(); got != "s.star:7:3" {
		t.Errorf("FilePortion start: got %s, want s.star:7:3", got)
	}
}
