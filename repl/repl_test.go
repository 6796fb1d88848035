package repl

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

// runPiped runs a REPL session on input that is not a terminal.
func runPiped(t *testing.T, input string, onExit func() error) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = Run(Config{
		Options: jaxsh.Options{Stdout: &out, Stderr: &errOut},
		Stdin:   strings.NewReader(input),
		OnExit:  onExit,
	})
	return out.String(), errOut.String(), err
}

func TestPipedSessionEchoesResultsAndBindsUnderscore(t *testing.T) {
	exits := 0
	stdout, stderr, err := runPiped(t, `jnp.arange(3)
_ * 2
x = jnp.array([1., 2.])
x
def total(n):
    # a comment line inside a block does not end it
    s = 0
    for i in range(n):
        s += i
    return s

total(5)
@jit
@partial(jit)
def square(a):
    return a @ a

square(jnp.eye(2) * 3)
None
print("still", _[0, 0])
"text"; argv
`, func() error { exits++; return nil })
	want := "Array([0, 1, 2], dtype=int32)\n" +
		"Array([0, 2, 4], dtype=int32)\n" +
		"Array([1., 2.], dtype=float32)\n" +
		"10\n" +
		"Array([[9., 0.],\n       [0., 9.]], dtype=float32)\n" +
		"still 9.0\n" + // None and print's result leave _ alone
		"\"text\"\n[\"\"]\n"
	if stdout != want || stderr != "" || err != nil {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr %q, err %v", stdout, want, stderr, err)
	}
	if exits != 1 {
		t.Errorf("OnExit ran %d times, want once", exits)
	}
}

func TestPipedSessionGoesOnAfterErrorsAndFailsAtTheEnd(t *testing.T) {
	stdout, stderr, err := runPiped(t, `x = jnp.arange(3)
x.nope
def f(n):
    return n +
    y = 1
    z = 2
print("after the syntax error")
undefined_name
if x:
    pass

print("end")
`, nil)
	if stdout != "after the syntax error\nend\n" {
		t.Errorf("stdout %q", stdout)
	}
	// The indented lines after the syntax error were its block: skipped,
	// not reported as more errors.
	want := "Traceback (most recent call last):\n  <stdin>:1:2: in <toplevel>\nError: Array has no .nope field or method\n" +
		"<stdin>:2:15: got newline, want primary expression\n" +
		"<stdin>:1:1: undefined: undefined_name\n" +
		"Traceback (most recent call last):\n  <stdin>:1:4: in <toplevel>\n" + // at x in `if x:`
		"Error: truth value of an array with more than one element is ambiguous. Use a.any() or a.all()\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if !errors.Is(err, ErrFailed) {
		t.Errorf("Run returned %v, want ErrFailed", err)
	}
}

func TestPipedBlocksEndAsInPythonsREPL(t *testing.T) {
	stdout, stderr, err := runPiped(t, `def f():
    return 1
print("a dedented line ends a block and runs", f())
s = """one
# inside a string, not a comment
two"""
print(s)
def early():
    v = 1

    return v
early()
for i in range(2):
    print(i)`, nil)
	// A blank line ends a block even inside a def, as in Python's REPL: the
	// indented return that follows is an error, early() returns None.
	want := "a dedented line ends a block and runs 1\n" +
		"one\n# inside a string, not a comment\ntwo\n" +
		"0\n1\n" // the end of input ends the last block and runs it
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	if stderr != "<stdin>:1:5: got indent, want primary expression\n" || !errors.Is(err, ErrFailed) {
		t.Errorf("stderr %q, err %v", stderr, err)
	}
}

func TestOnExitErrorIsReported(t *testing.T) {
	stdout, stderr, err := runPiped(t, "1 + 1\n", func() error { return errors.New("callback failed") })
	if stdout != "2\n" || stderr != "callback failed\n" || !errors.Is(err, ErrFailed) {
		t.Errorf("stdout %q, stderr %q, err %v", stdout, stderr, err)
	}
}

func TestEmptyInput(t *testing.T) {
	for _, input := range []string{"", "\n\n", "# only a comment\n"} {
		stdout, stderr, err := runPiped(t, input, nil)
		if stdout != "" || stderr != "" || err != nil {
			t.Errorf("%q: stdout %q, stderr %q, err %v", input, stdout, stderr, err)
		}
	}
}
