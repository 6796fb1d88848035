package starlark

import (
	"bytes"
	"testing"

	"go.starlark.net/starlark"
)

// Benchmarks of eager jnp calls as a script makes them (promotion,
// broadcasting checks, cache lookup, kernel), on the sizes bench/compare.py
// times NumPy with. Setup runs in Starlark too: arrays come from jnp itself.

func benchEval(b *testing.B, setup, call string) {
	session := NewSession(&bytes.Buffer{}, nil)
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
	for i := 0; i < b.N; i++ {
		if _, err := starlark.Call(thread, run, nil, nil); err != nil {
			b.Fatal(FormatError(err))
		}
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
