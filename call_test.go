package jaxsh_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh"
	"go.starlark.net/starlark"
)

// Eight goroutines call one jitted function at once, each with its own
// arrays made from Go slices (run with -race).
func TestCallJittedConcurrently(t *testing.T) {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}})
	g, err := interp.RunString(ctx, "f.star", `
@jit
def f(x, y):
    return jnp.sum(x * y, axis=1) + 1.0
`, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	const workers, rounds = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				k := float32(w*rounds + r)
				x, err := jaxsh.NewArray(interp, []float32{k, 1, 2, k, 0, 1}, []int{2, 3})
				if err != nil {
					errs <- err
					return
				}
				y, err := jaxsh.NewArray(interp, []float32{1, 2, 3, 1, 1, 1}, []int{2, 3})
				if err != nil {
					errs <- err
					return
				}
				v, err := interp.Call(ctx, g["f"], x, y)
				if err != nil {
					errs <- fmt.Errorf("worker %d: %s", w, jaxsh.FormatError(err))
					return
				}
				got, shape, err := jaxsh.ToSlice[float32](v)
				want := []float32{k + 8 + 1, k + 1 + 1}
				if err != nil || len(shape) != 1 || shape[0] != 2 || !slicesEqual(got, want) {
					errs <- fmt.Errorf("worker %d round %d: f = %v %v %v, want %v [2]", w, r, got, shape, err, want)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// One interpreter keeps one session: a loaded module runs once across runs,
// each run sees its own argv, and functions stay callable after their run.
func TestInterpreterKeepsSession(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lib.star"), []byte("print('loading lib')\nk = 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.star")
	if err := os.WriteFile(main, []byte("load('lib.star', 'k')\nprint(argv)\ndef addk(x):\n    return x + k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	interp := jaxsh.New(jaxsh.Options{Stdout: &out})
	ctx := context.Background()
	g1, err := interp.RunFile(ctx, main, []string{"a"})
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if _, err := interp.RunFile(ctx, main, []string{"b"}); err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	want := fmt.Sprintf("loading lib\n[%q, \"a\"]\n[%q, \"b\"]\n", main, main)
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
	v, err := interp.Call(ctx, g1["addk"], starlark.MakeInt(5))
	if err != nil || v.String() != "15" {
		t.Errorf("addk(5) = %v, %v; want 15", v, err)
	}
}

// Errors from Call are formatted like a script's; cancelling ctx stops a
// call; kwargs reach the function.
func TestCallErrorsAndCancel(t *testing.T) {
	ctx := context.Background()
	interp := jaxsh.New(jaxsh.Options{})
	g, err := interp.RunString(ctx, "c.star", `
def bad(x):
    return x + "s"

def spin():
    n = 0
    while True:
        n += 1

def kw(a, b=2):
    return a * 10 + b

@jit
def branch(x):
    if x > 0:
        return x
    return -x
`, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	_, err = interp.Call(ctx, g["bad"], starlark.MakeInt(1))
	if got, want := jaxsh.FormatError(err), "Traceback (most recent call last):\n  c.star:3:14: in bad\nError: unknown binary op: int + string"; got != want {
		t.Errorf("bad(1):\n%s\nwant\n%s", got, want)
	}

	a, err := jaxsh.NewArray(interp, []float32{1}, []int{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = interp.Call(ctx, g["branch"], a)
	if got := jaxsh.FormatError(err); !strings.Contains(got, "c.star:15:") || !strings.Contains(got, "ConcretizationError") {
		t.Errorf("branch(array): %s\nwant a ConcretizationError at c.star:15", got)
	}

	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = interp.Call(cctx, g["spin"])
	if err == nil || !strings.Contains(err.Error(), "cancelled: context deadline exceeded") {
		t.Errorf("spin with a deadline: %v, want cancelled", err)
	}

	v, err := interp.CallKw(ctx, g["kw"], []starlark.Value{starlark.MakeInt(4)}, []starlark.Tuple{{starlark.String("b"), starlark.MakeInt(7)}})
	if err != nil || v.String() != "47" {
		t.Errorf("kw(4, b=7) = %v, %v; want 47", v, err)
	}

	_, err = interp.Call(ctx, starlark.MakeInt(3))
	if err == nil || !strings.Contains(err.Error(), "invalid call of non-function (int)") {
		t.Errorf("calling an int: %v", err)
	}
}

// A bad device configuration is the first call's error.
func TestCallBadDevice(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{Device: "cpu:99"})
	_, err := interp.Call(context.Background(), starlark.NewBuiltin("f", nil))
	if err == nil || !strings.Contains(err.Error(), "default device") {
		t.Errorf("Call with Device cpu:99: %v, want a default device error", err)
	}
	if _, err := jaxsh.NewArray(interp, []int32{1}, []int{1}); err == nil || !strings.Contains(err.Error(), "default device") {
		t.Errorf("NewArray with Device cpu:99: %v, want a default device error", err)
	}
}

// A jitted function called from a script and from Go goes through one
// compile cache (jit.Function): the same signature compiles once.
func TestScriptAndGoCallsShareTheCompileCache(t *testing.T) {
	ctx := context.Background()
	var stderr bytes.Buffer
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, Stderr: &stderr, LogCompiles: true})
	g, err := interp.RunString(ctx, "f.star", "f = jit(lambda x: x * 2.0)\ny = f(jnp.ones(3))\n", nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	x, err := jaxsh.NewArray(interp, []float32{1, 2, 3}, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	v, err := interp.Call(ctx, g["f"], x)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	got, _, err := jaxsh.ToSlice[float32](v)
	if err != nil || !slicesEqual(got, []float32{2, 4, 6}) {
		t.Fatalf("f(x) from Go = %v, %v", got, err)
	}
	if n := strings.Count(stderr.String(), "jaxsh: compiling"); n != 1 {
		t.Errorf("compiled %d times, want once:\n%s", n, stderr.String())
	}
}
