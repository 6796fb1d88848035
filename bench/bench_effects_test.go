package bench_test

import (
	"bytes"
	"testing"

	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Benchmarks of the effects machinery as scripts use it (SPEC §5): taps
// per second over 100,000 tapped steps, the round trip of a host call, and
// a jitted call with and without an ordered effect.

func benchScript(b *testing.B, src string) starlark.Callable {
	b.Helper()
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", src)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	b.Cleanup(func() { _ = session.CloseThread(thread) })
	run := globals["run"].(starlark.Callable)
	call := func() {
		if _, err := session.Call(thread, run, nil, nil); err != nil {
			b.Fatal(FormatError(err))
		}
	}
	call() // compile
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call()
	}
	return run
}

func BenchmarkTaps100k(b *testing.B) {
	benchScript(b, `
def run():
    seen = [0]
    def tap(arg, transforms):
        seen[0] += 1
    f = jit(lambda x: id_tap(tap, x + 1))
    x = jnp.ones(4)
    for _ in range(100000):
        x = f(x)
    effects_barrier()
    if seen[0] != 100000:
        fail("taps ran", seen[0], "times")
`)
	b.ReportMetric(float64(100000*b.N)/b.Elapsed().Seconds(), "taps/s")
}

// Each of these is one jitted call on a 4-element array whose result is
// read before the next call: dispatch, the program and the wake-up.

func BenchmarkCallRoundTrip(b *testing.B) {
	benchEval(b, "f = jit(lambda x: call(lambda a: a, x, result_shape=x) * 2)\nx = jnp.ones(4)", "f(x)")
}

func BenchmarkJitCallNoEffects(b *testing.B) {
	benchEval(b, "f = jit(lambda x: x * 2 + 1)\nx = jnp.ones(4)", "f(x)")
}

// An ordered print whose text goes nowhere: the program waits for the
// thread's print token and becomes the next.
func BenchmarkJitCallOrderedPrint(b *testing.B) {
	benchEval(b, "f = jit(lambda x: print('', end='') or x * 2 + 1)\nx = jnp.ones(4)", "f(x)")
}

func BenchmarkJitCallUnorderedPrint(b *testing.B) {
	benchEval(b, "f = jit(lambda x: print('', end='', ordered=False) or x * 2 + 1)\nx = jnp.ones(4)", "f(x)")
}

// An eager lax.fori_loop (outside jit): the body is traced again at each
// call, the program comes from the cache.
func BenchmarkEagerForiLoop(b *testing.B) {
	benchEval(b, "def body(i, c):\n    return c * 1.01 + i", "lax.fori_loop(0, 10, body, 1.0)")
}

func BenchmarkJitForiLoop(b *testing.B) {
	benchEval(b, "def body(i, c):\n    return c * 1.01 + i\nf = jit(lambda c: lax.fori_loop(0, 10, body, c))\nx = jnp.float32(1)", "f(x)")
}
