package trace

import (
	"math"
	"slices"
)

// The eager path looks up a compiled primitive by its params many times a
// second; printing them (Params.String) costs more than a small kernel. The
// functions here hash, compare and copy params of the plain kinds without
// building text. Params holding a jaxpr, callback, avals or transforms are
// not hashed (their identity is not a plain value); callers fall back to
// the printed form for those.

// Hash returns a hash of p's names and values, the same for equal params
// whatever the map's order, and whether p holds only values of plain kinds
// (then Same decides equality exactly).
func (p Params) Hash() (uint64, bool) {
	var sum uint64
	for name, v := range p {
		h := newParamHasher()
		h.str(name)
		if !h.value(v) {
			return 0, false
		}
		// Entries combine by addition, so the map's order does not matter.
		sum += h.h
	}
	return sum, true
}

// Same reports whether p and q hold the same names with equal values of
// the same types; floats compare by bits (so -0.0 differs from 0.0 and a
// NaN equals itself, as their printed forms do). Values of kinds Hash does
// not accept are never the same.
func (p Params) Same(q Params) bool {
	if len(p) != len(q) {
		return false
	}
	for name, v := range p {
		w, ok := q[name]
		if !ok || !sameParamValue(v, w) {
			return false
		}
	}
	return true
}

// CloneValues returns a copy of params that Hash accepts, sharing none of
// their slices, so that a later change to p's slices cannot change it.
func (p Params) CloneValues() Params {
	c := make(Params, len(p))
	for name, v := range p {
		switch v := v.(type) {
		case []int:
			c[name] = slices.Clone(v)
		case DotDimensionNumbers:
			c[name] = DotDimensionNumbers{slices.Clone(v.LhsContracting), slices.Clone(v.RhsContracting),
				slices.Clone(v.LhsBatch), slices.Clone(v.RhsBatch)}
		case GatherDimensionNumbers:
			c[name] = GatherDimensionNumbers{slices.Clone(v.OffsetDims), slices.Clone(v.CollapsedSliceDims),
				slices.Clone(v.StartIndexMap), slices.Clone(v.OperandBatchingDims), slices.Clone(v.StartIndicesBatchingDims)}
		case ScatterDimensionNumbers:
			c[name] = ScatterDimensionNumbers{slices.Clone(v.UpdateWindowDims), slices.Clone(v.InsertedWindowDims),
				slices.Clone(v.ScatterDimsToOperandDims), slices.Clone(v.OperandBatchingDims), slices.Clone(v.ScatterIndicesBatchingDims)}
		case PaddingConfig:
			c[name] = slices.Clone(v)
		default:
			c[name] = v
		}
	}
	return c
}

func sameParamValue(v, w any) bool {
	switch v := v.(type) {
	case nil:
		return w == nil
	case bool:
		x, ok := w.(bool)
		return ok && x == v
	case int:
		x, ok := w.(int)
		return ok && x == v
	case float64:
		x, ok := w.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(v)
	case string:
		x, ok := w.(string)
		return ok && x == v
	case Ident:
		x, ok := w.(Ident)
		return ok && x == v
	case DType:
		x, ok := w.(DType)
		return ok && x == v
	case GatherScatterMode:
		x, ok := w.(GatherScatterMode)
		return ok && x == v
	case PrecisionConfig:
		x, ok := w.(PrecisionConfig)
		return ok && x == v
	case RoundingMethod:
		x, ok := w.(RoundingMethod)
		return ok && x == v
	case []int:
		x, ok := w.([]int)
		return ok && slices.Equal(x, v)
	case PaddingConfig:
		x, ok := w.(PaddingConfig)
		return ok && slices.Equal(x, v)
	case DotDimensionNumbers:
		x, ok := w.(DotDimensionNumbers)
		return ok && slices.Equal(x.LhsContracting, v.LhsContracting) && slices.Equal(x.RhsContracting, v.RhsContracting) &&
			slices.Equal(x.LhsBatch, v.LhsBatch) && slices.Equal(x.RhsBatch, v.RhsBatch)
	case GatherDimensionNumbers:
		x, ok := w.(GatherDimensionNumbers)
		return ok && slices.Equal(x.OffsetDims, v.OffsetDims) && slices.Equal(x.CollapsedSliceDims, v.CollapsedSliceDims) &&
			slices.Equal(x.StartIndexMap, v.StartIndexMap) && slices.Equal(x.OperandBatchingDims, v.OperandBatchingDims) &&
			slices.Equal(x.StartIndicesBatchingDims, v.StartIndicesBatchingDims)
	case ScatterDimensionNumbers:
		x, ok := w.(ScatterDimensionNumbers)
		return ok && slices.Equal(x.UpdateWindowDims, v.UpdateWindowDims) && slices.Equal(x.InsertedWindowDims, v.InsertedWindowDims) &&
			slices.Equal(x.ScatterDimsToOperandDims, v.ScatterDimsToOperandDims) &&
			slices.Equal(x.OperandBatchingDims, v.OperandBatchingDims) &&
			slices.Equal(x.ScatterIndicesBatchingDims, v.ScatterIndicesBatchingDims)
	}
	return false
}

// paramHasher is FNV-1a over words.
type paramHasher struct{ h uint64 }

func newParamHasher() paramHasher { return paramHasher{14695981039346656037} }

func (h *paramHasher) word(v uint64) { h.h = (h.h ^ v) * 1099511628211 }

func (h *paramHasher) str(s string) {
	h.word(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h.word(uint64(s[i]))
	}
}

func (h *paramHasher) ints(tag uint64, xs []int) {
	h.word(tag)
	h.word(uint64(len(xs)))
	for _, x := range xs {
		h.word(uint64(x))
	}
}

// value hashes v with a tag for its type; false for a kind it does not
// take.
func (h *paramHasher) value(v any) bool {
	switch v := v.(type) {
	case nil:
		h.word(1)
	case bool:
		h.word(2)
		if v {
			h.word(1)
		}
	case int:
		h.word(3)
		h.word(uint64(v))
	case float64:
		h.word(4)
		h.word(math.Float64bits(v))
	case string:
		h.word(5)
		h.str(v)
	case Ident:
		h.word(6)
		h.str(string(v))
	case DType:
		h.word(7)
		h.word(uint64(v))
	case GatherScatterMode:
		h.word(8)
		h.word(uint64(v))
	case PrecisionConfig:
		h.word(9)
		h.word(uint64(v[0])<<8 | uint64(v[1]))
	case RoundingMethod:
		h.word(10)
		h.word(uint64(v))
	case []int:
		h.ints(11, v)
	case PaddingConfig:
		h.word(12)
		h.word(uint64(len(v)))
		for _, d := range v {
			h.word(uint64(d.Lo))
			h.word(uint64(d.Hi))
			h.word(uint64(d.Interior))
		}
	case DotDimensionNumbers:
		h.ints(13, v.LhsContracting)
		h.ints(14, v.RhsContracting)
		h.ints(15, v.LhsBatch)
		h.ints(16, v.RhsBatch)
	case GatherDimensionNumbers:
		h.ints(17, v.OffsetDims)
		h.ints(18, v.CollapsedSliceDims)
		h.ints(19, v.StartIndexMap)
		h.ints(20, v.OperandBatchingDims)
		h.ints(21, v.StartIndicesBatchingDims)
	case ScatterDimensionNumbers:
		h.ints(22, v.UpdateWindowDims)
		h.ints(23, v.InsertedWindowDims)
		h.ints(24, v.ScatterDimsToOperandDims)
		h.ints(25, v.OperandBatchingDims)
		h.ints(26, v.ScatterIndicesBatchingDims)
	default:
		return false
	}
	return true
}
