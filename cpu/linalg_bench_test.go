package cpu

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh/trace"
	"gonum.org/v1/gonum/blas"
)

// The lax.linalg kernels on one 512×512 float64 matrix (symmetric positive
// definite, so every one applies), as bench/compare.py's jnp.linalg rows
// time them with their surrounding ops.

func benchLinalg512(b *testing.B, prim string, params trace.Params, rhs int) {
	const n = 512
	rng := rand.New(rand.NewPCG(1, 2))
	in := []*Buffer{bufferOf(b, trace.Float64, []int{n, n}, anys(spdMatrix(rng, n))...)}
	if rhs > 0 {
		in = append(in, bufferOf(b, trace.Float64, []int{n, rhs}, anys(randomMatrix(rng, n, rhs))...))
	}
	b.ResetTimer()
	defer reportCPUTime(b)()
	for range b.N {
		apply(b, prim, params, in...)
	}
}

// reportCPUTime adds the process's CPU time per operation (user + system,
// every thread) to b's results, when the returned function runs: on a
// loaded machine it varies far less than the wall time.
func reportCPUTime(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op") }
}

func BenchmarkLinalgCholesky512(b *testing.B) { benchLinalg512(b, "cholesky", nil, 0) }

func BenchmarkLinalgLU512(b *testing.B) { benchLinalg512(b, "lu", nil, 0) }

func triangularParams(lower bool) trace.Params {
	return trace.Params{"left_side": true, "lower": lower, "transpose_a": false, "conjugate_a": false, "unit_diagonal": false}
}

func BenchmarkLinalgTriangularSolve512x1(b *testing.B) {
	benchLinalg512(b, "triangular_solve", triangularParams(true), 1)
}

func BenchmarkLinalgTriangularSolve512x512(b *testing.B) {
	benchLinalg512(b, "triangular_solve", triangularParams(false), 512)
}

func BenchmarkLinalgEigh512(b *testing.B) {
	benchLinalg512(b, "eigh", trace.Params{"lower": true, "sort_eigenvalues": true, "subset_by_index": nil}, 0)
}

func BenchmarkLinalgSvd512(b *testing.B) {
	benchLinalg512(b, "svd", trace.Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil}, 0)
}

// The same factorizations by gonum's LAPACK, which the kernels ran before
// the blocked ones (linalg_blocked.go): the ratio, measured in one run.
func benchGonum512(b *testing.B, factor func(a []float64)) {
	const n = 512
	a := spdMatrix(rand.New(rand.NewPCG(1, 2)), n)
	work := make([]float64, n*n)
	b.ResetTimer()
	defer reportCPUTime(b)()
	for range b.N {
		copy(work, a)
		factor(work)
	}
}

func BenchmarkLinalgCholesky512Gonum(b *testing.B) {
	benchGonum512(b, func(a []float64) { lapackImpl.Dpotrf(blas.Lower, 512, a, 512) })
}

func BenchmarkLinalgLU512Gonum(b *testing.B) {
	ipiv := make([]int, 512)
	benchGonum512(b, func(a []float64) { lapackImpl.Dgetrf(512, 512, a, 512, ipiv) })
}
