package dialect

import (
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// TestEdgeCasesMatchUpstream compares both parsers on lexical corner cases
// and on nesting around the depth limits, where the fuzzer rarely goes.
func TestEdgeCasesMatchUpstream(t *testing.T) {
	inputs := []string{
		"", "\n", "\r\n", "\r", "x = 1\r\ny = 2\r", "x = 1", "  x = 1\n", "\tx\n",
		"if x:\n\ty = 1\n        z = 2\n", "if x:\n  y\n z\n", "if x:\n    y\n  z\n",
		"if x:\n  pass\n\n\n# c\n  \n", "def f():\n  pass\n  # c", "x = 1 \\\n + 2\n", "x = 1 \\ 2\n", "\\",
		"x = (1,\n\n 2)\n", "x = [\n  1, # c\n]\n", "x = 1 # c\r\n", "#c", "# only\n# comments\n",
		"x = 'a\\\r\nb'\n", "x = '''a\r\nb\rc'''\n", "x = 'a\rb'\n", "x = 'ab", "x = '''ab''", "x = 'a\\",
		"x = '\xff\xfe'\n", "x = b'\\xff\\377'\n", "x = '\\xff'\n", "x = '\\400'\n", "x = b'\\400'\n",
		"x = '\\u12'\n", "x = '\\U0011ffff'\n", "x = '\\ud800'\n", "x = '\\q'\n", "x = r'\\q\\'\n",
		"x = rb'\\x'\n", "x = br'x'\n", "x = '''a''''\n", "x = ''''''\n", "x = \"\"\"\"\"\"\n",
		"0x", "0xg", "0o8", "0O7", "0b2", "0B1", "0755", "0089", "089.5", "00", "0e3", "1e", "1e+", "1E-3",
		"1.e5", ".5", ".5e", "1..real", "1...real", "10000000000000000000000", "0x1ffffffffffffffffffff",
		"0o77777777777777777777777", "0b" + strings.Repeat("1", 70), "1e999", "1_000",
		"x\x00y = 1\n", "x = 1\n\x00\n", "if x:\n  y\x00", "'a\x00b'",
		"!", "a ! b", "a != b", "$", "a = b ` c", "ñ = 1\n", "x\u00a0= 1\n", "\ufeffx = 1\n", "x = 1;;\n", "x = 1;\n",
		"x = )", "x = (]", "]", "x = {1: 2,}", "{1: 2 for a in b}", "[a for a in b if c if d for e in f]",
		"f(a for a in b)", "f(a=1, *b, **c)", "f(1=2)", "f(a.b=1)", "lambda *, a: 1", "lambda **: 1", "def f(*, **k): pass",
		"load('m', 'a', b='c',)", "load('m')", "load(m, 'a')", "load('m', a)", "load('m', a=b)", "load('m', 1)", "load('m' 'a')",
		"a if b", "a if b else", "a if b else c if d else e", "not not a", "a not b", "a not", "a in b in c", "a < b == c",
		"x[1:2:3:4]", "x[a, b]", "x[a, b,", "x[a, b,)", "for x, in y: pass", "for x, y, in z: pass", "for -x in y: pass",
		"for x.y[0] in z: pass", "return", "return 1, 2", "return 1,", "x = 1, 2,", "(a, b,) = 1, 2", "a, = 1",
		"x += 1", "x, y += 1", "x //= 2", "x <<= 1", "x >>= 1", "x ^= 1", "x |= 1", "x &= 1", "x %= 1",
		"break; continue; pass", "while x: y", "if x: pass\nelif y: pass\nelse: pass", "if x: pass\nelse if y: pass",
		"def f(a, b=1, *c, d, **e):\n  return a\n", "def f(a,): pass", "def f(,): pass", "def f(a b): pass",
	}
	// Each nesting form at the depth where upstream starts to report
	// "excessive nesting", and one level either side.
	for _, nest := range nestingForms {
		n := nestingLimit(t, nest)
		inputs = append(inputs, nest(n-1), nest(n), nest(n+1))
	}
	for _, src := range inputs {
		for _, mode := range []syntax.Mode{0, syntax.RetainComments} {
			if extended, problem := compareFile("edge.star", src, mode); problem != "" || extended {
				t.Errorf("%s as a file (mode %d): extended=%v %s", abbreviate(src), mode, extended, problem)
			}
		}
		if extended, problem := compareCompound("edge.star", src); problem != "" || extended {
			t.Errorf("%s as REPL input: extended=%v %s", abbreviate(src), extended, problem)
		}
		if extended, problem := compareExpr("edge.star", src); problem != "" || extended {
			t.Errorf("%s as an expression: extended=%v %s", abbreviate(src), extended, problem)
		}
	}
}

// nestingForms build programs that nest a construct n deep.
var nestingForms = []func(n int) string{
	func(n int) string { return strings.Repeat("(", n) + "x" + strings.Repeat(")", n) },
	func(n int) string { return "x = " + strings.Repeat("[", n) + "x" + strings.Repeat("]", n) },
	func(n int) string { return "x = " + strings.Repeat("f(", n) + strings.Repeat(")", n) },
	func(n int) string { return "x = y" + strings.Repeat("[y", n) + strings.Repeat("]", n) },
	func(n int) string { return "x = " + strings.Repeat("-", n) + "1" },
	func(n int) string { return "x = " + strings.Repeat("not ", n) + "1" },
	func(n int) string { return "x = " + strings.Repeat("lambda: ", n) + "1" },
	func(n int) string { return "x = " + strings.Repeat("a if b else ", n) + "c" },
	func(n int) string { return "for " + strings.Repeat("~", n) + "x in y: pass" },
	func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%sif x:\n", strings.Repeat(" ", i))
		}
		fmt.Fprintf(&b, "%sload('m', 'a')\n", strings.Repeat(" ", n))
		return b.String()
	},
}

// nestingLimit returns the least n for which upstream reports excessive
// nesting for nest(n).
func nestingLimit(t *testing.T, nest func(int) string) int {
	tooDeep := func(n int) bool {
		_, err := (&syntax.FileOptions{}).Parse("edge.star", nest(n), 0)
		return err != nil && strings.Contains(err.Error(), "excessive nesting")
	}
	lo, hi := 1, 2048
	if !tooDeep(hi) {
		t.Fatalf("%.40q: not too deep at %d", nest(1), hi)
	}
	for lo < hi {
		if mid := (lo + hi) / 2; tooDeep(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

func abbreviate(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q... (%d bytes)", s[:60], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// TestDeepDialectInput checks that long chains of the dialect's operators
// neither exhaust the stack nor get refused when they need no nesting.
func TestDeepDialectInput(t *testing.T) {
	_, err := Parse(nil, "deep.star", "x = "+strings.Repeat("2 ** ", 5000)+"2\n")
	if err == nil || !strings.Contains(err.Error(), "excessive nesting") {
		t.Errorf("5000 nested **: got %v, want excessive nesting", err)
	}
	f, err := Parse(nil, "deep.star", "x = "+strings.Repeat("a @ b - c ** d + ", 20000)+"e\nx[0, :] **= "+strings.Repeat("1 < ", 1)+strings.Repeat("1 + ", 20000)+"1\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Stmts); got != 2 {
		t.Errorf("got %d statements, want 2", got)
	}
}
