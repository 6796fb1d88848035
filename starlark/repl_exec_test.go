package starlark_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// replChunks feeds src to a fresh REPL chunk by chunk, as the repl package
// does, and returns what it printed and the formatted errors, in order.
func replChunks(t *testing.T, r *REPL, src string) (errs []string) {
	t.Helper()
	lines := strings.SplitAfter(src, "\n")
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
			errs = append(errs, FormatError(err))
		}
	}
	return errs
}

func newTestREPL() (*REPL, *bytes.Buffer) {
	var out bytes.Buffer
	return newSession(&out, nil).NewREPL(), &out
}

func TestREPLEchoesReprAndBindsUnderscore(t *testing.T) {
	r, out := newTestREPL()
	errs := replChunks(t, r, `jnp.arange(3)
_ * 2
None
_
print("hi")
"s"; 1 + 1; _ + 40
x = jnp.array([1., 2.])
x
def f(n):
    return n * 10

f(_)
`)
	if len(errs) != 0 {
		t.Fatalf("errors: %q", errs)
	}
	// None and print's result are not echoed and leave _ alone; each
	// expression statement of `a; b; c` is echoed and sees the _ before it.
	want := "Array([0, 1, 2], dtype=int32)\n" +
		"Array([0, 2, 4], dtype=int32)\n" +
		"Array([0, 2, 4], dtype=int32)\n" +
		"hi\n" +
		"\"s\"\n2\n42\n" +
		"Array([1., 2.], dtype=float32)\n" +
		"Array([10., 20.], dtype=float32)\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
	if _, leaked := r.Globals()[EchoName]; leaked {
		t.Errorf("%s stays in globals", EchoName)
	}
}

func TestREPLErrorsKeepTheSessionAndItsGlobals(t *testing.T) {
	r, out := newTestREPL()
	errs := replChunks(t, r, `a = 1
a.b
c = 2; c.d; e = 3
undefined_name
1 +
a + c
`)
	want := []string{
		"Traceback (most recent call last):\n  <stdin>:1:2: in <toplevel>\nError: int has no .b field or method",
		"Traceback (most recent call last):\n  <stdin>:1:9: in <toplevel>\nError: int has no .d field or method",
		"<stdin>:1:1: undefined: undefined_name",
		"<stdin>:1:4: got newline, want primary expression",
	}
	if !slices.Equal(errs, want) {
		t.Errorf("errors:\n%q\nwant:\n%q", errs, want)
	}
	// c was bound before c.d failed; e = 3 never ran.
	if out.String() != "3\n" || r.Globals()["e"] != nil {
		t.Errorf("output %q, e = %v", out, r.Globals()["e"])
	}
}

func TestREPLDecoratorsAndLoadBindGlobals(t *testing.T) {
	r, out := newTestREPL()
	errs := replChunks(t, r, `@jit
def double(x):
    return x * 2

double(jnp.ones(2))
@partial(jit, static_argnums=(1,))
def times(x, n):
    return x * n

times(jnp.ones(2), 3)
`)
	if len(errs) != 0 {
		t.Fatalf("errors: %q", errs)
	}
	want := "Array([2., 2.], dtype=float32)\nArray([3., 3.], dtype=float32)\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if _, ok := r.Globals()["double"].(*Jitted); !ok {
		t.Errorf("double is %T, want a jitted function", r.Globals()["double"])
	}
}

func TestREPLArrayTruthErrorIsReported(t *testing.T) {
	r, _ := newTestREPL()
	errs := replChunks(t, r, "if jnp.arange(3):\n    pass\n\n1\n")
	if len(errs) != 1 || !strings.Contains(errs[0], "truth value of an array with more than one element is ambiguous") {
		t.Fatalf("errors %q", errs)
	}
	// The truth error cancelled the thread; the next chunk must still run.
	if errs := replChunks(t, r, "2\n"); len(errs) != 0 {
		t.Errorf("after a truth error: %q", errs)
	}
}

func TestREPLInterruptStopsAnEndlessLoop(t *testing.T) {
	r, out := newTestREPL()
	replChunks(t, r, "n = 0\n")
	done := make(chan error)
	go func() {
		f, err := r.Parse(linesOf("while True:\n    n += 1\n\n"))
		if err == nil {
			err = r.Exec(f)
		}
		done <- err
	}()
	interruptUntilDone(t, r, done)
	if errs := replChunks(t, r, "n > 0\n"); len(errs) != 0 || out.String() != "True\n" {
		t.Errorf("after the interrupt: errors %q, output %q", errs, out)
	}
}

// interruptUntilDone interrupts r until the Exec reporting on done has
// provably started and then stopped (an Interrupt before Exec begins is
// forgotten, by design), and checks that it stopped for the interrupt.
func interruptUntilDone(t *testing.T, r *REPL, done <-chan error) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case err := <-done:
			if !errors.Is(err, ErrInterrupted) {
				t.Fatalf("Exec returned %v, want ErrInterrupted", err)
			}
			return
		case <-tick.C:
			r.Interrupt()
		case <-timeout:
			t.Fatal("the statement was not interrupted")
		}
	}
}

func linesOf(src string) func() ([]byte, error) {
	lines := strings.SplitAfter(src, "\n")
	return func() ([]byte, error) {
		if len(lines) == 0 {
			return []byte{}, nil
		}
		l := lines[0]
		lines = lines[1:]
		return []byte(l), nil
	}
}

// Ctrl-C while a statement waits for a long computation's result returns to
// the prompt and stops the computation: a Go callback it is blocked in sees
// its context cancelled, the result reads as cancelled, and the session
// goes on with new computations.
func TestREPLInterruptStopsAWaitForAResult(t *testing.T) {
	unblocked := make(chan error, 1)
	block := NewGoFunction("block", func(ctx context.Context, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		<-ctx.Done() // the computation is "long" until it is cancelled
		unblocked <- ctx.Err()
		return nil, ctx.Err()
	})
	var out bytes.Buffer
	r := newSession(&out, starlark.StringDict{"block": block}).NewREPL()
	replChunks(t, r, "f = jit(lambda x: call(block, x, result_shape=x) + 1)\ny = f(jnp.ones(2))\n")
	done := make(chan error)
	go func() {
		f, err := r.Parse(linesOf("print(y)\n"))
		if err == nil {
			err = r.Exec(f)
		}
		done <- err
	}()
	interruptUntilDone(t, r, done)
	select {
	case err := <-unblocked:
		if err == nil {
			t.Fatal("the callback's context ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the blocked callback's context was not cancelled")
	}
	errs := replChunks(t, r, "print(y)\n")
	if len(errs) != 1 || !strings.Contains(errs[0], "cancelled: KeyboardInterrupt") {
		t.Errorf("reading the stopped computation: errors %q", errs)
	}
	out.Reset()
	if errs := replChunks(t, r, "print(jit(lambda x: x * 2)(jnp.ones(2)))\n"); len(errs) != 0 || out.String() != "[2. 2.]\n" {
		t.Errorf("after the interrupt: errors %q, output %q", errs, out.String())
	}
}
