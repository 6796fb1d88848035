package cpu

import (
	"github.com/jaxsh/jaxsh/trace"
)

// argmax and argmin over one axis, with lax's reducer semantics: the first
// index of the extreme value, or the index of the first NaN if the line
// holds one (NaN beats every number). +0.0 and -0.0 are equal, so the
// first of them wins a tie. Bools order False < True. The shape rule
// rejects an empty axis. Indices wrap into index_dtype.

func init() {
	for name, isMax := range map[string]bool{"argmax": true, "argmin": false} {
		registerKernel(name, func(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
			argBuffer(stop, isMax, e.Params.Ints("axes")[0], in[0], out[0])
			return nil
		})
	}
}

func argBuffer(stop stopSignal, isMax bool, axis int, src, dst *Buffer) {
	if dst.Len() == 0 {
		return
	}
	s := spanAround(src.Shape(), axis)
	idx := make([]int, dst.Len())
	switch src.DType() {
	case trace.Bool, trace.Uint8:
		argSpan(stop, isMax, view[uint8](src), idx, s)
	case trace.Int8:
		argSpan(stop, isMax, view[int8](src), idx, s)
	case trace.Int16:
		argSpan(stop, isMax, view[int16](src), idx, s)
	case trace.Int32:
		argSpan(stop, isMax, view[int32](src), idx, s)
	case trace.Int64:
		argSpan(stop, isMax, view[int64](src), idx, s)
	case trace.Uint16:
		argSpan(stop, isMax, view[uint16](src), idx, s)
	case trace.Uint32:
		argSpan(stop, isMax, view[uint32](src), idx, s)
	case trace.Float16, trace.BFloat16:
		argSpan(stop, isMax, view[float32](widenHalf(src)), idx, s)
	case trace.Float32:
		argSpan(stop, isMax, view[float32](src), idx, s)
	case trace.Float64:
		argSpan(stop, isMax, view[float64](src), idx, s)
	default:
		panic("cpu: argmax of " + src.DType().String())
	}
	storeIndices(dst, idx)
}

// storeIndices writes indices into an integer buffer, wrapping to its width.
func storeIndices(dst *Buffer, idx []int) {
	switch dst.DType() {
	case trace.Int32:
		out := view[int32](dst)
		for i, v := range idx {
			out[i] = int32(v)
		}
	case trace.Int64:
		out := view[int64](dst)
		for i, v := range idx {
			out[i] = int64(v)
		}
	default:
		set := intSetter(dst)
		for i, v := range idx {
			set(i, int64(v))
		}
	}
}

// argChoice is one candidate: a value and its index along the axis.
type argChoice[T elemReal] struct {
	v T
	i int
}

// argBetter reports whether b should replace a, b lying later in the line.
func argBetter[T elemReal](isMax bool, a, b T) bool {
	if a != a {
		return false
	}
	if b != b {
		return true
	}
	if isMax {
		return b > a
	}
	return b < a
}

func argSpan[T elemReal](stop stopSignal, isMax bool, x []T, idx []int, s span3) {
	if s.inner == 1 {
		pool.parallelFor(stop, s.outer, max(1, grainElements/s.n), func(lo, hi int) {
			for p := lo; p < hi; p++ {
				idx[p] = argLineSplit(stop, isMax, x[p*s.n:(p+1)*s.n]).i
			}
		})
		return
	}
	width := min(s.inner, columnWidth)
	chunks := (s.inner + width - 1) / width
	pool.parallelFor(stop, s.outer*chunks, max(1, grainElements/(s.n*width)), func(lo, hi int) {
		best := make([]T, width)
		for u := lo; u < hi; u++ {
			p, c := u/chunks, u%chunks
			k0 := c * width
			k1 := min(k0+width, s.inner)
			base := p * s.n * s.inner
			if isMax {
				argMaxRows(x[base:], s.n, s.inner, k0, best[:k1-k0], idx[p*s.inner+k0:p*s.inner+k1])
			} else {
				argMinRows(x[base:], s.n, s.inner, k0, best[:k1-k0], idx[p*s.inner+k0:p*s.inner+k1])
			}
		}
	})
}

// argLineSplit finds the extreme of a contiguous line, halves of long lines
// on the pool; on a tie the earlier half wins.
func argLineSplit[T elemReal](stop stopSignal, isMax bool, x []T) argChoice[T] {
	if len(x) <= parallelLine {
		i := argLine(isMax, x)
		return argChoice[T]{x[i], i}
	}
	h := len(x) / 2
	var parts [2]argChoice[T]
	pool.parallelFor(stop, 2, 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if k == 0 {
				parts[0] = argLineSplit(stop, isMax, x[:h])
			} else {
				parts[1] = argLineSplit(stop, isMax, x[h:])
				parts[1].i += h
			}
		}
	})
	if argBetter(isMax, parts[0].v, parts[1].v) {
		return parts[1]
	}
	return parts[0]
}

// argBlock is how many elements argLine folds at a time: small enough
// that finding an improved extreme inside a block is cheap, large enough
// that the per-block work vanishes.
const argBlock = 2048

// argLine is the index of the extreme of a contiguous line in one read:
// each block's extreme and whether it holds a NaN come from one vector
// pass (blockExtremeAsm); only a block that beats the best so far is read
// again, for the first index of its extreme (or of its first NaN). Types
// without an assembly fold scan element by element.
func argLine[T elemReal](isMax bool, x []T) int {
	if _, _, done := blockExtremeAsm(x[:min(len(x), argBlock)], isMax); done == 0 {
		if isMax {
			return argMaxLine(x)
		}
		return argMinLine(x)
	}
	best, at := x[0], 0
	if best != best {
		return 0
	}
	for lo := 0; lo < len(x); lo += argBlock {
		block := x[lo:min(lo+argBlock, len(x))]
		m, nan, done := blockExtremeAsm(block, isMax)
		if done == 0 {
			m = block[0]
		}
		for _, v := range block[done:] {
			nan = nan || v != v
			if isMax {
				m = max(m, v)
			} else {
				m = min(m, v)
			}
		}
		switch {
		case nan:
			for i, v := range block {
				if v != v {
					return lo + i
				}
			}
		case isMax && m > best || !isMax && m < best:
			best = m
			for i, v := range block {
				if v == m {
					at = lo + i
					break
				}
			}
		}
	}
	return at
}

func argMaxLine[T elemReal](x []T) int {
	best, at := x[0], 0
	if best != best {
		return 0
	}
	for i := 1; i < len(x); i++ {
		if v := x[i]; v > best {
			best, at = v, i
		} else if v != v {
			return i
		}
	}
	return at
}

func argMinLine[T elemReal](x []T) int {
	best, at := x[0], 0
	if best != best {
		return 0
	}
	for i := 1; i < len(x); i++ {
		if v := x[i]; v < best {
			best, at = v, i
		} else if v != v {
			return i
		}
	}
	return at
}

// argMaxRows scans n rows of stride elements from column k0, keeping the
// best value and its row per column; a NaN best is never replaced.
func argMaxRows[T elemReal](x []T, n, stride, k0 int, best []T, at []int) {
	copy(best, x[k0:k0+len(best)])
	clear(at)
	for r := 1; r < n; r++ {
		row := x[r*stride+k0 : r*stride+k0+len(best)]
		for k, v := range row {
			if b := best[k]; v > b || v != v && b == b {
				best[k], at[k] = v, r
			}
		}
	}
}

func argMinRows[T elemReal](x []T, n, stride, k0 int, best []T, at []int) {
	copy(best, x[k0:k0+len(best)])
	clear(at)
	for r := 1; r < n; r++ {
		row := x[r*stride+k0 : r*stride+k0+len(best)]
		for k, v := range row {
			if b := best[k]; v < b || v != v && b == b {
				best[k], at[k] = v, r
			}
		}
	}
}
