package cpu

import (
	"math"
	"math/cmplx"

	"github.com/jaxsh/jaxsh/trace"
)

// The lax.linalg kernels (trace/prims_linalg.go) run gonum's LAPACK, which
// is pure Go, float64 and row-major like our buffers, except where this
// package has measured faster routines of its own (RATIONALE.md: blocked
// Cholesky, LU and triangular solves, eigh's reduction and iteration,
// svd's iteration and orthogonal factors). Each matrix of a
// batch is copied into float64 scratch (float32 operands are widened and
// their results rounded once), factored there, and copied out; the
// matrices of a batch run in parallel. float64 operands are read where
// they are, not copied: the kernels treat j.in as read-only, and write
// their results to scratch that is copied out only after a matrix's
// operands have been read (so a result placed over an operand is safe).

//
// Complex operands go to hand-written kernels (linalg_complex*.go):
// gonum's LAPACK has no complex routines (RATIONALE.md in this package
// says why and how they are checked). Their matrices are widened to
// complex128 the same way.

func init() {
	registerKernel("cholesky", linalgKernel(choleskyOne, choleskyComplex))
	registerKernel("lu", linalgKernel(luOne, luComplex))
	registerKernel("qr", linalgKernel(qrOne, qrComplex))
	registerKernel("eigh", linalgKernel(nanUnlessFinite(eighOne), nanUnlessFinite(eighComplex)))
	registerKernel("eig", linalgKernel(nanUnlessFinite(eigOne), nanUnlessFinite(eigComplex)))
	registerKernel("svd", linalgKernel(nanUnlessFinite(svdOne), nanUnlessFinite(svdComplex)))
	registerKernel("triangular_solve", linalgKernel(triangularSolveOne, triangularSolveComplex))
}

// A matrixJob is one matrix of a batch: its operands, widened to float64,
// and its results, written by the decomposition and rounded on the way
// out. Integer results (lu's pivots) are ints, complex ones (eig's) are
// complex128.
type matrixJob struct {
	params trace.Params
	in     []matrix
	out    []matrix
}

// A matrix is one batch element of an operand or result: rows×cols values
// (a vector has rows = 1).
type matrix struct {
	rows, cols int
	f          []float64
	c          []complex128
	i          []int
}

type matrixFunc func(j *matrixJob)

// linalgKernel runs fn (real operands) or complexFn (complex ones) on every
// batch element of the equation's operands.
func linalgKernel(realFn, complexFn matrixFunc) kernelFunc {
	return func(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
		fn, isComplex := realFn, in[0].DType().IsComplex()
		if isComplex {
			fn = complexFn
		}
		batchRank := len(in[0].Shape()) - 2
		batch := 1
		for _, d := range in[0].Shape()[:batchRank] {
			batch *= d
		}
		if batch == 0 {
			return nil
		}
		dims := func(b *Buffer) (int, int) {
			s := b.Shape()[batchRank:]
			switch len(s) {
			case 0:
				return 1, 1
			case 1:
				return 1, s[0]
			}
			return s[0], s[1]
		}
		work := 1
		for _, b := range in {
			r, c := dims(b)
			work = max(work, r*c*max(r, c))
		}
		pool.parallelFor(stop, batch, max(1, grainElements/work), func(lo, hi int) {
			j := &matrixJob{params: e.Params, in: make([]matrix, len(in)), out: make([]matrix, len(out))}
			for i, b := range in {
				r, c := dims(b)
				switch {
				case isComplex:
					j.in[i] = matrix{rows: r, cols: c, c: make([]complex128, r*c)}
				case b.DType() == trace.Float64:
					// read in place below: no kernel writes its operands
					j.in[i] = matrix{rows: r, cols: c}
				default:
					j.in[i] = matrix{rows: r, cols: c, f: make([]float64, r*c)}
				}
			}
			for i, b := range out {
				r, c := dims(b)
				m := matrix{rows: r, cols: c}
				switch {
				case b.DType().IsComplex():
					m.c = make([]complex128, r*c)
				case b.DType().IsInteger():
					m.i = make([]int, r*c)
				default:
					m.f = make([]float64, r*c)
				}
				j.out[i] = m
			}
			for k := lo; k < hi; k++ {
				for i, b := range in {
					switch {
					case isComplex:
						readComplexMatrix(b, k, j.in[i].c)
					case b.DType() == trace.Float64:
						size := j.in[i].rows * j.in[i].cols
						j.in[i].f = view[float64](b)[k*size : (k+1)*size]
					default:
						readMatrix(b, k, j.in[i].f)
					}
				}
				fn(j)
				for i, b := range out {
					writeMatrix(b, k, j.out[i])
				}
			}
		})
		return nil
	}
}

func readMatrix(b *Buffer, k int, dst []float64) {
	n := len(dst)
	switch b.DType() {
	case trace.Float32:
		for i, v := range view[float32](b)[k*n : (k+1)*n] {
			dst[i] = float64(v)
		}
	default:
		copy(dst, view[float64](b)[k*n:(k+1)*n])
	}
}

func readComplexMatrix(b *Buffer, k int, dst []complex128) {
	n := len(dst)
	switch b.DType() {
	case trace.Complex64:
		for i, v := range view[complex64](b)[k*n : (k+1)*n] {
			dst[i] = complex128(v)
		}
	default:
		copy(dst, view[complex128](b)[k*n:(k+1)*n])
	}
}

func writeMatrix(b *Buffer, k int, m matrix) {
	n := m.rows * m.cols
	switch b.DType() {
	case trace.Float32:
		for i, v := range m.f {
			view[float32](b)[k*n+i] = float32(v)
		}
	case trace.Float64:
		copy(view[float64](b)[k*n:(k+1)*n], m.f)
	case trace.Int32:
		for i, v := range m.i {
			view[int32](b)[k*n+i] = int32(v)
		}
	case trace.Complex64:
		for i, v := range m.c {
			view[complex64](b)[k*n+i] = complex64(v)
		}
	case trace.Complex128:
		copy(view[complex128](b)[k*n:(k+1)*n], m.c)
	}
}

// nanUnlessFinite runs an iterative decomposition only on a matrix of
// finite values; a NaN or infinity anywhere gives NaN results, as
// JAX's do (gonum's scaling routines refuse NaN with a panic, and an
// iteration on NaNs would only exhaust its sweeps).
func nanUnlessFinite(fn matrixFunc) matrixFunc {
	return func(j *matrixJob) {
		finite := true
		for _, x := range j.in[0].f {
			finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0)
		}
		for _, z := range j.in[0].c {
			finite = finite && !cmplx.IsNaN(z) && !cmplx.IsInf(z)
		}
		if finite {
			fn(j)
			return
		}
		for _, o := range j.out {
			fillNaN(o.f)
			fillComplexNaN(o.c)
		}
	}
}

func fillNaN(x []float64) {
	for i := range x {
		x[i] = math.NaN()
	}
}
