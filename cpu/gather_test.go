package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Gather at the primitive level with the dimension numbers jnp's indexing
// produces (jax/_src/numpy/indexing.py, _index_to_gather), the modes, fill
// values, and every element size.

func gatherParams(dn trace.GatherDimensionNumbers, sizes []int, mode trace.GatherScatterMode, fill any) trace.Params {
	return trace.Params{
		"dimension_numbers": dn, "slice_sizes": sizes, "indices_are_sorted": false,
		"unique_indices": false, "mode": mode, "fill_value": fill,
	}
}

// takeRows is x[idx] for a 2-D x and integer array idx: each index vector
// selects a row.
var takeRows = trace.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}

func TestGatherNumPyIndexingPatterns(t *testing.T) {
	x := bufferOf(t, trace.Int32, []int{4, 3}, seqValues(12)...)
	clip := trace.GatherClip

	// x[idx] with idx of shape (3,): indices (3, 1), rows in the order given.
	idx := bufferOf(t, trace.Int32, []int{3, 1}, 2, 0, 2)
	y := applyOneResult(t, "gather", gatherParams(takeRows, []int{1, 3}, clip, nil), x, idx)
	checkResultShape(t, "x[idx]", y, 3, 3)
	checkElements(t, "x[idx]", y, 6, 7, 8, 0, 1, 2, 6, 7, 8)

	// x[idx2] with idx2 of shape (2, 2): batch dims lead the output.
	idx = bufferOf(t, trace.Int64, []int{2, 2, 1}, 3, 1, 0, 0)
	y = applyOneResult(t, "gather", gatherParams(trace.GatherDimensionNumbers{OffsetDims: []int{2}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}},
		[]int{1, 3}, clip, nil), x, idx)
	checkResultShape(t, "x[idx2]", y, 2, 2, 3)
	checkElements(t, "x[idx2]", y, 9, 10, 11, 3, 4, 5, 0, 1, 2, 0, 1, 2)

	// x[:, idx]: the window spans dimension 0, the batch lands at output
	// dimension 1.
	idx = bufferOf(t, trace.Uint8, []int{2, 1}, 2, 0)
	y = applyOneResult(t, "gather", gatherParams(trace.GatherDimensionNumbers{OffsetDims: []int{0}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{1}},
		[]int{4, 1}, clip, nil), x, idx)
	checkResultShape(t, "x[:, idx]", y, 4, 2)
	checkElements(t, "x[:, idx]", y, 2, 0, 5, 3, 8, 6, 11, 9)

	// x[i, j] with two index arrays: index vectors of length 2, scalar
	// windows.
	idx = bufferOf(t, trace.Int32, []int{3, 2}, 0, 2, 3, 1, 1, 0)
	y = applyOneResult(t, "gather", gatherParams(trace.GatherDimensionNumbers{CollapsedSliceDims: []int{0, 1}, StartIndexMap: []int{0, 1}},
		[]int{1, 1}, clip, nil), x, idx)
	checkElements(t, "x[i, j]", y, 2, 10, 3)

	// x[j_idx, i_idx] order: start_index_map (1, 0) maps the first
	// component to dimension 1.
	y = applyOneResult(t, "gather", gatherParams(trace.GatherDimensionNumbers{CollapsedSliceDims: []int{0, 1}, StartIndexMap: []int{1, 0}},
		[]int{1, 1}, clip, nil), x, bufferOf(t, trace.Int32, []int{1, 2}, 2, 3))
	checkElements(t, "start_index_map (1, 0)", y, 11)

	// x[i] with a traced scalar i: indices of shape (1,), no batch dims.
	row := trace.GatherDimensionNumbers{OffsetDims: []int{0}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	y = applyOneResult(t, "gather", gatherParams(row, []int{1, 3}, clip, nil), x, bufferOf(t, trace.Int32, []int{1}, 1))
	checkResultShape(t, "x[i]", y, 3)
	checkElements(t, "x[i]", y, 3, 4, 5)

	// take_along_axis(x, idx, axis=1): batching dims pair x's rows with
	// idx's rows.
	idx = bufferOf(t, trace.Int32, []int{4, 2, 1}, 0, 2, 1, 1, 2, 0, 0, 0)
	y = applyOneResult(t, "gather", gatherParams(trace.GatherDimensionNumbers{
		CollapsedSliceDims: []int{1}, StartIndexMap: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0},
	}, []int{1, 1}, clip, nil), x, idx)
	checkResultShape(t, "take_along_axis", y, 4, 2)
	checkElements(t, "take_along_axis", y, 0, 2, 4, 4, 8, 6, 9, 9)

	// Windows wider than one element (a batched dynamic_slice).
	v := bufferOf(t, trace.Float64, []int{6}, seqValues(6)...)
	wide := trace.GatherDimensionNumbers{OffsetDims: []int{1}, StartIndexMap: []int{0}}
	y = applyOneResult(t, "gather", gatherParams(wide, []int{3}, clip, nil), v, bufferOf(t, trace.Int32, []int{2, 1}, 1, 3))
	checkElements(t, "windows", y, floatValues(1, 2, 3, 3, 4, 5)...)

	// Index vectors of length 0 select windows at the origin; the shape
	// rule lets their slice sizes exceed the operand, the kernel does not.
	y = applyOneResult(t, "gather", gatherParams(trace.GatherDimensionNumbers{OffsetDims: []int{1}}, []int{2}, clip, nil),
		v, bufferOf(t, trace.Int32, []int{2, 0}))
	checkElements(t, "empty index vectors", y, floatValues(0, 1, 0, 1)...)
	if _, err := applyErr("gather", gatherParams(trace.GatherDimensionNumbers{OffsetDims: []int{1}}, []int{7}, clip, nil),
		v, bufferOf(t, trace.Int32, []int{2, 0})); err == nil || !strings.Contains(err.Error(), "slice size 7") {
		t.Errorf("window larger than the operand: err = %v", err)
	}

	// Empty indices give an empty output.
	y = applyOneResult(t, "gather", gatherParams(takeRows, []int{1, 3}, clip, nil), x, bufferOf(t, trace.Int32, []int{0, 1}))
	checkResultShape(t, "no indices", y, 0, 3)
}

func TestGatherModes(t *testing.T) {
	v := bufferOf(t, trace.Int16, []int{5}, 10, 11, 12, 13, 14)
	scalars := trace.GatherDimensionNumbers{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	idx := bufferOf(t, trace.Int32, []int{5, 1}, -1, 0, 4, 5, math.MaxInt32)
	for _, mode := range []trace.GatherScatterMode{trace.GatherClip, trace.GatherPromiseInBounds} {
		y := applyOneResult(t, "gather", gatherParams(scalars, []int{1}, mode, nil), v, idx)
		checkElements(t, fmt.Sprint(mode, " clamps"), y, 10, 10, 14, 14, 14)
	}
	y := applyOneResult(t, "gather", gatherParams(scalars, []int{1}, trace.GatherFillOrDrop, nil), v, idx)
	checkElements(t, "fill with int16 min", y, math.MinInt16, 10, 14, math.MinInt16, math.MinInt16)
	y = applyOneResult(t, "gather", gatherParams(scalars, []int{1}, trace.GatherFillOrDrop, 7), v, idx)
	checkElements(t, "fill_value 7", y, 7, 10, 14, 7, 7)

	// A window counts as out of bounds as soon as it does not fit: start 3
	// of a 3-wide window in 5 elements is filled whole, not clipped.
	wide := trace.GatherDimensionNumbers{OffsetDims: []int{1}, StartIndexMap: []int{0}}
	y = applyOneResult(t, "gather", gatherParams(wide, []int{3}, trace.GatherFillOrDrop, -1.0), v, bufferOf(t, trace.Int32, []int{2, 1}, 2, 3))
	checkElements(t, "whole windows filled", y, 12, 13, 14, -1, -1, -1)
	y = applyOneResult(t, "gather", gatherParams(wide, []int{3}, trace.GatherClip, nil), v, bufferOf(t, trace.Int32, []int{2, 1}, 2, 3))
	checkElements(t, "whole windows clipped", y, 12, 13, 14, 12, 13, 14)

	// 2-D: one out-of-bounds component fills the window.
	m := bufferOf(t, trace.Float32, []int{2, 2}, 1.0, 2.0, 3.0, 4.0)
	pairs := trace.GatherDimensionNumbers{CollapsedSliceDims: []int{0, 1}, StartIndexMap: []int{0, 1}}
	y = applyOneResult(t, "gather", gatherParams(pairs, []int{1, 1}, trace.GatherFillOrDrop, nil), m, bufferOf(t, trace.Int8, []int{3, 2}, 1, 1, 1, 2, -1, 0))
	checkElements(t, "2-D fill", y, 4.0, math.NaN(), math.NaN())
}

func TestGatherDefaultFillValues(t *testing.T) {
	scalars := trace.GatherDimensionNumbers{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	idx := bufferOf(t, trace.Int32, []int{2, 1}, 1, 2)
	tests := []struct {
		dt   trace.DType
		x    []any
		want []any
	}{
		{trace.Bool, boolValues(false, false), boolValues(false, true)},
		{trace.Int8, intValues(1, 2), intValues(2, math.MinInt8)},
		{trace.Uint8, intValues(1, 2), intValues(2, math.MaxUint8)},
		{trace.Uint32, intValues(1, 2), intValues(2, math.MaxUint32)},
		{trace.Int64, intValues(1, 2), []any{int64(2), int64(math.MinInt64)}},
		{trace.Float16, floatValues(1, 2), floatValues(2, math.NaN())},
		{trace.BFloat16, floatValues(1, 2), floatValues(2, math.NaN())},
		{trace.Float64, floatValues(1, 2), floatValues(2, math.NaN())},
		{trace.Complex128, floatValues(1, 2), []any{complex(2, 0), complex(math.NaN(), 0)}},
	}
	for _, tt := range tests {
		x := bufferOf(t, tt.dt, []int{2}, tt.x...)
		y := applyOneResult(t, "gather", gatherParams(scalars, []int{1}, trace.GatherFillOrDrop, nil), x, idx)
		got := elements(y)
		if c, ok := got[1].(complex128); ok { // checkElements compares complex NaN as unequal
			if got[0] != tt.want[0] || !math.IsNaN(real(c)) || imag(c) != 0 {
				t.Errorf("complex128 fill: got %v, want %v", got, tt.want)
			}
			continue
		}
		checkElements(t, tt.dt.String()+" default fill", y, tt.want...)
	}
}

// referenceGather is the textbook definition, by division: output index →
// batch position and window position → operand index.
func referenceGather(x, idx *Buffer, dn trace.GatherDimensionNumbers, sizes []int, fill []byte) []byte {
	size := x.DType().Size()
	opShape, idxShape := x.Shape(), idx.Shape()
	batchShape := idxShape[:len(idxShape)-1]
	var windowDims []int
	for d := range opShape {
		if !containsDim(dn.CollapsedSliceDims, d) && !containsDim(dn.OperandBatchingDims, d) {
			windowDims = append(windowDims, d)
		}
	}
	outShape := make([]int, len(dn.OffsetDims)+len(batchShape))
	for d, w, b := 0, 0, 0; d < len(outShape); d++ {
		if containsDim(dn.OffsetDims, d) {
			outShape[d] = sizes[windowDims[w]]
			w++
		} else {
			outShape[d] = batchShape[b]
			b++
		}
	}
	n := trace.Shape(outShape).Size()
	want := make([]byte, n*size)
	k := len(dn.StartIndexMap)
	for i := range n {
		out := unravelIndex(i, outShape)
		var batch, window []int
		for d := range out {
			if containsDim(dn.OffsetDims, d) {
				window = append(window, out[d])
			} else {
				batch = append(batch, out[d])
			}
		}
		b := ravelIndex(batch, batchShape)
		in := make([]int, len(opShape))
		filled := false
		for j, d := range dn.StartIndexMap {
			s := int(idx.Element(b*k + j).(int64))
			if s < 0 || s > opShape[d]-sizes[d] {
				filled = true
			}
			in[d] = s
		}
		for q, d := range dn.OperandBatchingDims {
			in[d] = batch[dn.StartIndicesBatchingDims[q]]
		}
		for w, d := range windowDims {
			in[d] += window[w]
		}
		if filled {
			copy(want[i*size:], fill)
			continue
		}
		j := ravelIndex(in, opShape)
		copy(want[i*size:], x.data[j*size:(j+1)*size])
	}
	return want
}

func containsDim(dims []int, d int) bool {
	for _, x := range dims {
		if x == d {
			return true
		}
	}
	return false
}

func TestGatherAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		opShape, idxShape []int
		dn                trace.GatherDimensionNumbers
		sizes             []int
	}{
		// Many rows: several chunks, rows copied whole.
		{[]int{500, 7}, []int{9000, 1}, takeRows, []int{1, 7}},
		// A column per index, batch innermost in the output.
		{[]int{40, 300}, []int{700, 1}, trace.GatherDimensionNumbers{OffsetDims: []int{0}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{1}}, []int{40, 1}},
		// 3-D operand, 2-component index vectors, windows of 2×3 inside.
		{[]int{6, 5, 8}, []int{30, 40, 2}, trace.GatherDimensionNumbers{OffsetDims: []int{1, 3}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{2, 0}}, []int{2, 1, 3}},
		// Batching dims with a wide window.
		{[]int{8, 50, 9}, []int{8, 300, 1}, trace.GatherDimensionNumbers{OffsetDims: []int{2}, CollapsedSliceDims: []int{1},
			StartIndexMap: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0}}, []int{1, 1, 9}},
	}
	for ci, c := range cases {
		for _, dt := range sizedDTypes {
			x := randomBytesBuffer(t, rng, dt, c.opShape...)
			idx := newBuffer(testDevice().(*Device), trace.AVal{Shape: c.idxShape, DType: trace.Int32})
			k := c.idxShape[len(c.idxShape)-1]
			iv := view[int32](idx)
			for i := range iv {
				d := c.dn.StartIndexMap[i%k]
				iv[i] = int32(rng.IntN(c.opShape[d]+4) - 2) // some out of bounds
			}
			y := applyOneResult(t, "gather", gatherParams(c.dn, c.sizes, trace.GatherFillOrDrop, nil), x, idx)
			def := gatherFill(y, nil)
			checkSameBytes(t, fmt.Sprintf("case %d %s fill", ci, dt), y, referenceGather(x, idx, c.dn, c.sizes, def.data))

			// Clamped indices, by clamping the reference's input.
			clamped := newBuffer(testDevice().(*Device), idx.AVal())
			cv := view[int32](clamped)
			for i := range cv {
				d := c.dn.StartIndexMap[i%k]
				cv[i] = int32(clampStart(int(iv[i]), c.opShape[d], c.sizes[d]))
			}
			y = applyOneResult(t, "gather", gatherParams(c.dn, c.sizes, trace.GatherClip, nil), x, idx)
			checkSameBytes(t, fmt.Sprintf("case %d %s clip", ci, dt), y, referenceGather(x, clamped, c.dn, c.sizes, nil))
		}
	}
}

// Single-element windows take gatherScalars' direct path: int64 indices,
// 8-byte elements, a start in the first of two dimensions (the second
// starts at 0), and a batch of indices with two dimensions.
func TestGatherScalarWindows(t *testing.T) {
	m := bufferOf(t, trace.Float64, []int{4, 3}, 0.0, 1.0, 2.0, 10.0, 11.0, 12.0, 20.0, 21.0, 22.0, 30.0, 31.0, 32.0)
	dn := trace.GatherDimensionNumbers{OffsetDims: []int{2}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	idx := bufferOf(t, trace.Int64, []int{2, 2, 1}, 3, -1, 1, 4)
	y := applyOneResult(t, "gather", gatherParams(dn, []int{1, 1}, trace.GatherFillOrDrop, nil), m, idx)
	if !y.Shape().Equal(trace.Shape{2, 2, 1}) {
		t.Fatalf("shape %v", y.Shape())
	}
	checkElements(t, "fill", y, 30.0, math.NaN(), 10.0, math.NaN())
	y = applyOneResult(t, "gather", gatherParams(dn, []int{1, 1}, trace.GatherClip, nil), m, idx)
	checkElements(t, "clip", y, 30.0, 0.0, 10.0, 30.0)
}
