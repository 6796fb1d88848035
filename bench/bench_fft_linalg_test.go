package bench_test

import "testing"

// The FFT and linear-algebra benchmarks bench/compare.py times NumPy with:
// a complex64 FFT of 2^20 points and a 1000x1000 two-dimensional one, and
// solve, cholesky, svd and eigh of a 512x512 float64 matrix (symmetric
// positive definite, so every one of them applies).

const spd512 = `g = random.normal(random.key(0), (512, 512), dtype=jnp.float64)
s = g @ g.T + 512 * jnp.eye(512, dtype=jnp.float64)
b = jnp.ones(512, dtype=jnp.float64)`

func BenchmarkJnpFFTComplex64_1M(b *testing.B) {
	benchEval(b, "n = 1 << 20\nx = lax.complex(jnp.sin(jnp.arange(n, dtype=jnp.float32)), jnp.cos(jnp.arange(n, dtype=jnp.float32) * 0.5))", "jnp.fft.fft(x)")
}

func BenchmarkJnpFFT2Complex64_1000(b *testing.B) {
	benchEval(b, "r = jnp.sin(jnp.arange(1000000, dtype=jnp.float32)).reshape(1000, 1000)\nx = lax.complex(r, r.T)", "jnp.fft.fft2(x)")
}

func BenchmarkJnpSolveFloat64_512(b *testing.B) { benchEval(b, spd512, "jnp.linalg.solve(s, b)") }

func BenchmarkJnpCholeskyFloat64_512(b *testing.B) { benchEval(b, spd512, "jnp.linalg.cholesky(s)") }

func BenchmarkJnpSvdFloat64_512(b *testing.B) { benchEval(b, spd512, "jnp.linalg.svd(s)[1]") }

func BenchmarkJnpEighFloat64_512(b *testing.B) { benchEval(b, spd512, "jnp.linalg.eigh(s)[0]") }
