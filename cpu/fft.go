package cpu

import (
	"sync"
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// The fft kernel (lax.fft; see trace/prims_fft.go for the four types):
// one-dimensional transforms along each of the trailing axes in turn,
// each axis's lines split across the worker pool. Lines are gathered
// fftGroup at a time into scratch, interleaved, and transformed together
// (fftAxis); along an inner axis (stride > 1) that reads each row of the
// array in runs of fftGroup elements rather than one element per cache
// line.
//
// The kernel's scratch (fftGroup lines per worker, and for IRFFT a complex copy
// of the operand, which the transform must not overwrite) is its own, like
// a library FFT's work area; the buffer plan holds only the operand and
// the result.

func init() {
	registerKernel("fft", fftKernel)
	writesEveryElement["fft"] = true
}

// fftGroup is how many neighbouring lines of an inner axis one worker
// gathers and transforms together.
const fftGroup = 8

func fftKernel(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
	kind, _ := trace.ParamAs[trace.Ident](e.Params, "fft_type")
	lengths := e.Params.Ints("fft_lengths")
	if in[0].DType() == trace.Float32 || in[0].DType() == trace.Complex64 || out[0].DType() == trace.Complex64 {
		runFFT[float32](stop, kind, lengths, in[0], out[0])
	} else {
		runFFT[float64](stop, kind, lengths, in[0], out[0])
	}
	return nil
}

func cpxView[F float](b *Buffer) []cpx[F] {
	n := b.Len()
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*cpx[F])(unsafe.Pointer(unsafe.SliceData(b.data))), n)
}

func runFFT[F float](stop stopSignal, kind trace.Ident, lengths []int, x, y *Buffer) {
	if x.Len() == 0 || y.Len() == 0 {
		return
	}
	shape := y.Shape()
	rank := len(shape)
	axes := make([]int, len(lengths))
	for i := range axes {
		axes[i] = rank - len(lengths) + i
	}
	switch kind {
	case trace.FFTForward, trace.FFTInverse:
		inverse := kind == trace.FFTInverse
		dst := cpxView[F](y)
		copy(dst, cpxView[F](x))
		total := 1
		for _, a := range axes {
			fftAxis(stop, dst, shape, a, inverse)
			total *= shape[a]
		}
		if inverse {
			scaleCpx(stop, dst, 1/F(total))
		}
	case trace.FFTRealForward:
		dst := cpxView[F](y)
		rfftLastAxis(stop, view[F](x), dst, lengths[len(lengths)-1])
		for _, a := range axes[:len(axes)-1] {
			fftAxis(stop, dst, shape, a, false)
		}
	case trace.FFTRealInverse:
		src := append([]cpx[F](nil), cpxView[F](x)...)
		total := 1
		for _, a := range axes[:len(axes)-1] {
			fftAxis(stop, src, x.Shape(), a, true)
			total *= shape[a]
		}
		n := lengths[len(lengths)-1]
		irfftLastAxis(stop, src, view[F](y), n, 1/F(total*n))
	}
}

func scaleCpx[F float](stop stopSignal, x []cpx[F], s F) {
	pool.parallelFor(stop, len(x), grainElements, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x[i] = cscale(x[i], s)
		}
	})
}

// fftWork is one worker's scratch: the lines it transforms and the plan's
// work area.
type fftWork[F float] struct{ lines, plan []cpx[F] }

var fftWorkPools sync.Map // reflect-free key: the zero F's size -> *sync.Pool

func getFFTWork[F float](lines, plan int) *fftWork[F] {
	var zero F
	p, _ := fftWorkPools.LoadOrStore(unsafe.Sizeof(zero), &sync.Pool{New: func() any { return &fftWork[F]{} }})
	w := p.(*sync.Pool).Get().(*fftWork[F])
	if cap(w.lines) < lines {
		w.lines = make([]cpx[F], lines)
	}
	if cap(w.plan) < plan {
		w.plan = make([]cpx[F], plan)
	}
	w.lines, w.plan = w.lines[:lines], w.plan[:plan]
	return w
}

func putFFTWork[F float](w *fftWork[F]) {
	var zero F
	p, _ := fftWorkPools.Load(unsafe.Sizeof(zero))
	p.(*sync.Pool).Put(w)
}

// fftAxis transforms every line of x (of shape) along axis, in place,
// unscaled. Lines go in groups of fftGroup neighbours (along the inner
// axes, or consecutive lines of the last axis), gathered interleaved so
// that the plan transforms the group at once (fftPlan.forwardLines);
// transforms long enough to split their own passes, and Bluestein ones,
// go line by line.
func fftAxis[F float](stop stopSignal, x []cpx[F], shape trace.Shape, axis int, inverse bool) {
	n := shape[axis]
	if n <= 1 {
		return
	}
	inner := 1
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	outer := len(x) / (n * inner)
	plan := planFor[F](n)
	if plan.blue != nil || n >= parallelFFTLength {
		fftAxisByLine(stop, plan, x, n, inner, outer, inverse)
		return
	}
	// A group: g lines, line c's element i at x[base + i·step + c·lineStep].
	g, groups := min(fftGroup, inner), 0
	step, lineStep := inner, 1
	groupsPerOuter := (inner + g - 1) / g
	if inner == 1 {
		g = min(fftGroup, outer)
		step, lineStep = 1, n
		groups = (outer + g - 1) / g
	} else {
		groups = outer * groupsPerOuter
	}
	pool.parallelFor(stop, groups, max(1, grainElements/(n*g)), func(lo, hi int) {
		w := getFFTWork[F](g*n, g*n)
		defer putFFTWork(w)
		for gi := lo; gi < hi; gi++ {
			var base, cnt int
			if inner == 1 {
				base, cnt = gi*g*n, min(g, outer-gi*g)
			} else {
				o, first := gi/groupsPerOuter, (gi%groupsPerOuter)*g
				base, cnt = o*n*inner+first, min(g, inner-first)
			}
			lines := w.lines[:n*cnt]
			for i := range n {
				for c := range cnt {
					lines[i*cnt+c] = x[base+i*step+c*lineStep]
				}
			}
			if inverse {
				for i := range lines {
					lines[i].im = -lines[i].im
				}
			}
			plan.forwardLines(lines, w.plan, cnt)
			if inverse {
				for i := range lines {
					lines[i].im = -lines[i].im
				}
			}
			for i := range n {
				for c := range cnt {
					x[base+i*step+c*lineStep] = lines[i*cnt+c]
				}
			}
		}
	})
}

// fftAxisByLine is fftAxis one line at a time, gathered into contiguous
// scratch.
func fftAxisByLine[F float](stop stopSignal, plan *fftPlan[F], x []cpx[F], n, inner, outer int, inverse bool) {
	g := min(fftGroup, inner)
	groupsPerOuter := (inner + g - 1) / g
	pool.parallelFor(stop, outer*groupsPerOuter, max(1, grainElements/(n*g)), func(lo, hi int) {
		w := getFFTWork[F](g*n, plan.scratchLen())
		defer putFFTWork(w)
		for gi := lo; gi < hi; gi++ {
			o, first := gi/groupsPerOuter, (gi%groupsPerOuter)*g
			cnt := min(g, inner-first)
			base := o*n*inner + first
			// gather: line c of the group is w.lines[c*n:(c+1)*n]
			for i := range n {
				row := x[base+i*inner : base+i*inner+cnt]
				for c, v := range row {
					w.lines[c*n+i] = v
				}
			}
			for c := range cnt {
				line := w.lines[c*n : (c+1)*n]
				if inverse {
					plan.inverse(line, w.plan)
				} else {
					plan.forward(line, w.plan)
				}
			}
			for i := range n {
				row := x[base+i*inner : base+i*inner+cnt]
				for c := range row {
					row[c] = w.lines[c*n+i]
				}
			}
		}
	})
}

// rfftLastAxis transforms each real line of length n of x into the n/2+1
// non-negative frequencies in y.
func rfftLastAxis[F float](stop stopSignal, x []F, y []cpx[F], n int) {
	lines, h := len(x)/n, n/2+1
	plan := planFor[F](n)
	pool.parallelFor(stop, lines, max(1, grainElements/n), func(lo, hi int) {
		w := getFFTWork[F](n, plan.scratchLen())
		defer putFFTWork(w)
		for l := lo; l < hi; l++ {
			for i, v := range x[l*n : (l+1)*n] {
				w.lines[i] = cpx[F]{v, 0}
			}
			plan.forward(w.lines, w.plan)
			copy(y[l*h:(l+1)*h], w.lines[:h])
		}
	})
}

// irfftLastAxis turns each line of n/2+1 frequencies of x into n real
// values in y, scaled by scale: the Hermitian spectrum is completed with
// conjugates, and the imaginary parts of the zero (and, n even, Nyquist)
// terms are dropped, as a complex-to-real transform does.
func irfftLastAxis[F float](stop stopSignal, x []cpx[F], y []F, n int, scale F) {
	h := n/2 + 1
	lines := len(y) / n
	plan := planFor[F](n)
	pool.parallelFor(stop, lines, max(1, grainElements/n), func(lo, hi int) {
		w := getFFTWork[F](n, plan.scratchLen())
		defer putFFTWork(w)
		for l := lo; l < hi; l++ {
			src := x[l*h : (l+1)*h]
			line := w.lines
			copy(line[:h], src)
			for k := h; k < n; k++ {
				line[k] = cconj(src[n-k])
			}
			line[0].im = 0
			if n%2 == 0 {
				line[n/2].im = 0
			}
			plan.inverse(line, w.plan)
			out := y[l*n : (l+1)*n]
			for i := range out {
				out[i] = line[i].re * scale
			}
		}
	})
}
