package cpu

import (
	"cmp"

	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func sortApply(t testing.TB, dimension, numKeys int, in ...*Buffer) []*Buffer {
	t.Helper()
	return apply(t, "sort", trace.Params{"dimension": dimension, "is_stable": true, "num_keys": numKeys}, in...)
}

func TestSortFloatOrder(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	negNaN := math.Copysign(math.NaN(), -1)
	for _, dt := range []trace.DType{trace.Float32, trace.Float64, trace.Float16, trace.BFloat16} {
		x := bufferOf(t, dt, []int{9}, 3.0, nan, -0.0, -inf, 0.0, negNaN, inf, -2.5, -0.0)
		idx := bufferOf(t, trace.Int32, []int{9}, 0, 1, 2, 3, 4, 5, 6, 7, 8)
		got := sortApply(t, 0, 1, x, idx)
		// -0.0 and 0.0 are equal keys and keep their order and their bits;
		// NaNs of either sign go last, in input order.
		checkElements(t, dt.String()+" values", got[0], -inf, -2.5, -0.0, 0.0, -0.0, 3.0, inf, nan, nan)
		checkElements(t, dt.String()+" carried", got[1], 3, 7, 2, 4, 8, 0, 6, 1, 5)
	}
}

func TestSortIntegersAndBools(t *testing.T) {
	i8 := bufferOf(t, trace.Int8, []int{6}, 5, -128, 127, -1, 0, -1)
	checkElements(t, "int8", sortApply(t, 0, 1, i8)[0], -128, -1, -1, 0, 5, 127)
	u32 := bufferOf(t, trace.Uint32, []int{4}, int64(4000000000), 7, 0, int64(2147483648))
	checkElements(t, "uint32", sortApply(t, 0, 1, u32)[0], 0, 7, int64(2147483648), int64(4000000000))
	i64 := bufferOf(t, trace.Int64, []int{4}, int64(math.MaxInt64), int64(math.MinInt64), -5, 5)
	checkElements(t, "int64", sortApply(t, 0, 1, i64)[0], int64(math.MinInt64), -5, 5, int64(math.MaxInt64))
	b := bufferOf(t, trace.Bool, []int{5}, true, false, true, false, false)
	pos := bufferOf(t, trace.Uint16, []int{5}, 0, 1, 2, 3, 4)
	got := sortApply(t, 0, 1, b, pos)
	checkElements(t, "bool", got[0], false, false, false, true, true)
	checkElements(t, "bool stable", got[1], 1, 3, 4, 0, 2)
}

// Two keys sort lexicographically, equal pairs keep their order, and a
// third operand is carried; along both axes of a 2-D array.
func TestSortMultipleKeysStable(t *testing.T) {
	k1 := bufferOf(t, trace.Int32, []int{2, 6}, 2, 1, 2, 1, 2, 1, 0, 0, 0, 0, 0, 0)
	k2 := bufferOf(t, trace.Float32, []int{2, 6}, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 3.0, 3.0, 2.0, 3.0, 2.0, 1.0)
	v := bufferOf(t, trace.Int32, []int{2, 6}, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5)
	got := sortApply(t, 1, 2, k1, k2, v)
	checkElements(t, "key 1", got[0], 1, 1, 1, 2, 2, 2, 0, 0, 0, 0, 0, 0)
	checkElements(t, "key 2", got[1], 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 3.0)
	checkElements(t, "carried", got[2], 5, 1, 3, 2, 0, 4, 5, 2, 4, 0, 1, 3)
	// Only the first key: the second is carried, in stable order.
	got = sortApply(t, 1, 1, k1, k2, v)
	checkElements(t, "one key, carried", got[2], 1, 3, 5, 0, 2, 4, 0, 1, 2, 3, 4, 5)
	// Along axis 0 of [3, 2]: each column sorts on its own.
	c := bufferOf(t, trace.Float64, []int{3, 2}, 3.0, -1.0, 1.0, -3.0, 2.0, -2.0)
	checkElements(t, "columns", sortApply(t, 0, 1, c)[0], 1.0, -3.0, 2.0, -2.0, 3.0, -1.0)
}

// Random lines long enough for the radix path, many of them across the
// pool and along a middle axis, against slices.SortStableFunc on the same
// order, with duplicates so stability shows.
func TestSortRadixAgainstStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	for _, shape := range [][]int{{100000}, {7, 300, 5}, {40, 50}} {
		dim := len(shape) / 2
		s := spanAround(shape, dim)
		n := s.outer * s.n * s.inner
		keys := make([]any, n)
		vals := make([]any, n)
		for i := range keys {
			keys[i] = float64(rng.IntN(200)-100) / 4
			if rng.IntN(50) == 0 {
				keys[i] = math.NaN()
			}
			vals[i] = int64(i)
		}
		for _, dt := range []trace.DType{trace.Float32, trace.Int16, trace.Int64, trace.Float16} {
			x := bufferOf(t, dt, shape, keys...)
			got := sortApply(t, dim, 1, x, bufferOf(t, trace.Int32, shape, vals...))
			for l := 0; l < s.outer*s.inner; l++ {
				base := (l/s.inner)*s.n*s.inner + l%s.inner
				line := make([]int, s.n)
				for r := range line {
					line[r] = base + r*s.inner
				}
				key := func(i int) float64 { return asFloat64(x, i) }
				want := slices.Clone(line)
				slices.SortStableFunc(want, func(a, b int) int {
					ka, kb := key(a), key(b)
					switch {
					case math.IsNaN(ka) || math.IsNaN(kb):
						return cmp.Compare(boolInt(math.IsNaN(ka)), boolInt(math.IsNaN(kb)))
					}
					return cmp.Compare(ka, kb)
				})
				for r, i := range line {
					if g := got[1].Element(i).(int64); g != int64(want[r]) {
						t.Fatalf("%s %v line %d position %d: element %d, want %d", dt, shape, l, r, g, want[r])
					}
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSortEmptyAndShort(t *testing.T) {
	e := bufferOf(t, trace.Float32, []int{0, 3})
	if got := sortApply(t, 1, 1, e)[0]; got.Len() != 0 {
		t.Errorf("empty: %d elements", got.Len())
	}
	one := bufferOf(t, trace.Int32, []int{3, 1}, 3, 1, 2)
	checkElements(t, "length-1 lines", sortApply(t, 1, 1, one)[0], 3, 1, 2)
}

// BenchmarkSort1MFloat32 sorts one line of 2^20 random float32.
func BenchmarkSort1MFloat32(b *testing.B) {
	x := randomFloat32Buffer([]int{1 << 20}, 9, -1, 1)
	b.SetBytes(4 << 20)
	for b.Loop() {
		sortApply(b, 0, 1, x)
	}
	b.ReportMetric(float64(b.N<<20)/b.Elapsed().Seconds()/1e6, "Melem/s")
}

// Long lines of a lone 32-bit operand: keys sorted alone when they are a
// bijection of the values (integers; floats without NaN or -0.0), the
// general path otherwise. Both must give the comparator's order, with
// -0.0 and NaNs keeping their bits; skewed values (one top-bits bucket)
// and a spread of magnitudes are checked too.
func TestSortLongLoneLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 31))
	n := 3*sortParallelLine + 11
	gens := map[string]func(i int) float64{
		"uniform":   func(int) float64 { return rng.Float64()*2 - 1 },
		"magnitude": func(int) float64 { return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(60)-30)) },
		"skewed":    func(int) float64 { return 1 + float64(rng.IntN(1000))/(1<<20) },
		"with -0":   func(i int) float64 { return []float64{math.Copysign(0, -1), 0, 1, -1}[rng.IntN(4)] + float64(i%3) },
		"with NaN": func(i int) float64 {
			if i%97 == 0 {
				return math.NaN()
			}
			return rng.NormFloat64()
		},
	}
	for name, gen := range gens {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(gen(i))
		}
		x := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
		copy(view[float32](x), v)
		got := view[float32](sortApply(t, 0, 1, x)[0])
		want := slices.Clone(v)
		slices.SortStableFunc(want, func(a, b float32) int {
			if a != a || b != b {
				return cmp.Compare(boolInt(a != a), boolInt(b != b))
			}
			return cmp.Compare(a, b)
		})
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("float32 %s: position %d = %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	for _, dt := range []trace.DType{trace.Int32, trace.Uint32} {
		x := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: dt})
		raw := view[uint32](x)
		for i := range raw {
			raw[i] = rng.Uint32()
		}
		got := view[uint32](sortApply(t, 0, 1, x)[0])
		want := slices.Clone(raw)
		if dt == trace.Int32 {
			slices.SortFunc(want, func(a, b uint32) int { return cmp.Compare(int32(a), int32(b)) })
		} else {
			slices.Sort(want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: long line not sorted", dt)
		}
	}
}
