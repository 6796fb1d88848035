package hostcallback_test

import (
	"bytes"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh/internal/scripttest"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

var newSession = scripttest.NewSession

// Each way a call can fail fails that computation with a message naming
// the callback and what was expected; reading the result raises it, and a
// callback's exception keeps its traceback.
func TestCallFailures(t *testing.T) {
	cases := []struct{ name, src, want string }{{
		name: "wrong structure",
		src: `
def cb(x):
    return (x, x)
r = jit(lambda x: call(cb, x, result_shape=x))(jnp.ones(3))
print(r)`,
		want: `call\(cb\): the callback's result does not match result_shape: the value \(.*\) does not have the structure \*`,
	}, {
		name: "wrong shape",
		src: `
def cb(x):
    return jnp.ones((2, 3))
r = jit(lambda x: call(cb, x, result_shape=ShapeDtypeStruct((3,), jnp.float32)))(jnp.ones(3))
print(r)`,
		want: `call\(cb\): result leaf 0 has shape \(2, 3\), but result_shape declares \(3,\) \(expected f32\[3\], got f32\[2,3\]\)`,
	}, {
		name: "dtype that does not convert",
		src: `
def cb(x):
    return jnp.array([1.5, 2.5, 3.5])
r = jit(lambda x: call(cb, x, result_shape=x))(jnp.ones(3, dtype=jnp.int32))
print(r)`,
		want: `call\(cb\): result leaf 0: dtype float32 does not convert to the declared int32`,
	}, {
		name: "exception in the callback, with its traceback",
		src: `
def helper(x):
    fail("no luck with", x.shape)
def cb(x):
    return helper(x)
r = jit(lambda x: call(cb, x, result_shape=x))(jnp.ones(3))
r.block_until_ready()`,
		want: `(?s)call\(cb\) failed: .*t.star:5:\d+: in cb.*t.star:3:\d+: in helper.*no luck with \(3,\)`,
	}, {
		name: "a callback result with a structure call did not declare",
		src: `
r = jit(lambda x: call(lambda a: a, x))(jnp.ones(3))
effects_barrier()`,
		want: `call\(lambda\): result_shape=None declares no result, but the callback returned Array`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			s := newSession(&out, nil)
			th := s.NewThread("main")
			_, err := s.ExecFile(th, "t.star", c.src+"\nprint('not reached')\n")
			if cerr := s.CloseThread(th); err == nil {
				err = cerr
			}
			if err == nil {
				t.Fatalf("no error; output:\n%s", out.String())
			}
			msg := FormatError(err)
			if !regexp.MustCompile(c.want).MatchString(msg) {
				t.Errorf("error:\n%s\ndoes not match %q", msg, c.want)
			}
			// Later computations on the same session still run.
			th2 := s.NewThread("after")
			out.Reset()
			if _, err := s.ExecFile(th2, "after.star", "print(jit(lambda x: x + 1)(jnp.ones(2)))"); err != nil {
				t.Fatal(FormatError(err))
			}
			if got := out.String(); got != "[2. 2.]\n" {
				t.Errorf("later computation printed %q", got)
			}
		})
	}
}

// Ten thousand jitted calls with taps leave the goroutine count and the
// heap where they were: nothing leaks per call (events, goroutines,
// mailbox jobs, token history).
func TestTapsDoNotLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var out bytes.Buffer
	s := newSession(&out, nil)
	th := s.NewThread("main")
	g, err := s.ExecFile(th, "leak.star", `
def run(n):
    count = [0]
    def tap(arg, transforms):
        count[0] += 1
    f = jit(lambda x: id_tap(tap, x + 1))
    for _ in range(n):
        f(jnp.ones(4))
    effects_barrier()
    return count[0]
`)
	if err != nil {
		t.Fatal(FormatError(err))
	}
	run := g["run"]
	measure := func() (int, uint64) {
		runtime.GC()
		time.Sleep(20 * time.Millisecond) // let finished goroutines exit
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return runtime.NumGoroutine(), ms.HeapAlloc
	}
	// The warm-up runs as many calls as the measured run, so that pools
	// that grow with the number of programs in flight (reused dispatch
	// workers, up to the bound of programs per device) reach their size
	// before the baseline: only growth beyond it is a leak.
	if _, err := s.Call(th, run, starlark.Tuple{starlark.MakeInt(10000)}, nil); err != nil {
		t.Fatal(FormatError(err))
	}
	g0, h0 := measure()
	v, err := s.Call(th, run, starlark.Tuple{starlark.MakeInt(10000)}, nil)
	if err != nil {
		t.Fatal(FormatError(err))
	}
	if v.String() != "10000" {
		t.Fatalf("taps ran %s times, want 10000", v)
	}
	g1, h1 := measure()
	t.Logf("goroutines %d -> %d, heap %d KiB -> %d KiB", g0, g1, h0>>10, h1>>10)
	if g1 > g0+2 {
		t.Errorf("goroutines grew from %d to %d", g0, g1)
	}
	if h1 > h0+4<<20 {
		t.Errorf("heap grew from %d KiB to %d KiB over 10,000 calls", h0>>10, h1>>10)
	}
}
