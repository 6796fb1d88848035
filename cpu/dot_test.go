package cpu

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func dotDims(lc, rc, lb, rb []int) trace.DotDimensionNumbers {
	z := func(x []int) []int {
		if x == nil {
			return []int{}
		}
		return x
	}
	return trace.DotDimensionNumbers{LhsContracting: z(lc), RhsContracting: z(rc), LhsBatch: z(lb), RhsBatch: z(rb)}
}

func dotApply(t testing.TB, lhs, rhs *Buffer, dn trace.DotDimensionNumbers, preferred trace.DType) *Buffer {
	t.Helper()
	p := trace.Params{"dimension_numbers": dn, "precision": nil, "preferred_element_type": nil}
	if preferred != trace.InvalidDType {
		p["preferred_element_type"] = preferred
	}
	return apply(t, "dot_general", p, lhs, rhs)[0]
}

// refDot is dot_general written directly from its definition: walk the
// output's (batch, lhs free, rhs free) coordinates and, for each, every
// contracting coordinate in row-major order, adding mulAdd's products from
// zero.
func refDot[T any](ls, rs []int, dn trace.DotDimensionNumbers, a, b []T, mulAdd func(acc, x, y T) T) []T {
	strides := func(s []int) []int {
		st := make([]int, len(s))
		n := 1
		for d := len(s) - 1; d >= 0; d-- {
			st[d], n = n, n*s[d]
		}
		return st
	}
	lst, rst := strides(ls), strides(rs)
	var lfree, rfree []int
	for d := range ls {
		if !slices.Contains(dn.LhsBatch, d) && !slices.Contains(dn.LhsContracting, d) {
			lfree = append(lfree, d)
		}
	}
	for d := range rs {
		if !slices.Contains(dn.RhsBatch, d) && !slices.Contains(dn.RhsContracting, d) {
			rfree = append(rfree, d)
		}
	}
	// counter iterates every coordinate of dims (row-major).
	counter := func(shape, dims []int) [][]int {
		out := [][]int{{}}
		for _, d := range dims {
			var next [][]int
			for _, c := range out {
				for i := range shape[d] {
					next = append(next, append(slices.Clone(c), i))
				}
			}
			out = next
		}
		return out
	}
	var out []T
	ks := counter(ls, dn.LhsContracting)
	for _, bc := range counter(ls, dn.LhsBatch) {
		for _, mc := range counter(ls, lfree) {
			for _, nc := range counter(rs, rfree) {
				var acc T
				for _, kc := range ks {
					li, ri := 0, 0
					for i, d := range dn.LhsBatch {
						li += bc[i] * lst[d]
						ri += bc[i] * rst[dn.RhsBatch[i]]
					}
					for i, d := range lfree {
						li += mc[i] * lst[d]
					}
					for i, d := range rfree {
						ri += nc[i] * rst[d]
					}
					for i, d := range dn.LhsContracting {
						li += kc[i] * lst[d]
						ri += kc[i] * rst[dn.RhsContracting[i]]
					}
					acc = mulAdd(acc, a[li], b[ri])
				}
				out = append(out, acc)
			}
		}
	}
	return out
}

func f32MulAdd(acc, x, y float32) float32 { return acc + float32(x*y) }

func f32FusedMulAdd(acc, x, y float32) float32 { return fusedMulAdd32(x, y, acc) }

func randomValues(rng *rand.Rand, n int, small bool) []float64 {
	v := make([]float64, n)
	for i := range v {
		if small {
			v[i] = float64(rng.IntN(7) - 3)
		} else {
			v[i] = float64(float32(rng.NormFloat64()))
		}
	}
	return v
}

func toFloat32s(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// Layouts and dimension numbers of every kind, float32, against the
// sequential reference bit for bit (the kernels promise the same sum order):
// fused multiply-adds where the matmul runs, rounded products on the
// matrix-vector paths.
func TestDotGeneralLayoutsFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		name   string
		ls, rs []int
		dn     trace.DotDimensionNumbers
	}{
		{"matmul", []int{37, 53}, []int{53, 29}, dotDims([]int{1}, []int{0}, nil, nil)},
		{"small", []int{2, 3}, []int{3, 2}, dotDims([]int{1}, []int{0}, nil, nil)},
		{"lhs transposed", []int{53, 37}, []int{53, 29}, dotDims([]int{0}, []int{0}, nil, nil)},
		{"rhs transposed", []int{37, 53}, []int{29, 53}, dotDims([]int{1}, []int{1}, nil, nil)},
		{"both transposed", []int{53, 37}, []int{29, 53}, dotDims([]int{0}, []int{1}, nil, nil)},
		{"matrix-vector", []int{70, 300}, []int{300}, dotDims([]int{1}, []int{0}, nil, nil)},
		{"matrix-vector, k a multiple of 16", []int{33, 64}, []int{64}, dotDims([]int{1}, []int{0}, nil, nil)},
		{"matrix-vector, k under 16", []int{20, 15}, []int{15}, dotDims([]int{1}, []int{0}, nil, nil)},
		{"matrix-vector, rows spaced apart", []int{40, 2, 50}, []int{2, 50}, dotDims([]int{2}, []int{1}, []int{1}, []int{0})},
		{"transposed matrix-vector", []int{300, 70}, []int{300}, dotDims([]int{0}, []int{0}, nil, nil)},
		{"vector-matrix", []int{300}, []int{300, 70}, dotDims([]int{0}, []int{0}, nil, nil)},
		{"vector-vector", []int{1000}, []int{1000}, dotDims([]int{0}, []int{0}, nil, nil)},
		{"outer product", []int{9}, []int{11}, dotDims(nil, nil, nil, nil)},
		{"batched outer products", []int{5, 9}, []int{5, 70}, dotDims(nil, nil, []int{0}, []int{0})},
		{"batched outer products, rhs batch last", []int{9, 5}, []int{70, 5}, dotDims(nil, nil, []int{1}, []int{1})},
		{"contraction of one", []int{4, 9, 1}, []int{4, 1, 70}, dotDims([]int{2}, []int{1}, []int{0}, []int{0})},
		{"batched", []int{3, 17, 40}, []int{3, 40, 19}, dotDims([]int{2}, []int{1}, []int{0}, []int{0})},
		{"batch in the middle", []int{17, 3, 40}, []int{40, 19, 3}, dotDims([]int{2}, []int{0}, []int{1}, []int{2})},
		{"batched matrix-vector", []int{4, 30, 20}, []int{4, 20}, dotDims([]int{2}, []int{1}, []int{0}, []int{0})},
		{"two contracting dims", []int{2, 6, 5, 7}, []int{7, 6, 3}, dotDims([]int{1, 3}, []int{1, 0}, nil, nil)},
		{"two batch dims", []int{2, 3, 5, 4}, []int{3, 2, 4, 6}, dotDims([]int{3}, []int{2}, []int{0, 1}, []int{1, 0})},
		{"several kc blocks", []int{40, 700}, []int{700, 45}, dotDims([]int{1}, []int{0}, nil, nil)},
		{"many tiles", []int{150, 300}, []int{300, 600}, dotDims([]int{1}, []int{0}, nil, nil)},
	}
	for _, tc := range cases {
		sz := func(s []int) int {
			n := 1
			for _, d := range s {
				n *= d
			}
			return n
		}
		av, bv := randomValues(rng, sz(tc.ls), false), randomValues(rng, sz(tc.rs), false)
		lhs, rhs := bufferOf(t, trace.Float32, tc.ls, anys(av)...), bufferOf(t, trace.Float32, tc.rs, anys(bv)...)
		got := dotApply(t, lhs, rhs, tc.dn, trace.InvalidDType)
		mulAdd := f32FusedMulAdd
		if g := newDotGeometry(tc.ls, tc.rs, tc.dn); g.m == 1 || g.n == 1 {
			mulAdd = f32MulAdd
		}
		want := refDot(tc.ls, tc.rs, tc.dn, toFloat32s(av), toFloat32s(bv), mulAdd)
		if got.Len() != len(want) {
			t.Fatalf("%s: %d elements, want %d", tc.name, got.Len(), len(want))
		}
		g := view[float32](got)
		for i := range want {
			if math.Float32bits(g[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s: element %d = %v, want %v (sequential float32 sum)", tc.name, i, g[i], want[i])
			}
		}
	}
}

// Roles whose dimensions collapse to one stride keep no offset table (a dot
// of two long vectors must not allocate tables as big as its operands);
// others list their offsets.
func TestDotOffsets(t *testing.T) {
	g := newDotGeometry([]int{1 << 24}, []int{1 << 24}, dotDims([]int{0}, []int{0}, nil, nil))
	if g.lk.table != nil || g.rk.table != nil || g.k != 1<<24 || g.lk.stride != 1 {
		t.Errorf("vector dot: lk %+v", g.lk)
	}
	g = newDotGeometry([]int{4, 3, 5}, []int{4, 5, 7}, dotDims([]int{1}, []int{2}, []int{0}, []int{0}))
	if g.lk.table != nil || g.lk.stride != 5 || g.lb.stride != 15 || g.lm.stride != 1 || g.rn.stride != 7 || g.rk.stride != 1 {
		t.Errorf("strided roles: %+v", g)
	}
	if w := g.lk.window(1, 3); w.n != 2 || w.at(0) != 5 || w.at(1) != 10 {
		t.Errorf("strided window: %+v", w)
	}
	g = newDotGeometry([]int{2, 6, 5, 7}, []int{7, 6, 3}, dotDims([]int{1, 3}, []int{1, 0}, nil, nil))
	want := []int{}
	for i := range 6 {
		for j := range 7 {
			want = append(want, i*35+j)
		}
	}
	if !slices.Equal(g.lk.table, want) {
		t.Errorf("lhs contracting (1, 3) of (2, 6, 5, 7): table %v, want %v", g.lk.table, want)
	}
	if w := g.lk.window(10, 12); w.at(0) != want[10] || w.at(1) != want[11] {
		t.Errorf("window: %d %d", w.at(0), w.at(1))
	}
}

// float64 through each path (matmul, matrix-vector, vector-matrix), bit
// for bit against the sequential float64 sum (fused for the matmul).
func TestDotGeneralFloat64Paths(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for _, tc := range []struct{ ls, rs []int }{{[]int{37, 53}, []int{53, 29}}, {[]int{70, 300}, []int{300}}, {[]int{300}, []int{300, 70}}} {
		size := func(s []int) int {
			n := 1
			for _, d := range s {
				n *= d
			}
			return n
		}
		dn := dotDims([]int{len(tc.ls) - 1}, []int{0}, nil, nil)
		av, bv := randomValues(rng, size(tc.ls), false), randomValues(rng, size(tc.rs), false)
		for i := range av {
			av[i] *= 1 + 1.0/3 // products that round
		}
		got := dotApply(t, bufferOf(t, trace.Float64, tc.ls, anys(av)...), bufferOf(t, trace.Float64, tc.rs, anys(bv)...), dn, trace.InvalidDType)
		mulAdd := func(acc, x, y float64) float64 { return acc + float64(x*y) }
		if len(tc.rs) == 2 && len(tc.ls) == 2 {
			mulAdd = func(acc, x, y float64) float64 { return math.FMA(x, y, acc) }
		}
		want := refDot(tc.ls, tc.rs, dn, av, bv, mulAdd)
		checkElements(t, fmt.Sprintf("float64 %v·%v", tc.ls, tc.rs), got, anys(want)...)
	}
}

// Integer, bool, half, float64, complex and mixed dtypes; small integer
// values keep every float result exact, so each dtype's result is the exact
// sum converted once.
func TestDotGeneralDTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	ls, rs := []int{2, 13, 21}, []int{2, 21, 9}
	dn := dotDims([]int{2}, []int{1}, []int{0}, []int{0})
	av, bv := randomValues(rng, 2*13*21, true), randomValues(rng, 2*21*9, true)
	exact := refDot(ls, rs, dn, av, bv, func(acc, x, y float64) float64 { return acc + x*y })
	cases := []struct{ l, r, preferred, want trace.DType }{
		{trace.Float64, trace.Float64, trace.InvalidDType, trace.Float64},
		{trace.Int32, trace.Int32, trace.InvalidDType, trace.Int32},
		{trace.Int8, trace.Int8, trace.InvalidDType, trace.Int8},
		{trace.Int8, trace.Int8, trace.Int32, trace.Int32},
		{trace.Int16, trace.Int64, trace.InvalidDType, trace.Int64},
		{trace.Float16, trace.Float16, trace.InvalidDType, trace.Float16},
		{trace.BFloat16, trace.BFloat16, trace.Float32, trace.Float32},
		{trace.Int32, trace.Int32, trace.Float32, trace.Float32},
		{trace.Int8, trace.Float32, trace.InvalidDType, trace.Float32},
		{trace.Float32, trace.Float64, trace.InvalidDType, trace.Float64},
		{trace.Complex64, trace.Complex64, trace.InvalidDType, trace.Complex64},
		{trace.Float32, trace.Complex128, trace.InvalidDType, trace.Complex128},
	}
	for _, tc := range cases {
		what := fmt.Sprintf("%s·%s preferred %s", tc.l, tc.r, tc.preferred)
		got := dotApply(t, bufferOf(t, tc.l, ls, anys(av)...), bufferOf(t, tc.r, rs, anys(bv)...), dn, tc.preferred)
		if got.DType() != tc.want {
			t.Fatalf("%s: dtype %s, want %s", what, got.DType(), tc.want)
		}
		checkElements(t, what, got, elements(bufferOf(t, tc.want, got.Shape(), anys(exact)...))...)
	}
}

func TestDotGeneralIntegerWrapAndBool(t *testing.T) {
	mm := dotDims([]int{1}, []int{0}, nil, nil)
	a := bufferOf(t, trace.Int32, []int{1, 2}, 1<<30, 1<<30)
	b := bufferOf(t, trace.Int32, []int{2, 1}, 4, 3)
	// 2^32 + 3·2^30 wraps to 3·2^30 = -2^30 as int32.
	checkElements(t, "int32 wraps", dotApply(t, a, b, mm, trace.InvalidDType), -(1 << 30))
	u := bufferOf(t, trace.Uint8, []int{2, 2}, 200, 100, 3, 255)
	v := bufferOf(t, trace.Uint8, []int{2, 2}, 2, 1, 1, 2)
	checkElements(t, "uint8 wraps", dotApply(t, u, v, mm, trace.InvalidDType),
		(400+100)%256, (200+200)%256, (6+255)%256, (3+510)%256)

	p := bufferOf(t, trace.Bool, []int{2, 3}, true, false, true, false, false, true)
	q := bufferOf(t, trace.Bool, []int{3, 2}, false, true, true, false, false, false)
	checkElements(t, "bool", dotApply(t, p, q, mm, trace.InvalidDType), false, true, false, false)
	// Many true products: a count that would wrap a narrow counter is still true.
	n := 512
	ones := make([]any, n)
	for i := range ones {
		ones[i] = true
	}
	x, y := bufferOf(t, trace.Bool, []int{1, n}, ones...), bufferOf(t, trace.Bool, []int{n, 1}, ones...)
	checkElements(t, "bool count 512", dotApply(t, x, y, mm, trace.InvalidDType), true)
	i := bufferOf(t, trace.Int32, []int{3, 2}, 5, -1, 2, 7, 0, 3)
	checkElements(t, "bool·int32", dotApply(t, p, i, mm, trace.InvalidDType), 5, 2, 0, 3)
}

func TestDotGeneralEmptyAndSigns(t *testing.T) {
	mm := dotDims([]int{1}, []int{0}, nil, nil)
	a, b := bufferOf(t, trace.Float32, []int{2, 0}), bufferOf(t, trace.Float32, []int{0, 3})
	checkElements(t, "k = 0", dotApply(t, a, b, mm, trace.InvalidDType), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	c := bufferOf(t, trace.Float32, []int{0, 4})
	if got := dotApply(t, c, bufferOf(t, trace.Float32, []int{4, 3}, anys(make([]float64, 12))...), mm, trace.InvalidDType); got.Len() != 0 {
		t.Errorf("m = 0: %d elements", got.Len())
	}
	h := bufferOf(t, trace.Float16, []int{3, 0})
	checkElements(t, "float16 k = 0", dotApply(t, h, bufferOf(t, trace.Float16, []int{0, 1}), mm, trace.InvalidDType), 0.0, 0.0, 0.0)
	// Sums start from +0.0: a single -0.0 product gives +0.0.
	z := bufferOf(t, trace.Float32, []int{1, 1}, -0.0)
	o := bufferOf(t, trace.Float32, []int{1, 5}, 1.0, 1.0, 1.0, 1.0, 1.0)
	checkElements(t, "-0.0 product", dotApply(t, z, o, mm, trace.InvalidDType), 0.0, 0.0, 0.0, 0.0, 0.0)
	nan := math.NaN()
	w := bufferOf(t, trace.Float32, []int{2, 2}, nan, 1.0, 1.0, 1.0)
	checkElements(t, "NaN", dotApply(t, w, bufferOf(t, trace.Float32, []int{2, 2}, 1.0, 0.0, 0.0, 1.0), mm, trace.InvalidDType), nan, nan, 1.0, 1.0)
}

// Every assembly micro-kernel this machine runs, and the portable one,
// computes the sequential fused sum bit for bit, on shapes that exercise
// the edges: fewer rows than a tile, widths on either side of each
// kernel's, a contraction of one and one longer than several kc blocks,
// and a transposed lhs (read through its row-major copy rather than in
// place).
func TestGemmKernelsAgree(t *testing.T) {
	if len(gemmFloat32Available)+len(gemmFloat64Available) == 0 {
		t.Skip("no assembly kernels on this machine")
	}
	for _, kern := range gemmFloat32Available {
		checkKernelAgrees(t, kern, func(v []float64) []float32 { return toFloat32s(v) })
	}
	for _, kern := range gemmFloat64Available {
		checkKernelAgrees(t, kern, func(v []float64) []float64 { return v })
	}
}

func checkKernelAgrees[T float32 | float64](t *testing.T, kern gemmKernel[T], conv func([]float64) []T) {
	rng := rand.New(rand.NewPCG(10, 11))
	shapes := [][3]int{
		{1, 1, 1}, {5, 7, 3}, {13, 600, 41}, {97, 33, 100}, {200, 257, 130},
		{1, 300, 70}, {70, 300, 1}, {6, 1, 64}, {29, 1, 33}, {7, 1300, 65},
		{12, 40, 63}, {13, 5, 129}, {64, 64, 64}, {6, 256, 16}, {11, 513, 8},
	}
	for _, sz := range shapes {
		m, k, n := sz[0], sz[1], sz[2]
		a, b := conv(randomValues(rng, m*k, false)), conv(randomValues(rng, k*n, false))
		// Products that are not exact in T, so rounding order shows.
		for i := range a {
			a[i] *= T(1.0 + 1.0/3)
		}
		dn := dotDims([]int{1}, []int{0}, nil, nil)
		g := newDotGeometry([]int{m, k}, []int{k, n}, dn)
		var fma any = func(acc, x, y float32) float32 { return fusedMulAdd32(x, y, acc) }
		var portable any = gemmPortableFloat32
		if _, ok := any(a).([]float64); ok {
			fma = func(acc, x, y float64) float64 { return math.FMA(x, y, acc) }
			portable = gemmPortableFloat64
		}
		want := refDot([]int{m, k}, []int{k, n}, dn, a, b, fma.(func(acc, x, y T) T))
		got, gotPortable := make([]T, m*n), make([]T, m*n)
		gemmWith(nil, kern, g, a, b, got)
		gemmWith(nil, portable.(gemmKernel[T]), g, a, b, gotPortable)
		// The same product with the lhs stored transposed (k × m).
		aT, gotT := make([]T, k*m), make([]T, m*n)
		for i := range m {
			for p := range k {
				aT[p*m+i] = a[i*k+p]
			}
		}
		gT := newDotGeometry([]int{k, m}, []int{k, n}, dotDims([]int{0}, []int{0}, nil, nil))
		gemmWith(nil, kern, gT, aT, b, gotT)
		for i := range want {
			if got[i] != want[i] || gotT[i] != want[i] || gotPortable[i] != want[i] {
				t.Fatalf("%T %v: element %d = %v (lhs transposed: %v) from the %d-column kernel, %v from the portable one, want %v",
					want[0], sz, i, got[i], gotT[i], kern.nr, gotPortable[i], want[i])
			}
		}
	}
}

// Each matrix-vector kernel this machine runs (16 rows with AVX-512, 8
// with AVX) and the Go loop give the sequential sum of rounded products
// bit for bit: rows and k on either side of the kernels' blocks, and rows
// spaced further apart than k.
func TestMatVecKernelsAgree(t *testing.T) {
	defer func(old int) { gemvRows = old }(gemvRows)
	widths := []int{0}
	if gemvRows >= 8 {
		widths = append(widths, 8)
	}
	if gemvRows == 16 {
		widths = append(widths, 16)
	}
	rng := rand.New(rand.NewPCG(16, 17))
	cases := []struct {
		ls, rs []int
		dn     trace.DotDimensionNumbers
	}{
		{[]int{70, 300}, []int{300}, dotDims([]int{1}, []int{0}, nil, nil)},
		{[]int{33, 64}, []int{64}, dotDims([]int{1}, []int{0}, nil, nil)},
		{[]int{17, 8}, []int{8}, dotDims([]int{1}, []int{0}, nil, nil)},
		{[]int{9, 1001}, []int{1001}, dotDims([]int{1}, []int{0}, nil, nil)},
		{[]int{40, 2, 50}, []int{2, 50}, dotDims([]int{2}, []int{1}, []int{1}, []int{0})},
	}
	for _, rows := range widths {
		gemvRows = rows
		for _, tc := range cases {
			size := func(s []int) int {
				n := 1
				for _, d := range s {
					n *= d
				}
				return n
			}
			av, bv := randomValues(rng, size(tc.ls), false), randomValues(rng, size(tc.rs), false)
			got := dotApply(t, bufferOf(t, trace.Float32, tc.ls, anys(av)...), bufferOf(t, trace.Float32, tc.rs, anys(bv)...), tc.dn, trace.InvalidDType)
			want := refDot(tc.ls, tc.rs, tc.dn, toFloat32s(av), toFloat32s(bv), f32MulAdd)
			for i, g := range view[float32](got) {
				if math.Float32bits(g) != math.Float32bits(want[i]) {
					t.Fatalf("%d-row kernel, %v·%v: element %d = %v, want %v", rows, tc.ls, tc.rs, i, g, want[i])
				}
			}
		}
	}
}

// fusedMulAdd32 rounds a*b+c once: checked against exact big.Float
// arithmetic on random operands and on sums built to land just beside a
// float32 rounding midpoint, where rounding through float64 would round
// twice.
func TestFusedMulAdd32(t *testing.T) {
	exact := func(a, b, c float32) float32 {
		p := new(big.Float).SetPrec(0).SetFloat64(float64(a))
		p.Mul(p, new(big.Float).SetFloat64(float64(b)))
		s := new(big.Float).SetPrec(2000).Add(p, new(big.Float).SetFloat64(float64(c)))
		f, _ := s.Float32()
		return f
	}
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(a, b, c float32) {
		if got, want := fusedMulAdd32(a, b, c), exact(a, b, c); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
	for range 200000 {
		a, b := float32(rng.NormFloat64()), float32(rng.NormFloat64())
		c := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(80)-40)))
		check(a, b, c)
	}
	// a*b = 2^-24·(1 - 2^-30), just under half an ulp of c = 1 + 2^-23: the
	// exact sum rounds down to c, but rounded to float64 first it becomes
	// the midpoint c + 2^-24, which then rounds to even, up.
	a := float32(1 + 1.0/(1<<15))
	b := float32(math.Ldexp(1-1.0/(1<<15), -24))
	for _, c := range []float32{1 + 1.0/(1<<23), 1 + 3.0/(1<<23), 1, 3.5} {
		check(a, b, c)
		check(a, -b, -c)
		check(-a, b, -c)
	}
	if naive := float32(math.FMA(float64(a), float64(b), 1+1.0/(1<<23))); naive == fusedMulAdd32(a, b, 1+1.0/(1<<23)) {
		t.Fatalf("the midpoint case does not show double rounding (%g)", naive)
	}
	check(0, 5, float32(math.Copysign(0, -1)))
	check(float32(math.Inf(1)), 1, 3)
	check(3.4e38, 10, 0)
}

// A contraction over no elements writes zeros: dot_general is listed as
// writing every element, so a reused destination holding stale values is
// not cleared for it.
func TestDotEmptyContractionOverwritesTheDestination(t *testing.T) {
	lhs := bufferOf(t, trace.Float32, []int{3, 0})
	rhs := bufferOf(t, trace.Float32, []int{0, 4})
	dst := newBuffer(testDevice().(*Device), trace.AVal{Shape: trace.Shape{3, 4}, DType: trace.Float32})
	for i := range view[float32](dst) {
		view[float32](dst)[i] = 7
	}
	p := trace.Params{"dimension_numbers": dotDims([]int{1}, []int{0}, nil, nil), "precision": nil, "preferred_element_type": nil}
	if err := dotKernel(&trace.Eqn{Params: p}, []*Buffer{lhs, rhs}, []*Buffer{dst}, nil); err != nil {
		t.Fatal(err)
	}
	for i, v := range view[float32](dst) {
		if math.Float32bits(v) != 0 {
			t.Fatalf("element %d = %v, want +0", i, v)
		}
	}
}
