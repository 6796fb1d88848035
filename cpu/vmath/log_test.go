package vmath

import (
	"math"
	"testing"
)

// logBoundaries are inputs near 1 (where log → 0 and relative accuracy is
// hardest), at table-cell edges, and at powers of two and ten.
func logBoundaries() []float32 {
	out := append(denseRange(0.98, 1.02, 8192), denseRange(0.5, 2, 8192)...)
	for e := -149; e <= 127; e++ {
		out = append(out, nearby(math.Ldexp(1, e), 2)...)
	}
	for i := uint64(0); i <= logTableSize; i++ { // cell edges
		out = append(out, nearby(math.Float64frombits(logOffset+i<<logCell), 2)...)
	}
	for p := -38; p <= 38; p++ {
		out = append(out, nearby(math.Pow(10, float64(p)), 1)...)
	}
	return append(out, nearby(1, 64)...)
}

// logMaxUlp: the cubic for log1p(r) errs by up to 2^-28.7 relative, which
// matters only near x = 1, where the result is small.
const logMaxUlp = 0.55

func TestLogAccuracy(t *testing.T) {
	checkUnary(t, unaryCase{"log", Log, Log32, math.Log, logMaxUlp, logBoundaries(), nil})
	checkUnary(t, unaryCase{"log2", Log2, Log2_32, math.Log2, logMaxUlp, logBoundaries(), nil})
	checkUnary(t, unaryCase{"log10", Log10, Log10_32, math.Log10, logMaxUlp, logBoundaries(), nil})
	near0 := append(denseRange(-0.02, 0.02, 8192), nearby(-1, 64)...)
	for e := -149; e <= 127; e++ {
		near0 = append(near0, nearby(math.Ldexp(1, e), 1)...)
		near0 = append(near0, nearby(-math.Ldexp(1, e), 1)...)
	}
	checkUnary(t, unaryCase{"log1p", Log1p, Log1p32, math.Log1p, logMaxUlp, near0, nil})
}

func TestLogSpecials(t *testing.T) {
	common := []specialCase{
		{0, -inf}, {negZ, -inf}, {-tiny, nan}, {-1, nan}, {-inf, nan}, {inf, inf}, {nan, nan}, {1, 0},
	}
	checkSpecials(t, "log", Log, Log32, append(common,
		specialCase{tiny, -103.27893}, specialCase{maxF, 88.72284}, specialCase{float32(math.E), 0.99999994}))
	checkSpecials(t, "log2", Log2, Log2_32, append(common,
		specialCase{tiny, -149}, specialCase{minNrm, -126}, specialCase{0x1p127, 127}, specialCase{1024, 10}, specialCase{0.5, -1}))
	checkSpecials(t, "log10", Log10, Log10_32, append(common,
		specialCase{1000, 3}, specialCase{1e-3, -3}, specialCase{1e30, 30}, specialCase{10, 1}, specialCase{0.1, -1}))
	checkSpecials(t, "log1p", Log1p, Log1p32, []specialCase{
		{0, 0}, {negZ, negZ}, {-1, -inf}, {-1.5, nan}, {-inf, nan}, {inf, inf}, {nan, nan},
		{tiny, tiny}, {-tiny, -tiny}, {1e-10, 1e-10}, {-1e-10, -1e-10}, {0x1p53, 36.736801}, {maxF, 88.72284},
	})
}
