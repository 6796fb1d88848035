package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// BenchmarkMatmul512Float32 multiplies two 512×512 float32 matrices
// through dot_general; it reports GFLOP/s (2·512³ flops per op).
func BenchmarkMatmul512Float32(b *testing.B) {
	benchMatmul(b, 512, 512, 512)
}

// BenchmarkMatmul128Float32 is a small matmul, where packing and task
// overheads show.
func BenchmarkMatmul128Float32(b *testing.B) {
	benchMatmul(b, 128, 128, 128)
}

// BenchmarkMatVec4096Float32 is a 4096×4096 matrix times a vector: memory
// bound, 64 MiB read per op.
func BenchmarkMatVec4096Float32(b *testing.B) {
	benchMatmul(b, 4096, 4096, 1)
}

// BenchmarkVecMat4096Float32 is a vector times a 4096×4096 matrix (x @ W):
// whole rows of W scaled and added.
func BenchmarkVecMat4096Float32(b *testing.B) {
	benchMatmul(b, 1, 4096, 4096)
}

func benchMatmul(b *testing.B, m, k, n int) {
	lhs := randomFloat32Buffer([]int{m, k}, 1, -1, 1)
	rhs := randomFloat32Buffer([]int{k, n}, 2, -1, 1)
	dn := dotDims([]int{1}, []int{0}, nil, nil)
	dotApply(b, lhs, rhs, dn, trace.InvalidDType)
	b.ResetTimer()
	for b.Loop() {
		dotApply(b, lhs, rhs, dn, trace.InvalidDType)
	}
	b.ReportMetric(2*float64(m)*float64(k)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkMatmul2048Float32 is the large square case, bound by arithmetic:
// compare its GFLOP/s with bench/machine's BenchmarkPeakFMA.
func BenchmarkMatmul2048Float32(b *testing.B) {
	benchMatmul(b, 2048, 2048, 2048)
}

// BenchmarkMatmul64Float32 is a small matmul, where per-call overheads show.
func BenchmarkMatmul64Float32(b *testing.B) {
	benchMatmul(b, 64, 64, 64)
}

// BenchmarkBatchedOuter256Float32 is a batch of 256 outer products of a
// 32- and a 64-vector (per-example weight gradients of a dense layer): 2
// MiB written per op, reported as GB/s of result.
func BenchmarkBatchedOuter256Float32(b *testing.B) {
	lhs := randomFloat32Buffer([]int{256, 32}, 1, -1, 1)
	rhs := randomFloat32Buffer([]int{256, 64}, 2, -1, 1)
	dn := dotDims(nil, nil, []int{0}, []int{0})
	dotApply(b, lhs, rhs, dn, trace.InvalidDType)
	b.ResetTimer()
	for b.Loop() {
		dotApply(b, lhs, rhs, dn, trace.InvalidDType)
	}
	b.ReportMetric(256*32*64*4*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
