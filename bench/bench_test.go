package bench_test

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"testing"

	"github.com/jaxsh/jaxsh/internal/scripttest"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Benchmarks of eager jnp calls as a script makes them (promotion,
// broadcasting checks, cache lookup, kernel), on the sizes bench/compare.py
// times NumPy with. Setup runs in Starlark too: arrays come from jnp itself.
// They use only the exported API, as an embedding program would.

// newSession is a session that sees every namespace, as a script does.
func newSession(w io.Writer, extra starlark.StringDict) *Session {
	return scripttest.NewSession(w, extra)
}

// asEntry runs fn as one call on thread (Session.Call of a builtin that
// runs it), so that the Starlark calls fn makes find the thread already
// entered and the timed loop does not pay the entry's bookkeeping per call.
func asEntry(session *Session, thread *starlark.Thread, fn func() error) error {
	entry := starlark.NewBuiltin("bench", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, fn()
	})
	_, err := session.Call(thread, entry, nil, nil)
	return err
}

// callTimes calls run n times from a script's entry point, waiting for
// each array result: dispatch is asynchronous, and the work is what is
// timed.
func callTimes(session *Session, thread *starlark.Thread, run starlark.Callable, n int) error {
	return asEntry(session, thread, func() error {
		for range n {
			v, err := starlark.Call(thread, run, nil, nil)
			if err != nil {
				return err
			}
			if a, ok := v.(*Array); ok {
				if _, err := a.Buffer(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func benchEval(b *testing.B, setup, call string) {
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", setup+"\ndef run():\n    return "+call+"\n")
	if err != nil {
		b.Fatal(FormatError(err))
	}
	run := globals["run"].(starlark.Callable)
	if _, err := starlark.Call(thread, run, nil, nil); err != nil { // warm the compile cache
		b.Fatal(FormatError(err))
	}
	b.ResetTimer()
	// Registered as running, as a script's thread is.
	err = callTimes(session, thread, run, b.N)
	if err != nil {
		b.Fatal(FormatError(err))
	}
}

const n16M = 1 << 24

func BenchmarkJnpAddFloat32_16M(b *testing.B) {
	b.SetBytes(3 * 4 * n16M)
	benchEval(b, "x = jnp.arange(16777216, dtype=jnp.float32)\ny = x * 0.5", "jnp.add(x, y)")
}

func BenchmarkJnpSinFloat32_16M(b *testing.B) {
	b.SetBytes(2 * 4 * n16M)
	benchEval(b, "x = jnp.arange(16777216, dtype=jnp.float32) * 1e-3", "jnp.sin(x)")
}

func BenchmarkJnpSumFloat32_16M(b *testing.B) {
	b.SetBytes(4 * n16M)
	benchEval(b, "x = jnp.arange(16777216, dtype=jnp.float32) * 1e-3", "jnp.sum(x)")
}

func BenchmarkJnpMatmulFloat32_512(b *testing.B) {
	benchEval(b, "a = jnp.ones((512, 512), dtype=jnp.float32) * 0.5\nc = a + 1", "jnp.matmul(a, c)")
}

// Dispatch latency of a jitted function on a 4-element array, called from
// a Starlark loop (per call), and of an eager elementwise op on the same.
func BenchmarkJitDispatch4(b *testing.B) {
	benchEval(b, "f = jit(lambda x: x * 2 + 1)\nx = jnp.ones(4)", "f(x)")
}

func BenchmarkEagerAdd4(b *testing.B) {
	benchEval(b, "x = jnp.ones(4)", "x + x")
}

// The study's f_well_fused and the reduction broadcast back, jitted, on
// 8M x 2 float32 (64 MiB in, 64 MiB out).
const studySetup = `
def f_well_fused(x):
    a = x * 2
    b = jnp.arange(a.shape[0])[:, None] * 3
    c = x[0] + x - a
    return jnp.sin(a) + a ** 2 + b + c

def f_sum(x):
    return x * 2 + jnp.sum(x, axis = 1, keepdims = True)

x = jnp.arange(8 * 1024 * 1024 * 2, dtype = jnp.float32).reshape((8 * 1024 * 1024, 2)) * 1e-6
well = jit(f_well_fused)
summed = jit(f_sum)
`

func BenchmarkJitWellFused8M(b *testing.B) {
	b.SetBytes(2 * 8 << 20 * 2 * 4)
	benchEval(b, studySetup, "well(x)")
}

func BenchmarkJitSumKeepdims8M(b *testing.B) {
	b.SetBytes(2 * 8 << 20 * 2 * 4)
	benchEval(b, studySetup, "summed(x)")
}

func BenchmarkJnpMatmulFloat32_1024(b *testing.B) {
	benchEval(b, "a = jnp.ones((1024, 1024), dtype=jnp.float32) * 0.5\nc = a + 1", "jnp.matmul(a, c)")
}

// BenchmarkTriad measures the machine, not jaxsh: STREAM's triad
// a = b + s*c over 16M float32 in plain Go on every core, the memory
// bandwidth bench/compare.py compares memory-bound results with.
func BenchmarkTriad(b *testing.B) {
	const n = 16 << 20
	x, y, z := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range y {
		y[i], z[i] = float32(i), float32(n-i)
	}
	workers := runtime.GOMAXPROCS(0)
	b.SetBytes(3 * 4 * n)
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			lo, hi := w*n/workers, (w+1)*n/workers
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, bb, c := x[lo:hi], y[lo:hi], z[lo:hi]
				for i := range a {
					a[i] = bb[i] + 3*c[i]
				}
			}()
		}
		wg.Wait()
	}
}

// Tracing and compiling a 1,000-operation elementwise chain (a fresh jit
// each time, so nothing is cached), and the same with a 128 MiB concrete
// array captured: capturing must add no compile time (it is an argument
// buffer, never folded into the program).
const chainSetup = `
def chain(x):
    for i in range(500):
        x = x * 1.0001 + 0.5
    return x

big = jnp.zeros((32 * 1024 * 1024,), dtype = jnp.float32)  # 128 MiB

def chain_captured(x):
    return chain(x) + big[:4]

x = jnp.ones(4)
`

func BenchmarkTraceCompileChain1000(b *testing.B) {
	benchEval(b, chainSetup, "jit(chain).lower(x).compile()")
}

func BenchmarkTraceCompileChain1000Captured128MiB(b *testing.B) {
	benchEval(b, chainSetup, "jit(chain_captured).lower(x).compile()")
}
