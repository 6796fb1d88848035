package bench_test

import "testing"

// The rows of bench/compare.py beyond bench_test.go's: each op as a script
// calls it, on the data compare.py gives NumPy (uniform random float32 for
// the searches, sorts and gathers, so that no input order favours either).

const (
	n1M        = 1 << 20
	uniform16M = "x = random.uniform(random.PRNGKey(0), (16777216,), dtype=jnp.float32)"
	uniform1M  = "x = random.uniform(random.PRNGKey(0), (1048576,), dtype=jnp.float32)"
	takeSetup  = uniform16M + "\ni = random.randint(random.PRNGKey(1), (1048576,), 0, 16777216)"
	square4096 = "a = random.uniform(random.PRNGKey(0), (4096, 4096), dtype=jnp.float32)"
	tiny4      = "x = jnp.ones(4, dtype=jnp.float32)"
)

func BenchmarkEagerAddScalar4(b *testing.B) { benchEval(b, tiny4, "x + 1") }

func BenchmarkEagerSin4(b *testing.B) { benchEval(b, tiny4, "jnp.sin(x)") }

// A reduction's axes are params: its eager lookup compares them.
func BenchmarkEagerSumAxis0_4x4(b *testing.B) {
	benchEval(b, "x = jnp.ones((4, 4), dtype=jnp.float32)", "jnp.sum(x, axis=0)")
}

func BenchmarkJnpArgmaxFloat32_16M(b *testing.B) {
	b.SetBytes(4 * n16M)
	benchEval(b, uniform16M, "jnp.argmax(x)")
}

func BenchmarkJnpCumsumFloat32_16M(b *testing.B) {
	b.SetBytes(2 * 4 * n16M)
	benchEval(b, uniform16M, "jnp.cumsum(x)")
}

func BenchmarkJnpSortFloat32_1M(b *testing.B) {
	benchEval(b, uniform1M, "jnp.sort(x)")
}

func BenchmarkJnpTakeFloat32_1Mof16M(b *testing.B) {
	benchEval(b, takeSetup, "jnp.take(x, i)")
}

func BenchmarkJnpTransposeFloat32_4096(b *testing.B) {
	b.SetBytes(2 * 4 * n16M)
	benchEval(b, square4096, "jnp.transpose(a)")
}

func BenchmarkJitTransposeFloat32_4096(b *testing.B) {
	b.SetBytes(2 * 4 * n16M)
	benchEval(b, square4096+"\nt = jit(lambda a: a.T)", "t(a)")
}

// A transpose feeding an elementwise op: one fused kernel reads the
// operand transposed.
func BenchmarkJitTransposeAddFloat32_4096(b *testing.B) {
	b.SetBytes(2 * 4 * n16M)
	benchEval(b, square4096+"\nt = jit(lambda a: a.T * 2 + 1)", "t(a)")
}

func BenchmarkJnpMatmulFloat32_2048(b *testing.B) {
	benchEval(b, "a = random.uniform(random.PRNGKey(0), (2048, 2048), dtype=jnp.float32)\nc = random.uniform(random.PRNGKey(1), (2048, 2048), dtype=jnp.float32)", "jnp.matmul(a, c)")
}

func BenchmarkJnpMatmulFloat32_64(b *testing.B) {
	benchEval(b, "a = random.uniform(random.PRNGKey(0), (64, 64), dtype=jnp.float32)\nc = random.uniform(random.PRNGKey(1), (64, 64), dtype=jnp.float32)", "jnp.matmul(a, c)")
}

func BenchmarkJnpMatvecFloat32_4096(b *testing.B) {
	b.SetBytes(4 * n16M)
	benchEval(b, square4096+"\nv = random.uniform(random.PRNGKey(1), (4096,), dtype=jnp.float32)", "jnp.matmul(a, v)")
}

func BenchmarkJnpBatchedMatmulFloat32_256x64(b *testing.B) {
	benchEval(b, "a = random.uniform(random.PRNGKey(0), (256, 64, 64), dtype=jnp.float32)\nc = random.uniform(random.PRNGKey(1), (256, 64, 64), dtype=jnp.float32)", "jnp.matmul(a, c)")
}
