package jaxsh_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jaxsh/jaxsh"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// longKernel is a jitted function that is one fused kernel of seconds of
// work on any machine (500 sines of each of 8M elements): x and the
// kernel's result hold 32 MiB each of the interpreter's arrays.
const longKernel = `
x = jnp.full((1 << 23,), 0.5)

@jit
def slow(x):
    for i in range(500):
        x = jnp.sin(x)
    return x

def run():
    return slow(x).sum().item()

def start():
    return slow(x)

def other():
    return jnp.zeros(3).sum().item()
`

// arrayMemory is a budget large enough never to refuse what these tests
// allocate: it is there to be read (Interpreter.ArrayBytesInUse).
const arrayMemory = 1 << 30

// budgetFreed reports whether what the interpreter's arrays hold falls to
// at most want within promptness of now: only once a cancelled kernel has
// stopped and released what it held (dropped arrays are collected on the
// way).
func budgetFreed(t *testing.T, interp *jaxsh.Interpreter, want int64) bool {
	t.Helper()
	deadline := time.Now().Add(promptness)
	for {
		if interp.ArrayBytesInUse() <= want {
			return true
		}
		if time.Now().After(deadline) {
			t.Logf("%d bytes in use, want at most %d", interp.ArrayBytesInUse(), want)
			return false
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// result is how a call running on another goroutine ended, and when.
type result struct {
	err error
	at  time.Time
}

// waitUntilHeld returns once the interpreter's arrays hold at least want
// bytes: the kernel runs, holding its arrays. It fails the test if the
// call ends first or the kernel does not start within a minute.
func waitUntilHeld(t *testing.T, interp *jaxsh.Interpreter, want int64, ended <-chan result) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for interp.ArrayBytesInUse() < want {
		select {
		case r := <-ended:
			t.Fatalf("the kernel's call ended before its cancellation: %v", r.err)
		case <-time.After(time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes in use after a minute, want %d: the kernel never started", interp.ArrayBytesInUse(), want)
		}
	}
}

// Interpreter.Call cancelled in the middle of one long kernel returns
// within 100 ms with the context's error, and the computation itself stops
// and frees its buffers (what it held is back in the budget).
func TestCallCancelledMidKernelReturnsPromptly(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, MaxArrayBytes: arrayMemory})
	g, err := interp.RunString(context.Background(), "slow.star", longKernel, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	runtime.GC()
	before, outBytes := interp.ArrayBytesInUse(), int64(32<<20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		_, err := interp.Call(ctx, g["run"])
		done <- result{err, time.Now()}
	}()
	// Cancel once the kernel holds its arrays (tracing and compiling it
	// come first).
	waitUntilHeld(t, interp, before+outBytes, done)
	// The program is charged as it is dispatched; its kernel, seconds long,
	// is surely running a moment later.
	time.Sleep(200 * time.Millisecond)
	cancel()
	cancelledAt := time.Now()
	r := <-done
	if !errors.Is(r.err, context.Canceled) {
		t.Fatalf("Call = %v, want the context's cancellation", r.err)
	}
	if late := r.at.Sub(cancelledAt); late > promptness {
		t.Errorf("Call returned %v after its cancellation, want under %v", late, promptness)
	}
	if !budgetFreed(t, interp, before) {
		t.Error("the cancelled kernel still holds its arrays: it did not stop")
	}
}

// An eager operation large enough to take a while carries its thread's
// cancellation into its kernel: Interpreter.Call cancelled during a loop of
// eager 4096² matmuls returns within 100 ms, and the matmul running then
// stops and frees its result.
func TestCallCancelledInAnEagerKernel(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, MaxArrayBytes: arrayMemory})
	g, err := interp.RunString(context.Background(), "eager.star", `
x = jnp.ones((4096, 4096))

def run():
    for i in range(1000):
        x @ x
`, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	runtime.GC()
	before, outBytes := interp.ArrayBytesInUse(), int64(64<<20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		_, err := interp.Call(ctx, g["run"])
		done <- result{err, time.Now()}
	}()
	// Cancel while a matmul holds its result.
	waitUntilHeld(t, interp, before+outBytes, done)
	cancel()
	cancelledAt := time.Now()
	r := <-done
	if !errors.Is(r.err, context.Canceled) {
		t.Fatalf("Call = %v, want the context's cancellation", r.err)
	}
	if msg := jaxsh.FormatError(r.err); !jstarlark.IsCancelled(r.err) || !strings.Contains(msg, "eager.star:6:11: in run") {
		t.Errorf("the stopped matmul's error is not the thread's cancellation at the @:\n%s", msg)
	}
	if late := r.at.Sub(cancelledAt); late > promptness {
		t.Errorf("Call returned %v after its cancellation, want under %v", late, promptness)
	}
	if !budgetFreed(t, interp, before) {
		t.Error("the cancelled matmul still holds its result: it did not stop")
	}
}

// Thread.Call returns while its computations run; cancelling its context
// later stops them: the thread's barrier returns within 100 ms, reading the
// result fails with the cancellation, their memory is free again, and the
// thread goes on working.
func TestThreadCallCancelStopsDispatchedWork(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, MaxArrayBytes: arrayMemory})
	g, err := interp.RunString(context.Background(), "slow.star", longKernel, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	th, err := interp.NewThread("worker", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer th.Close()
	runtime.GC()
	before, outBytes := interp.ArrayBytesInUse(), int64(32<<20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := th.Call(ctx, g["start"])
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	// Cancel once the kernel holds its arrays.
	waitUntilHeld(t, interp, before+outBytes, nil)
	time.Sleep(200 * time.Millisecond) // the kernel is running, as above
	cancel()
	cancelledAt := time.Now()
	if err := th.Barrier(); err != nil {
		t.Fatalf("Barrier = %v", err)
	}
	if late := time.Since(cancelledAt); late > promptness {
		t.Errorf("the dispatched computation ran on %v after its cancellation, want under %v", late, promptness)
	}
	if _, _, err := jaxsh.ToSlice[float32](r); !errors.Is(err, context.Canceled) {
		t.Errorf("reading the cancelled result: %v, want the cancellation", err)
	}
	if !budgetFreed(t, interp, before) {
		t.Error("the cancelled kernel still holds its arrays: it did not stop")
	}
	v, err := th.Call(context.Background(), g["other"])
	if err != nil || v.String() != "0.0" {
		t.Errorf("the thread after a cancelled call: %v, %v", v, err)
	}
}

// A Go callback blocked in a computation gets the call's context, so a
// cancelled Call does not wait for it forever.
func TestGoCallbackSeesCancellation(t *testing.T) {
	var sawCancel sync.WaitGroup
	sawCancel.Add(1)
	block := jaxsh.Func("block", func(ctx context.Context, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		<-ctx.Done()
		sawCancel.Done()
		return nil, ctx.Err()
	})
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, Globals: starlark.StringDict{"block": block}})
	g, err := interp.RunString(context.Background(), "cb.star", `
def run(x):
    return jit(lambda x: call(block, x, result_shape=x))(x).sum().item()
`, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	x, _ := jaxsh.NewArray(interp, []float32{1}, []int{1})
	if _, err := interp.Call(ctx, g["run"], x); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call = %v, want the deadline", err)
	}
	sawCancel.Wait()
}

func TestCallRejectsNilFunctionAndContext(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}})
	if _, err := interp.Call(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "nil function") {
		t.Errorf("Call(ctx, nil) = %v", err)
	}
	//lint:ignore SA1012 the nil context is the point
	if _, err := interp.RunString(nil, "x.star", "x = 1", nil); err == nil || !strings.Contains(err.Error(), "nil context") { //nolint:staticcheck
		t.Errorf("RunString(nil, ...) = %v", err)
	}
	th, err := interp.NewThread("t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer th.Close()
	if _, err := th.Call(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "nil function") {
		t.Errorf("Thread.Call(ctx, nil) = %v", err)
	}
	//lint:ignore SA1012 the nil context is the point
	if _, err := th.Call(nil, starlark.Universe["len"], starlark.String("ab")); err == nil || !strings.Contains(err.Error(), "nil context") { //nolint:staticcheck
		t.Errorf("Thread.Call(nil, ...) = %v", err)
	}
}

// Allocations are checked: sizes that overflow and arrays larger than the
// machine or the interpreter's budget are Starlark errors at the call,
// naming the shape and the size.
func TestAllocationErrors(t *testing.T) {
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, MaxArrayBytes: 64 << 20})
	for _, c := range []struct{ code, want string }{
		{"jnp.zeros((1 << 40,))", "cannot allocate 4.0 TiB for an array of shape (1099511627776,) and dtype float32: more than"},
		{"jnp.ones((1 << 32, 1 << 32))", "an array of shape (4294967296, 4294967296) and dtype float32 would have 18446744073709551616 elements"},
		{"jnp.zeros((1 << 62, 3))", "an array of shape (4611686018427387904, 3) and dtype float32 would have 13835058055282163712 elements"},
		{"jnp.tile(jnp.ones(3), 1 << 62)", "an array of shape (4611686018427387904, 3)"},
		{"jnp.repeat(jnp.ones(3), 1 << 61)", "would have 6917529027641081856 elements"},
		{"jnp.zeros((1 << 25,))", "cannot allocate 128.0 MiB for an array of shape (33554432,) and dtype float32: more than the interpreter's array memory limit (64.0 MiB)"},
		{"jit(lambda: jnp.ones((1 << 25,)))()", "more than the interpreter's array memory limit (64.0 MiB)"},
	} {
		_, err := interp.RunString(context.Background(), "alloc.star", "x = "+c.code+"\nprint(x.shape)\n", nil)
		if err == nil {
			t.Errorf("%s: no error", c.code)
			continue
		}
		msg := jaxsh.FormatError(err)
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "alloc.star:") {
			t.Errorf("%s:\n%s\nwant a positioned error containing %q", c.code, msg, c.want)
		}
	}
	// Within the budget all is well, and freed arrays give their bytes back.
	if _, err := interp.RunString(context.Background(), "ok.star", `
for i in range(8):
    x = jnp.ones((1 << 22,)) + i
print(x[0])
`, nil); err != nil {
		t.Errorf("arrays within the budget: %s", jaxsh.FormatError(err))
	}
}

func TestStepsTimeAndCallbackDepthLimits(t *testing.T) {
	ctx := context.Background()
	steps := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, MaxSteps: 10000})
	if _, err := steps.RunString(ctx, "steps.star", "n = 0\nfor i in range(1000000):\n    n += i\n", nil); err == nil || !strings.Contains(err.Error(), "too many steps") {
		t.Errorf("MaxSteps: %v", err)
	}
	wall := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := wall.RunString(ctx, "wall.star", "while True:\n    pass\n", nil)
	if err == nil || !strings.Contains(err.Error(), "time limit of 200ms exceeded") || time.Since(start) > 2*time.Second {
		t.Errorf("Timeout: %v after %v", err, time.Since(start))
	}
	deep := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, MaxCallbackDepth: 8})
	_, err = deep.RunString(ctx, "deep.star", `
def again(x):
    return f(x)
@jit
def f(x):
    return call(again, x, result_shape=x)
print(f(jnp.ones(2)))
`, nil)
	if err == nil || !strings.Contains(jaxsh.FormatError(err), "host callbacks nested more than 8 deep") {
		t.Errorf("MaxCallbackDepth: %v", err)
	}
}

// load() goes through the file policy: every way out of it is an error
// that names the file and never shows its content.
func TestLoadFilePolicy(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "lib", "ok.star"), "ok = 'fine'\n")
	write(filepath.Join(root, "secret.env"), "admin = 1\n")
	write(filepath.Join(base, "outside.star"), "stolen = 'x'\n")
	os.Symlink(filepath.Join(base, "outside.star"), filepath.Join(root, "link.star"))
	os.Symlink("/dev/zero", filepath.Join(root, "zero.star"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.star"), 0o644); err != nil {
		t.Fatal(err)
	}
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}})
	run := func(load string) error {
		main := filepath.Join(root, "main.star")
		write(main, fmt.Sprintf("load(%q, %q)\n", load, "x"))
		_, err := interp.RunFile(context.Background(), main, nil)
		return err
	}
	for _, c := range []struct{ load, want string }{
		{filepath.Join(base, "outside.star"), "absolute paths are not allowed"},
		{"/dev/zero", "absolute paths are not allowed"},
		{"../outside.star", "the path leaves the directory the script may use"},
		{"link.star", "the path leaves the directory the script may use"},
		{"zero.star", "the path leaves the directory the script may use"},
		{"fifo.star", "not a regular file (a FIFO)"},
		{"secret.env", "load() takes .star files only"},
		{"lib", "load() takes .star files only"},
	} {
		done := make(chan error, 1)
		go func() { done <- run(c.load) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("load(%q) hangs", c.load)
		}
		msg := ""
		if err != nil {
			msg = jaxsh.FormatError(err)
		}
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, "main.star:1:") {
			t.Errorf("load(%q): %q, want a positioned error containing %q", c.load, msg, c.want)
		}
		for _, secret := range []string{"admin", "stolen"} {
			if strings.Contains(msg, secret) {
				t.Errorf("load(%q) shows file content: %q", c.load, msg)
			}
		}
	}
	// Within the policy, loading works, and an fs.FS can be the policy.
	if err := run("lib/ok.star"); err == nil || !strings.Contains(err.Error(), "x") {
		// x is not defined by ok.star: the error proves the load ran.
		t.Errorf("load of lib/ok.star: %v", err)
	}
	fsInterp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{},
		Files: jaxsh.FilesFrom(fstest.MapFS{"m.star": {Data: []byte("m = 7\n")}}, "the test's scripts")})
	g, err := fsInterp.RunString(context.Background(), "main.star", "load('m.star', 'm')\nn = m * 6\n", nil)
	if err != nil || g["n"].String() != "42" {
		t.Errorf("an fs.FS policy: %v", err)
	}
	none := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, Files: jaxsh.NoFiles()})
	if _, err := none.RunString(context.Background(), "main.star", "load('m.star', 'm')\n", nil); err == nil || !strings.Contains(err.Error(), "may not use files") {
		t.Errorf("NoFiles: %v", err)
	}
}

// Two threads of one interpreter loading modules that load each other get
// an error instead of a deadlock.
func TestCrossThreadLoadCycle(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.star"), []byte("load('b.star', 'b')\na = 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.star"), []byte("load('a.star', 'a')\nb = 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ta.star"), []byte("load('a.star', 'a')\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tb.star"), []byte("load('b.star', 'b')\n"), 0o644)
	policy, err := jaxsh.FilesBelow(dir)
	if err != nil {
		t.Fatal(err)
	}
	interp := jaxsh.New(jaxsh.Options{Stdout: &bytes.Buffer{}, Files: policy})
	errs := make(chan error, 2)
	for _, s := range []string{"ta.star", "tb.star"} {
		go func() {
			_, err := interp.RunFile(context.Background(), filepath.Join(dir, s), nil)
			errs <- err
		}()
	}
	for range 2 {
		select {
		case err := <-errs:
			if err == nil || !strings.Contains(jaxsh.FormatError(err), "cycle in load graph") {
				t.Errorf("got %v, want a load cycle error", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("two threads loading each other's modules deadlocked")
		}
	}
}

// A loop of tapped jitted calls runs in bounded memory, prints every line,
// and its taps arrive while it runs. go test -short runs 10^4 calls; the
// full run, 10^6.
func TestManyTappedCallsRunInFlatMemory(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	var out countingWriter
	var seenEarly bool
	early := jaxsh.Func("early", func(_ context.Context, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		seenEarly = out.lines.Load() > 0 // a tap ran before the loop ended
		return starlark.None, nil
	})
	interp := jaxsh.New(jaxsh.Options{Stdout: &out, Globals: starlark.StringDict{"early": early}})
	var peak uint64
	stop := make(chan struct{})
	var sampling sync.WaitGroup
	sampling.Add(1)
	go func() {
		defer sampling.Done()
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	_, err := interp.RunString(context.Background(), "taps.star", fmt.Sprintf(`
def f(x, i):
    print("step", i)
    return x + 1
g = jit(f)
x = jnp.ones(3)
for i in range(%d):
    g(x, i)
    if i == %d:
        early(i)
`, n, n/2), nil)
	close(stop)
	sampling.Wait()
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if got := out.lines.Load(); got != int64(n) {
		t.Fatalf("%d lines printed, want %d", got, n)
	}
	if !seenEarly {
		t.Error("no tap had printed by the middle of the loop: taps wait for its end")
	}
	if peak > 256<<20 {
		t.Errorf("heap in use peaked at %d MiB for %d calls, want flat (under 256 MiB)", peak>>20, n)
	}
}

type countingWriter struct{ lines atomic.Int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.lines.Add(int64(bytes.Count(p, []byte("\n"))))
	return len(p), nil
}
