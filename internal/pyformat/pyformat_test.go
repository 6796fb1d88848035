package pyformat

import (
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/starlark/dialect"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// eval runs src through the dialect and returns the global `out`, or the
// error.
func eval(t *testing.T, src string) (string, error) {
	t.Helper()
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	f, err := dialect.Parse(opts, "t.star", src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	predeclared := Builtins()
	program, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	globals, err := program.Init(&starlark.Thread{Name: "t"}, predeclared)
	if err != nil {
		return "", err
	}
	out := globals["out"]
	if s, ok := out.(starlark.String); ok {
		return string(s), nil
	}
	return out.String(), nil
}

// upstream runs src with go.starlark.net alone.
func upstream(src string) (string, error) {
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	globals, err := starlark.ExecFileOptions(opts, &starlark.Thread{Name: "t"}, "t.star", src, nil)
	if err != nil {
		return "", err
	}
	if s, ok := globals["out"].(starlark.String); ok {
		return string(s), nil
	}
	return globals["out"].String(), nil
}

// TestPlainStarlarkKeepsItsMeaning: whatever go.starlark.net's % and
// .format already wrote, they still write.
func TestPlainStarlarkKeepsItsMeaning(t *testing.T) {
	for _, src := range []string{
		`out = "%s %r %d %i %o %x %X %c %e %f %g %E %F %G %%" % ("a", "b", 7, -3, 8, 255, 255, 65, 1.5, 2.25, 0.123456789, 1e-10, 1e22, 1e300)`,
		`out = "%g|%g|%g|%e|%f" % (1234567.0, 1e16, float("inf"), float("-inf"), float("nan"))`,
		`out = "%d %x %s %r" % (3.7, 2.9, 1.0, [1, "a", (2,)])`,
		`out = "%(a)s %(b)r" % {"a": "x", "b": "y"}`,
		`out = "%s" % {"k": [1.5]}`,
		`out = "%s|%s" % (None, True)`,
		`out = "{} {!r} {!s} {0}".format("a", "b", 3) if False else "{} {!r} {!s}".format("a", "b", 3.0)`,
		`out = "{x} {y}".format(x=1, y=[None])`,
		`out = "{1}{0}".format(1e100, 2)`,
		`out = 7 % 3`,
		`out = -7.5 % 2`,
		`out = "%s" % ("é",)`,
		`out = "%c%c" % (0x1F600, "é")`,
	} {
		want, wantErr := upstream(src)
		if wantErr != nil {
			t.Fatalf("%s: upstream fails: %v", src, wantErr)
		}
		got, err := eval(t, src)
		if err != nil || got != want {
			t.Errorf("%s\n got %q %v\nwant %q", src, got, err, want)
		}
	}
}

func TestPythonFormattingInStarlark(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`out = "%.3f" % 3.14159`, "3.142"},
		{`out = "%5d|%-5d|%05.1f|%+d" % (42, 42, 2.25, 3)`, "   42|42   |002.2|+3"},
		{`out = "%-8s|%8r" % ("ab", "ab")`, `ab      |    "ab"`},
		{`out = "%*.*f" % (8, 2, 3.14159)`, "    3.14"},
		{`out = "{:.3f}".format(2.0 / 3)`, "0.667"},
		{`out = "{:>8.3f}|{:<6}|{:^7}|{:*>5}".format(1.5, "ab", "c", 7)`, "   1.500|ab    |   c   |****7"},
		{`out = "{:,} {:_x} {:#b} {:.1%} {:e}".format(1234567, 65535, 5, 0.25, 12345)`, "1,234,567 ffff 0b101 25.0% 1.234500e+04"},
		{`out = "{0[1]} {0[0][k]} {d[2]}".format([{"k": "v"}, 9], d={2: "two"})`, "9 v two"},
		{`out = "{:{w}.{p}f}".format(3.14159, w=8, p=3)`, "   3.142"},
		{`x = 1.5; w = 6; out = f"{x:>{w}.2f}|{x=}|{x!r}|{'q'!r}|{{}}"`, `  1.50|x=1.5|1.5|"q"|{}`},
		{`items = [1, 2]; out = f"{len(items)} items: {items}"`, "2 items: [1, 2]"},
		{`out = f"{'%.1f' % 2.25:>6}"`, "   2.2"},
		{`out = "{} {}".format(True, None)`, "True None"},
		{`out = "{:d} {:>4}".format(True, False)`, "1    0"},
		{`def f(): return "{:.2f}"
out = f().format(1)`, "1.00"},
	} {
		got, err := eval(t, c.src)
		if err != nil || got != c.want {
			t.Errorf("%s\n got %q %v\nwant %q", c.src, got, err, c.want)
		}
	}
}

func TestFormattingErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`out = "%d" % "x"`, "%d format: a real number is required, not string"},
		{`out = "%s %s" % (1,)`, "not enough arguments for format string"},
		{`out = "{:.2f}".format("x")`, "Unknown format code 'f' for object of type 'string'"},
		{`out = "{:d}".format(1.5)`, "Unknown format code 'd' for object of type 'float'"},
		{`out = "{:>5}".format([1])`, "unsupported format string passed to list.__format__"},
		{`out = "{0.nope}".format(1)`, "int has no .nope field or method"},
		{`out = "{x}".format(y=1)`, "no keyword argument named 'x' for the format field {x}"},
		{`out = "{2}".format(1)`, "Replacement index 2 out of range for positional args tuple"},
		{`out = f"{1:q}"`, "Unknown format code 'q' for object of type 'int'"},
		{`out = (1).format()`, "int has no .format field or method"},
		{`out = [] % 2`, "unknown binary op: list % int"},
	} {
		_, err := eval(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n got %v\nwant %q", c.src, err, c.want)
		}
	}
}
