package bench_test

import "testing"

// A jitted chain of six elementwise ops on 16M float32 (two arrays in, one
// out): one fused loop kernel, compiled to native code where the CPU
// allows, and the same on the portable block machine.
const chain6Setup = `
x = random.uniform(random.PRNGKey(0), (16777216,), dtype=jnp.float32)
y = random.uniform(random.PRNGKey(1), (16777216,), dtype=jnp.float32)
chain6 = jit(lambda x, y: ((x * y + 1.5) - y) * x / (y + 2.0))
`

func BenchmarkJitChain6Float32_16M(b *testing.B) {
	b.SetBytes(3 * 4 * n16M)
	benchEval(b, chain6Setup, "chain6(x, y)")
}

func BenchmarkJitChain6Float32_16MPortable(b *testing.B) {
	b.Setenv("JAXSH_CPU_CODEGEN", "0")
	b.SetBytes(3 * 4 * n16M)
	benchEval(b, chain6Setup, "chain6(x, y)")
}
