package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The scatter family at the primitive level, with the dimension numbers the
// .at[] updates produce (jax/_src/ops/scatter.py lowers them through
// _index_to_gather, as indexing does).

func scatterParams(dn trace.ScatterDimensionNumbers, mode trace.GatherScatterMode) trace.Params {
	return trace.Params{"dimension_numbers": dn, "indices_are_sorted": false, "unique_indices": false, "mode": mode}
}

// atScalars is x.at[idx] for a 1-D x: scalar windows at index vectors of
// length 1.
var atScalars = trace.ScatterDimensionNumbers{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}

func TestScatterDuplicateIndicesApplyEveryUpdate(t *testing.T) {
	x := bufferOf(t, trace.Int32, []int{5}, 1, 2, 3, 4, 5)
	idx := bufferOf(t, trace.Int32, []int{3, 1}, 1, 3, 1)
	u := bufferOf(t, trace.Int32, []int{3}, 0, 20, -7)
	tests := []struct {
		prim string
		want []any
	}{
		{"scatter", intValues(1, -7, 3, 20, 5)}, // the last update in batch order wins
		{"scatter-add", intValues(1, -5, 3, 24, 5)},
		{"scatter-mul", intValues(1, 0, 3, 80, 5)},
		{"scatter-min", intValues(1, -7, 3, 4, 5)},
		{"scatter-max", intValues(1, 2, 3, 20, 5)},
	}
	for _, tt := range tests {
		y := applyOneResult(t, tt.prim, scatterParams(atScalars, trace.GatherFillOrDrop), x, idx, u)
		checkElements(t, tt.prim, y, tt.want...)
	}
	checkElements(t, "operand untouched", x, 1, 2, 3, 4, 5)
}

func TestScatterAtPatterns(t *testing.T) {
	fill := trace.GatherFillOrDrop

	// x.at[idx].add(rows) for a 2-D x.
	x := bufferOf(t, trace.Float32, []int{3, 2}, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	rows := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}
	y := applyOneResult(t, "scatter-add", scatterParams(rows, fill), x,
		bufferOf(t, trace.Int32, []int{3, 1}, 2, 0, 2), bufferOf(t, trace.Float32, []int{3, 2}, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
	checkElements(t, "x.at[idx].add(rows)", y, floatValues(3, 4, 0, 0, 6, 8)...)

	// x.at[:, idx].set(v): the updates' window is dimension 0, their batch
	// dimension 1.
	x = bufferOf(t, trace.Int8, []int{2, 3}, seqValues(6)...)
	cols := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{0}, InsertedWindowDims: []int{1}, ScatterDimsToOperandDims: []int{1}}
	y = applyOneResult(t, "scatter", scatterParams(cols, fill), x,
		bufferOf(t, trace.Int32, []int{2, 1}, 2, 0), bufferOf(t, trace.Int8, []int{2, 2}, -1, -2, -3, -4))
	checkElements(t, "x.at[:, idx].set(v)", y, -2, 1, -1, -4, 4, -3)

	// x.at[i, j].max(v) with two index arrays.
	x = bufferOf(t, trace.Int64, []int{2, 2}, 5, 5, 5, 5)
	pairs := trace.ScatterDimensionNumbers{InsertedWindowDims: []int{0, 1}, ScatterDimsToOperandDims: []int{0, 1}}
	y = applyOneResult(t, "scatter-max", scatterParams(pairs, fill), x,
		bufferOf(t, trace.Int32, []int{3, 2}, 0, 1, 1, 0, 0, 1), bufferOf(t, trace.Int64, []int{3}, 9, 3, 7))
	checkElements(t, "x.at[i, j].max(v)", y, 5, 9, 5, 5)

	// x.at[i].set(row) with a scalar index: no batch dimensions.
	x = bufferOf(t, trace.Uint16, []int{2, 2}, 1, 2, 3, 4)
	row := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{0}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}
	y = applyOneResult(t, "scatter", scatterParams(row, fill), x, bufferOf(t, trace.Int32, []int{1}, 1), bufferOf(t, trace.Uint16, []int{2}, 8, 9))
	checkElements(t, "x.at[i].set(row)", y, 1, 2, 8, 9)

	// put_along_axis-like updates with batching dimensions.
	x = bufferOf(t, trace.Int32, []int{2, 3}, 0, 0, 0, 0, 0, 0)
	along := trace.ScatterDimensionNumbers{InsertedWindowDims: []int{1}, ScatterDimsToOperandDims: []int{1},
		OperandBatchingDims: []int{0}, ScatterIndicesBatchingDims: []int{0}}
	y = applyOneResult(t, "scatter-add", scatterParams(along, fill), x,
		bufferOf(t, trace.Int32, []int{2, 2, 1}, 0, 2, 1, 1), bufferOf(t, trace.Int32, []int{2, 2}, 1, 2, 3, 4))
	checkElements(t, "batching dims", y, 1, 0, 2, 0, 7, 0)

	// No updates leave the operand.
	x = bufferOf(t, trace.Bool, []int{2}, true, false)
	y = applyOneResult(t, "scatter", scatterParams(atScalars, fill), x, bufferOf(t, trace.Int32, []int{0, 1}), bufferOf(t, trace.Bool, []int{0}))
	checkElements(t, "no updates", y, true, false)
}

func TestScatterModes(t *testing.T) {
	x := bufferOf(t, trace.Int32, []int{5}, 0, 0, 0, 0, 0)
	idx := bufferOf(t, trace.Int32, []int{4, 1}, -1, 5, 2, math.MinInt32)
	u := bufferOf(t, trace.Int32, []int{4}, 1, 2, 3, 4)
	for _, mode := range []trace.GatherScatterMode{trace.GatherFillOrDrop, trace.GatherPromiseInBounds} {
		y := applyOneResult(t, "scatter-add", scatterParams(atScalars, mode), x, idx, u)
		checkElements(t, fmt.Sprint(mode, " drops"), y, 0, 0, 3, 0, 0)
	}
	y := applyOneResult(t, "scatter-add", scatterParams(atScalars, trace.GatherClip), x, idx, u)
	checkElements(t, "clip clamps", y, 5, 0, 3, 0, 2)

	// A window that does not fit is dropped whole, or clamped whole.
	windows := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{1}, ScatterDimsToOperandDims: []int{0}}
	idx = bufferOf(t, trace.Int32, []int{2, 1}, 0, 3)
	u = bufferOf(t, trace.Int32, []int{2, 3}, 1, 2, 3, 4, 5, 6)
	y = applyOneResult(t, "scatter", scatterParams(windows, trace.GatherFillOrDrop), x, idx, u)
	checkElements(t, "window dropped", y, 1, 2, 3, 0, 0)
	y = applyOneResult(t, "scatter", scatterParams(windows, trace.GatherClip), x, idx, u)
	checkElements(t, "window clamped to start 2", y, 1, 2, 4, 5, 6)
}

// Overlapping windows apply in batch order even when the updates' window
// dimension comes first, so the batch position is not the outer loop of
// the updates' own layout.
func TestScatterAppliesWindowsInBatchOrder(t *testing.T) {
	x := bufferOf(t, trace.Float64, []int{5}, 0.0, 0.0, 0.0, 0.0, 0.0)
	idx := bufferOf(t, trace.Int32, []int{2, 1}, 0, 1)
	batchFirst := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{1}, ScatterDimsToOperandDims: []int{0}}
	y := applyOneResult(t, "scatter", scatterParams(batchFirst, trace.GatherFillOrDrop), x, idx,
		bufferOf(t, trace.Float64, []int{2, 3}, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
	checkElements(t, "window dims last", y, floatValues(1, 4, 5, 6, 0)...)
	windowFirst := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}
	y = applyOneResult(t, "scatter", scatterParams(windowFirst, trace.GatherFillOrDrop), x, idx,
		bufferOf(t, trace.Float64, []int{3, 2}, 1.0, 4.0, 2.0, 5.0, 3.0, 6.0))
	checkElements(t, "window dims first", y, floatValues(1, 4, 5, 6, 0)...)
}

func TestScatterCombinersByDType(t *testing.T) {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	scatter := func(prim string, dt trace.DType, x, u []any) *Buffer {
		idx := bufferOf(t, trace.Int32, []int{len(u), 1}, seqValues(len(u))...)
		return applyOneResult(t, prim, scatterParams(atScalars, trace.GatherFillOrDrop),
			bufferOf(t, dt, []int{len(x)}, x...), idx, bufferOf(t, dt, []int{len(u)}, u...))
	}
	// Float16 and bfloat16 round after every update: 2048 + 1 is a tie that
	// rounds back to 2048 in float16 each time (summing the three ones
	// first would give 2052).
	three := func(v any) *Buffer {
		idx := bufferOf(t, trace.Int32, []int{3, 1}, 0, 0, 0)
		return applyOneResult(t, "scatter-add", scatterParams(atScalars, trace.GatherClip),
			bufferOf(t, trace.Float16, []int{1}, v), idx, bufferOf(t, trace.Float16, []int{3}, 1.0, 1.0, 1.0))
	}
	checkElements(t, "float16 rounds per update", three(2048.0), 2048.0)
	checkElements(t, "float16 below the tie", three(1024.0), 1027.0)
	idx := bufferOf(t, trace.Int32, []int{3, 1}, 0, 0, 0)
	y := applyOneResult(t, "scatter-add", scatterParams(atScalars, trace.GatherClip),
		bufferOf(t, trace.BFloat16, []int{1}, 256.0), idx, bufferOf(t, trace.BFloat16, []int{3}, 1.0, 1.0, 1.0))
	checkElements(t, "bfloat16 rounds per update", y, 256.0)

	checkElements(t, "float32 min propagates NaN, -0 < +0",
		scatter("scatter-min", trace.Float32, floatValues(1, nan, 0, negZero), floatValues(nan, 5, negZero, 0)), nan, nan, negZero, negZero)
	checkElements(t, "float64 max propagates NaN, +0 > -0",
		scatter("scatter-max", trace.Float64, floatValues(1, nan, 0, negZero), floatValues(nan, 5, negZero, 0)), nan, nan, 0.0, 0.0)
	checkElements(t, "float16 min", scatter("scatter-min", trace.Float16, floatValues(1, 2), floatValues(nan, -3)), nan, -3.0)
	checkElements(t, "bfloat16 max", scatter("scatter-max", trace.BFloat16, floatValues(1, 2), floatValues(0.5, nan)), 1.0, nan)
	checkElements(t, "float16 mul", scatter("scatter-mul", trace.Float16, floatValues(3, 1000), floatValues(0.5, 100)), 1.5, math.Inf(1))

	checkElements(t, "bool min is and", scatter("scatter-min", trace.Bool, boolValues(true, false, true, false), boolValues(false, true, true, false)),
		false, false, true, false)
	checkElements(t, "bool max is or", scatter("scatter-max", trace.Bool, boolValues(true, false, true, false), boolValues(false, true, true, false)),
		true, true, true, false)
	checkElements(t, "bool set", scatter("scatter", trace.Bool, boolValues(true, false), boolValues(false, true)), false, true)

	checkElements(t, "int8 add wraps", scatter("scatter-add", trace.Int8, intValues(127, -128), intValues(1, -1)), -128, 127)
	checkElements(t, "uint8 mul wraps", scatter("scatter-mul", trace.Uint8, intValues(16, 3), intValues(16, 5)), 0, 15)
	checkElements(t, "uint32 min", scatter("scatter-min", trace.Uint32, intValues(7, 0), []any{int64(math.MaxUint32), 1}), 7, 0)

	c := func(re, im float64) any { return complex(re, im) }
	cx := func(dt trace.DType, vals ...any) *Buffer {
		b := newBuffer(testDevice().(*Device), trace.AVal{Shape: trace.Shape{len(vals)}, DType: dt})
		for i, v := range vals {
			if err := setElement(b, i, v); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	cidx := bufferOf(t, trace.Int32, []int{3, 1}, 0, 1, 2)
	x, u := cx(trace.Complex64, c(1, 2), c(1, 2), c(nan, 0)), cx(trace.Complex64, c(1, 1), c(0, 5), c(1, 0))
	y = applyOneResult(t, "scatter-min", scatterParams(atScalars, trace.GatherClip), x, cidx, u)
	checkElements(t, "complex min is lexicographic; NaN picks the update", y, c(1, 1), c(0, 5), c(1, 0))
	y = applyOneResult(t, "scatter-max", scatterParams(atScalars, trace.GatherClip), x, cidx, u)
	checkElements(t, "complex max", y, c(1, 2), c(1, 2), c(1, 0))
	x, u = cx(trace.Complex128, c(1, 2), c(3, 0), c(0, 0)), cx(trace.Complex128, c(0, 1), c(2, 0), c(-1, 0))
	y = applyOneResult(t, "scatter-mul", scatterParams(atScalars, trace.GatherClip), x, cidx, u)
	checkElements(t, "complex mul", y, c(-2, 1), c(6, 0), c(0, 0))
}

// The trace rule admits no bool scatter-add or scatter-mul, so the
// combiners, which define them as or and and, are tested directly, over a
// block of two rows.
func TestScatterBoolAddAndMulCombiners(t *testing.T) {
	for _, tt := range []struct {
		prim string
		want []any
	}{
		{"scatter-add", boolValues(false, true, true, true)},
		{"scatter-mul", boolValues(false, false, false, true)},
	} {
		dst := bufferOf(t, trace.Bool, []int{4}, false, false, true, true)
		src := bufferOf(t, trace.Bool, []int{4}, false, true, false, true)
		scatterRun(tt.prim, dst, src, runSteps{inner: walkOffsets{1, 1}, outer: walkOffsets{2, 2}})(walkOffsets{}, 2, 2)
		checkElements(t, "bool "+tt.prim, dst, tt.want...)
	}
}

func TestScatterLargeWindowInParallel(t *testing.T) {
	const n = 3 * grainElements // split across the pool
	x := newBuffer(testDevice().(*Device), trace.AVal{Shape: trace.Shape{3, n}, DType: trace.Float32})
	u := newBuffer(testDevice().(*Device), trace.AVal{Shape: trace.Shape{2, n}, DType: trace.Float32})
	uv := view[float32](u)
	for i := range uv {
		uv[i] = float32(i % 1000)
	}
	rows := trace.ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}
	y := applyOneResult(t, "scatter-add", scatterParams(rows, trace.GatherFillOrDrop), x, bufferOf(t, trace.Int32, []int{2, 1}, 1, 1), u)
	yv := view[float32](y)
	for j := range n {
		want := uv[j] + uv[n+j]
		if yv[j] != 0 || yv[n+j] != want || yv[2*n+j] != 0 {
			t.Fatalf("column %d: %v %v %v, want 0 %v 0", j, yv[j], yv[n+j], yv[2*n+j], want)
		}
	}
}

// referenceScatter applies the updates one batch position at a time with
// the slow element accessors: replacing, or adding through float64/int64
// (exact for these values) and rounding once per update.
func referenceScatter(prim string, x, idx, u *Buffer, dn trace.ScatterDimensionNumbers, clip bool) *Buffer {
	y := newBuffer(x.dev, x.AVal())
	copy(y.data, x.data)
	opShape, idxShape, uShape := x.Shape(), idx.Shape(), u.Shape()
	batchShape := idxShape[:len(idxShape)-1]
	k := len(dn.ScatterDimsToOperandDims)
	var windowDims []int
	for d := range opShape {
		if !containsDim(dn.InsertedWindowDims, d) && !containsDim(dn.OperandBatchingDims, d) {
			windowDims = append(windowDims, d)
		}
	}
	window := make([]int, len(opShape))
	for d := range window {
		window[d] = 1
	}
	for w, d := range windowDims {
		window[d] = uShape[dn.UpdateWindowDims[w]]
	}
	var winShape []int
	for _, d := range dn.UpdateWindowDims {
		winShape = append(winShape, uShape[d])
	}
	size := x.DType().Size()
	for b := range trace.Shape(batchShape).Size() {
		batch := unravelIndex(b, batchShape)
		start := make([]int, len(opShape))
		dropped := false
		for j, d := range dn.ScatterDimsToOperandDims {
			s := int(idx.Element(b*k + j).(int64))
			if clip {
				s = clampStart(s, opShape[d], window[d])
			} else if s < 0 || s > opShape[d]-window[d] {
				dropped = true
			}
			start[d] = s
		}
		if dropped {
			continue
		}
		for w := range trace.Shape(winShape).Size() {
			wi := unravelIndex(w, winShape)
			in := append([]int(nil), start...)
			for p, d := range windowDims {
				in[d] += wi[p]
			}
			ui := make([]int, len(uShape))
			for d, bi, p := 0, 0, 0; d < len(uShape); d++ {
				if containsDim(dn.UpdateWindowDims, d) {
					ui[d] = wi[p]
					p++
				} else {
					ui[d] = batch[bi]
					bi++
				}
			}
			o, s := ravelIndex(in, opShape), ravelIndex(ui, uShape)
			if prim == "scatter" {
				copy(y.data[o*size:(o+1)*size], u.data[s*size:(s+1)*size])
				continue
			}
			switch a := y.Element(o).(type) {
			case int64:
				_ = setElement(y, o, a+u.Element(s).(int64))
			case float64:
				_ = setElement(y, o, a+u.Element(s).(float64))
			case complex128:
				_ = setElement(y, o, a+u.Element(s).(complex128))
			}
		}
	}
	return y
}

func TestScatterAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cases := []struct {
		opShape, idxShape, uShape []int
		dn                        trace.ScatterDimensionNumbers
	}{
		{[]int{50}, []int{3000, 1}, []int{3000}, atScalars},
		{[]int{5000}, []int{3 * grainElements, 1}, []int{3 * grainElements}, atScalars},
		{[]int{20, 6}, []int{40, 30, 1}, []int{40, 30, 6}, trace.ScatterDimensionNumbers{UpdateWindowDims: []int{2}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}},
		{[]int{7, 9, 4}, []int{25, 2}, []int{3, 25, 2}, trace.ScatterDimensionNumbers{UpdateWindowDims: []int{0, 2}, InsertedWindowDims: []int{1}, ScatterDimsToOperandDims: []int{2, 0}}},
	}
	for ci, c := range cases {
		for _, dt := range sizedDTypes {
			for _, prim := range []string{"scatter", "scatter-add"} {
				for _, mode := range []trace.GatherScatterMode{trace.GatherClip, trace.GatherFillOrDrop} {
					x, u := smallValues(t, rng, dt, c.opShape), smallValues(t, rng, dt, c.uShape)
					idx := newBuffer(testDevice().(*Device), trace.AVal{Shape: c.idxShape, DType: trace.Int32})
					iv := view[int32](idx)
					k := c.idxShape[len(c.idxShape)-1]
					for i := range iv {
						iv[i] = int32(rng.IntN(c.opShape[c.dn.ScatterDimsToOperandDims[i%k]]+4) - 2)
					}
					y := applyOneResult(t, prim, scatterParams(c.dn, mode), x, idx, u)
					want := referenceScatter(prim, x, idx, u, c.dn, mode == trace.GatherClip)
					checkSameBytes(t, fmt.Sprintf("case %d %s %s %v", ci, dt, prim, mode), y, want.data)
				}
			}
		}
	}
}

// smallValues is a buffer of integers in [-50, 50) in dtype dt, so sums of
// a few are exact in every dtype but the 8-bit ones, which wrap.
func smallValues(t *testing.T, rng *rand.Rand, dt trace.DType, shape []int) *Buffer {
	b := newBuffer(testDevice().(*Device), trace.AVal{Shape: shape, DType: dt})
	for i := range b.Len() {
		if err := setElement(b, i, int64(rng.IntN(100)-50)); err != nil {
			t.Fatal(err)
		}
	}
	return b
}
