package cpu

import (
	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// Cumulative reductions along one axis: cumsum, cumprod, cummax, cummin,
// optionally from the end (reverse).
//
// JAX lowers these to XLA reduce_window with the op's init value, so a
// running sum starts from +0.0 (cumsum of [-0.0] is [+0.0]). Integer sums
// and products wrap. float32 and float16/bfloat16 sums and products run in
// a float64 accumulator and round each output once: every output is within
// half an ulp of the float64 running value, where a float32 accumulator
// would drift by up to n ulp. complex64 accumulates in complex128. cummax
// and cummin propagate NaN from its first appearance on and use max/min's
// ±0.0 and complex orders (see reduce.go).
//
// Lines along the axis are independent and run in parallel; along an
// outer axis whole rows are scanned at once, never element by element.

func init() {
	for name, op := range map[string]reduceOp{"cumsum": opSum, "cumprod": opProd, "cummax": opMax, "cummin": opMin} {
		registerKernel(name, func(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
			cumBuffer(op, e.Params.Int("axis"), e.Params.Bool("reverse"), in[0], out[0], stop)
			return nil
		})
	}
}

func cumBuffer(op reduceOp, axis int, rev bool, src, dst *Buffer, stop stopSignal) {
	if src.Len() == 0 {
		return
	}
	s := spanAround(src.Shape(), axis)
	switch src.DType() {
	case trace.Int8:
		cumReal(op, view[int8](src), view[int8](dst), s, rev, stop)
	case trace.Int16:
		cumReal(op, view[int16](src), view[int16](dst), s, rev, stop)
	case trace.Int32:
		cumReal(op, view[int32](src), view[int32](dst), s, rev, stop)
	case trace.Int64:
		cumReal(op, view[int64](src), view[int64](dst), s, rev, stop)
	case trace.Uint8:
		cumReal(op, view[uint8](src), view[uint8](dst), s, rev, stop)
	case trace.Uint16:
		cumReal(op, view[uint16](src), view[uint16](dst), s, rev, stop)
	case trace.Uint32:
		cumReal(op, view[uint32](src), view[uint32](dst), s, rev, stop)
	case trace.Float16, trace.BFloat16:
		cumHalf(op, src, dst, s, rev, stop)
	case trace.Float32:
		if op == opSum || op == opProd {
			cumArith[float32, float64](op, view[float32](src), view[float32](dst), s, rev, stop)
		} else {
			cumReal(op, view[float32](src), view[float32](dst), s, rev, stop)
		}
	case trace.Float64:
		cumReal(op, view[float64](src), view[float64](dst), s, rev, stop)
	case trace.Complex64:
		cumComplex[complex64, complex128](op, view[complex64](src), view[complex64](dst), s, rev, stop)
	case trace.Complex128:
		cumComplex[complex128, complex128](op, view[complex128](src), view[complex128](dst), s, rev, stop)
	default:
		panic("cpu: cumulative reduction of " + src.DType().String())
	}
}

// cumReal scans a real type in its own precision.
func cumReal[T elemReal](op reduceOp, x, out []T, s span3, rev bool, stop stopSignal) {
	switch op {
	case opSum, opProd:
		cumArith[T, T](op, x, out, s, rev, stop)
	case opMax:
		cumScan(x, out, s, rev, stop, func(a, v T) T { return max(a, v) })
	default:
		cumScan(x, out, s, rev, stop, func(a, v T) T { return min(a, v) })
	}
}

// cumHalf widens to float32, scans in float64 (sums, products) or float32
// (max, min, which are exact), and rounds each output once.
func cumHalf(op reduceOp, src, dst *Buffer, s span3, rev bool, stop stopSignal) {
	wide := view[float32](widenHalf(src))
	if op == opMax || op == opMin {
		acc := newBuffer(dst.dev, trace.AVal{Shape: dst.Shape(), DType: trace.Float32})
		cumReal(op, wide, view[float32](acc), s, rev, stop)
		narrowHalf(acc, dst)
		return
	}
	acc := make([]float64, len(wide))
	cumArith[float32, float64](op, wide, acc, s, rev, stop)
	conv := half.Float16FromFloat64
	if dst.DType() == trace.BFloat16 {
		conv = half.BFloat16FromFloat64
	}
	d := view[uint16](dst)
	pool.parallelFor(stop, len(d), grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d[i] = conv(acc[i])
		}
	})
}

// cumArith is a running sum or product of S values in an A accumulator
// started from the identity, each output converted to D.
func cumArith[S, A, D elemReal](op reduceOp, x []S, out []D, s span3, rev bool, stop stopSignal) {
	if op == opProd {
		cumUnits(s, rev, stop, x, out, func(xs []S, os []D) {
			acc := A(1)
			for i, v := range xs {
				acc *= A(v)
				os[i] = D(acc)
			}
		}, func(rows func(yield func(xs []S, os []D)), width int) {
			acc := make([]A, width)
			for i := range acc {
				acc[i] = 1
			}
			rows(func(xs []S, os []D) {
				for k, v := range xs {
					acc[k] *= A(v)
					os[k] = D(acc[k])
				}
			})
		})
		return
	}
	cumUnits(s, rev, stop, x, out, func(xs []S, os []D) {
		var acc A
		for i, v := range xs {
			acc += A(v)
			os[i] = D(acc)
		}
	}, func(rows func(yield func(xs []S, os []D)), width int) {
		acc := make([]A, width)
		rows(func(xs []S, os []D) {
			for k, v := range xs {
				acc[k] += A(v)
				os[k] = D(acc[k])
			}
		})
	})
}

// cumComplex scans complex values: sums and products in an A accumulator
// as cumArith does (Go cannot convert between real and complex type
// parameters, hence the separate function), max and min in T.
func cumComplex[T, A elemComplex](op reduceOp, x, out []T, s span3, rev bool, stop stopSignal) {
	switch op {
	case opMax:
		cumScan(x, out, s, rev, stop, maxComplex[T])
		return
	case opMin:
		cumScan(x, out, s, rev, stop, minComplex[T])
		return
	}
	prod := op == opProd
	cumUnits(s, rev, stop, x, out, func(xs, os []T) {
		var acc A
		if prod {
			acc = 1
		}
		for i, v := range xs {
			if prod {
				acc *= A(v)
			} else {
				acc += A(v)
			}
			os[i] = T(acc)
		}
	}, func(rows func(yield func(xs, os []T)), width int) {
		acc := make([]A, width)
		if prod {
			for i := range acc {
				acc[i] = 1
			}
		}
		rows(func(xs, os []T) {
			for k, v := range xs {
				if prod {
					acc[k] *= A(v)
				} else {
					acc[k] += A(v)
				}
				os[k] = T(acc[k])
			}
		})
	})
}

// cumScan is a running max or min: the first element of a line is taken as
// is (equal to folding it into the identity), then op folds in the rest.
func cumScan[T any](x, out []T, s span3, rev bool, stop stopSignal, op func(a, v T) T) {
	cumUnits(s, rev, stop, x, out, func(xs, os []T) {
		acc := xs[0]
		os[0] = acc
		for i := 1; i < len(xs); i++ {
			acc = op(acc, xs[i])
			os[i] = acc
		}
	}, func(rows func(yield func(xs, os []T)), width int) {
		acc := make([]T, 0, width)
		rows(func(xs, os []T) {
			if len(acc) == 0 {
				acc = append(acc, xs...)
			} else {
				for k, v := range xs {
					acc[k] = op(acc[k], v)
				}
			}
			copy(os, acc)
		})
	})
}

// cumUnits runs a scan over every line of x (seen as s) on the pool. When
// the axis is innermost, line gets each contiguous line (a reversed copy
// when rev, so it always scans forwards); otherwise block gets an iterator
// over the rows of one column block, in scan order, and the block width.
func cumUnits[S, D any](s span3, rev bool, stop stopSignal, x []S, out []D,
	line func(xs []S, os []D),
	block func(rows func(yield func(xs []S, os []D)), width int)) {
	n, in := s.n, s.inner
	if in == 1 {
		pool.parallelFor(stop, s.outer, max(1, grainElements/n), func(lo, hi int) {
			var rx []S
			var ro []D
			if rev {
				rx, ro = make([]S, n), make([]D, n)
			}
			for p := lo; p < hi; p++ {
				xs, os := x[p*n:(p+1)*n], out[p*n:(p+1)*n]
				if !rev {
					line(xs, os)
					continue
				}
				for i, v := range xs {
					rx[n-1-i] = v
				}
				line(rx, ro)
				for i := range os {
					os[i] = ro[n-1-i]
				}
			}
		})
		return
	}
	width := min(in, columnWidth)
	chunks := (in + width - 1) / width
	pool.parallelFor(stop, s.outer*chunks, max(1, grainElements/(n*width)), func(lo, hi int) {
		for u := lo; u < hi; u++ {
			p, c := u/chunks, u%chunks
			k0 := c * width
			k1 := min(k0+width, in)
			block(func(yield func(xs []S, os []D)) {
				for j := range n {
					r := j
					if rev {
						r = n - 1 - j
					}
					o := (p*n + r) * in
					yield(x[o+k0:o+k1], out[o+k0:o+k1])
				}
			}, k1-k0)
		}
	})
}
