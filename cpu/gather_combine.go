package cpu

import (
	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// The combiners of the scatter family: each returns a runFunc that applies
// a run of updates (walk vector 0) to the result (walk vector 1), with the
// operation inlined in its loop. The current result element is the first
// operand of the combination, the update the second, as in XLA's update
// computation lax.add(x, y) etc.
//
//   - scatter replaces; it moves bytes, so it goes by element size.
//   - scatter-add and scatter-mul wrap on integers and round on floats
//     after every update; float16 and bfloat16 combine in float32 and round
//     back after each update, so their sums round as a chain of 16-bit adds
//     would. For bool, add is logical or and mul is logical and. (The
//     trace rule rejects bool scatter-add and scatter-mul today, as JAX
//     does in effect: its update computation lax.add rejects bool.)
//   - scatter-min and scatter-max are lax.min and lax.max: on floats they
//     propagate NaN and order -0 below +0 (IEEE 754-2019 minimum and
//     maximum, as XLA's CPU backend computes them); on bool they are and and
//     or; on complex numbers they compare (real, imag) lexicographically and
//     keep the current element unless the update is strictly smaller
//     (larger), as JAX's min/max lowering does.

// scatterRun returns the combiner of primitive prim for dst's dtype, for a
// walk with steps st.
func scatterRun(prim string, dst, src *Buffer, st runSteps) runFunc {
	if prim == "scatter" {
		switch dst.DType().Size() {
		case 1:
			return replaceRun(view[uint8](dst), view[uint8](src), st)
		case 2:
			return replaceRun(view[uint16](dst), view[uint16](src), st)
		case 4:
			return replaceRun(view[uint32](dst), view[uint32](src), st)
		case 8:
			return replaceRun(view[uint64](dst), view[uint64](src), st)
		case 16:
			return replaceRun(view[[2]uint64](dst), view[[2]uint64](src), st)
		}
	}
	switch dst.DType() {
	case trace.Bool:
		// As 0/1 bytes, or is max and and is min.
		switch prim {
		case "scatter-add":
			prim = "scatter-max"
		case "scatter-mul":
			prim = "scatter-min"
		}
		return orderedRun(prim, view[uint8](dst), view[uint8](src), st)
	case trace.Int8:
		return orderedRun(prim, view[int8](dst), view[int8](src), st)
	case trace.Int16:
		return orderedRun(prim, view[int16](dst), view[int16](src), st)
	case trace.Int32:
		return orderedRun(prim, view[int32](dst), view[int32](src), st)
	case trace.Int64:
		return orderedRun(prim, view[int64](dst), view[int64](src), st)
	case trace.Uint8:
		return orderedRun(prim, view[uint8](dst), view[uint8](src), st)
	case trace.Uint16:
		return orderedRun(prim, view[uint16](dst), view[uint16](src), st)
	case trace.Uint32:
		return orderedRun(prim, view[uint32](dst), view[uint32](src), st)
	case trace.Float32:
		return orderedRun(prim, view[float32](dst), view[float32](src), st)
	case trace.Float64:
		return orderedRun(prim, view[float64](dst), view[float64](src), st)
	case trace.Float16:
		return halfRun(prim, view[uint16](dst), view[uint16](src), st, half.Float16ToFloat32, half.Float16FromFloat32)
	case trace.BFloat16:
		return halfRun(prim, view[uint16](dst), view[uint16](src), st, half.BFloat16ToFloat32, half.BFloat16FromFloat32)
	case trace.Complex64:
		return complexRun(prim, view[complex64](dst), view[complex64](src), st)
	case trace.Complex128:
		return complexRun(prim, view[complex128](dst), view[complex128](src), st)
	}
	panic("cpu: " + prim + " of dtype " + dst.DType().String())
}

func replaceRun[E any](dst, src []E, st runSteps) runFunc {
	ds, ss := st.inner[1], st.inner[0]
	return func(o walkOffsets, n, rows int) {
		for range rows {
			s, d := o[0], o[1]
			for range n {
				dst[d] = src[s]
				d += ds
				s += ss
			}
			st.nextRow(&o)
		}
	}
}

type orderedNumber interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | float32 | float64
}

// orderedRun combines real numbers. Go's min and max builtins are exactly
// IEEE 754-2019 minimum and maximum on floats (NaN if either is NaN, -0
// below +0).
func orderedRun[T orderedNumber](prim string, dst, src []T, st runSteps) runFunc {
	ds, ss := st.inner[1], st.inner[0] // vector 0 walks the updates, 1 the result
	switch prim {
	case "scatter-add":
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					dst[d] += src[s]
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	case "scatter-mul":
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					dst[d] *= src[s]
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	case "scatter-min":
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					dst[d] = min(dst[d], src[s])
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	case "scatter-max":
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					dst[d] = max(dst[d], src[s])
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	}
	panic("cpu: unknown scatter combiner " + prim)
}

// halfRun combines float16 or bfloat16 bits in float32 and rounds each
// result back.
func halfRun(prim string, dst, src []uint16, st runSteps, widen func(uint16) float32, narrow func(float32) uint16) runFunc {
	var op func(x, y float32) float32
	switch prim {
	case "scatter-add":
		op = func(x, y float32) float32 { return x + y }
	case "scatter-mul":
		op = func(x, y float32) float32 { return x * y }
	case "scatter-min":
		op = func(x, y float32) float32 { return min(x, y) }
	case "scatter-max":
		op = func(x, y float32) float32 { return max(x, y) }
	default:
		panic("cpu: unknown scatter combiner " + prim)
	}
	ds, ss := st.inner[1], st.inner[0]
	return func(o walkOffsets, n, rows int) {
		for range rows {
			s, d := o[0], o[1]
			for range n {
				dst[d] = narrow(op(widen(dst[d]), widen(src[s])))
				d += ds
				s += ss
			}
			st.nextRow(&o)
		}
	}
}

func complexRun[T complex64 | complex128](prim string, dst, src []T, st runSteps) runFunc {
	ds, ss := st.inner[1], st.inner[0] // vector 0 walks the updates, 1 the result
	switch prim {
	case "scatter-add":
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					dst[d] += src[s]
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	case "scatter-mul":
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					dst[d] *= src[s]
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	case "scatter-min", "scatter-max":
		isMax := prim == "scatter-max"
		return func(o walkOffsets, n, rows int) {
			for range rows {
				s, d := o[0], o[1]
				for range n {
					if !keepLexicographic(dst[d], src[s], isMax) {
						dst[d] = src[s]
					}
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	}
	panic("cpu: unknown scatter combiner " + prim)
}

// keepLexicographic reports whether min (max, if isMax) keeps x over y:
// JAX's select(real(x) == real(y) ? imag(x) < imag(y) : real(x) < real(y),
// x, y), with > for max. Comparisons with NaN are false, so a NaN on either
// side picks y.
// (real and imag take no type parameters, hence complex128.)
func keepLexicographic[T complex64 | complex128](x, y T, isMax bool) bool {
	cx, cy := complex128(x), complex128(y)
	rx, ry, ix, iy := real(cx), real(cy), imag(cx), imag(cy)
	if isMax {
		rx, ry, ix, iy = ry, rx, iy, ix
	}
	if rx == ry {
		return ix < iy
	}
	return rx < ry
}
