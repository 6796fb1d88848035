package bench_test

import "testing"

// Transcendentals on 16M float32, eager (jnp.f(x): vmath's slice kernels)
// and jitted (one fused loop kernel, compiled to native code where the CPU
// allows), on the inputs bench/compare.py gives NumPy: sin of i·10^-3, exp
// and tanh of i·10^-6 − 8 (every result finite and not saturated), log of
// i·10^-3 + 1.

const (
	mathSinSetup = "x = jnp.arange(16777216, dtype=jnp.float32) * 1e-3"
	mathExpSetup = "x = jnp.arange(16777216, dtype=jnp.float32) * 1e-6 - 8.0"
	mathLogSetup = "x = jnp.arange(16777216, dtype=jnp.float32) * 1e-3 + 1.0"
)

func benchMath16M(b *testing.B, setup, fn string, jitted bool) {
	b.SetBytes(2 * 4 * n16M)
	if jitted {
		benchEval(b, setup+"\nf = jit(lambda x: jnp."+fn+"(x))", "f(x)")
		return
	}
	benchEval(b, setup, "jnp."+fn+"(x)")
}

func BenchmarkJnpExpFloat32_16M(b *testing.B)  { benchMath16M(b, mathExpSetup, "exp", false) }
func BenchmarkJnpTanhFloat32_16M(b *testing.B) { benchMath16M(b, mathExpSetup, "tanh", false) }
func BenchmarkJnpLogFloat32_16M(b *testing.B)  { benchMath16M(b, mathLogSetup, "log", false) }
func BenchmarkJitSinFloat32_16M(b *testing.B)  { benchMath16M(b, mathSinSetup, "sin", true) }
func BenchmarkJitExpFloat32_16M(b *testing.B)  { benchMath16M(b, mathExpSetup, "exp", true) }
func BenchmarkJitTanhFloat32_16M(b *testing.B) { benchMath16M(b, mathExpSetup, "tanh", true) }
func BenchmarkJitLogFloat32_16M(b *testing.B)  { benchMath16M(b, mathLogSetup, "log", true) }
