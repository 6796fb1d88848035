package cpu

import "strconv"

// Structural kernels move elements without arithmetic. Each one describes
// where an element comes from and where it goes as integer offsets that are
// linear in the element's multi-index, and lets one engine, strideWalk, turn
// that description into runs along the innermost dimension. Kernels never
// divide per element: a walk divides once per chunk to find where the chunk
// starts and then increments a multi-dimensional counter.
//
// Data moves by element size, not dtype: a kernel views its buffers as
// uint8, uint16, uint32, uint64 or [2]uint64 (see moveBuffer), so one
// generic instantiation serves every dtype of that size.

// walkVectors is how many stride vectors a walk carries: a destination and
// a source, plus, for gather and scatter, the position in the batch of
// index vectors.
const walkVectors = 3

// walkOffsets are the offsets of the first element of a run, one per stride
// vector.
type walkOffsets = [walkVectors]int

// A strideWalk visits the multi-indices of shape in row-major order. For
// each stride vector v it keeps off[v] + Σ_d index[d]·strides[v][d]; a
// vector left nil counts as all zeros.
type strideWalk struct {
	shape   []int
	strides [walkVectors][]int
	off     walkOffsets
	stop    stopSignal // for parallel: the program's, where the walk is long enough to matter
}

// A runFunc handles rows runs of n elements each. off holds the offsets of
// the first element of the first run; elements of a run follow one another
// at the walk's innermost strides, and runs at its second-innermost strides
// (see steps), which the function captured when it was built. Handing over
// whole blocks of rows keeps the per-row work in the kernel's own tight
// loop: with a call per row, a gather of short rows from a large table
// spends its time in the walk, and the processor overlaps far fewer of the
// rows' cache misses.
type runFunc func(off walkOffsets, n, rows int)

// runSteps are how far each vector's offset moves per element of a run
// (inner) and per run (outer).
type runSteps struct{ inner, outer walkOffsets }

// steps returns the strides a runFunc of the simplified walk w uses.
func (w *strideWalk) steps() runSteps {
	var st runSteps
	last := len(w.shape) - 1
	for v := range walkVectors {
		st.inner[v] = w.stride(v, last)
		if last > 0 {
			st.outer[v] = w.stride(v, last-1)
		}
	}
	return st
}

// nextRow moves offsets o to the next run.
func (st *runSteps) nextRow(o *walkOffsets) {
	for v := range walkVectors {
		o[v] += st.outer[v]
	}
}

// rowMajorStrides are the element strides of a contiguous array.
func rowMajorStrides(shape []int) []int {
	strides := make([]int, len(shape))
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		strides[d] = s
		s *= shape[d]
	}
	return strides
}

func (w *strideWalk) size() int {
	n := 1
	for _, d := range w.shape {
		n *= d
	}
	return n
}

func (w *strideWalk) stride(v, d int) int {
	if w.strides[v] == nil {
		return 0
	}
	return w.strides[v][d]
}

// innerStride is vector v's stride along the innermost dimension of a
// simplified walk.
func (w *strideWalk) innerStride(v int) int { return w.stride(v, len(w.shape)-1) }

// simplified returns an equivalent walk with size-1 dimensions dropped and
// neighbouring dimensions merged wherever every vector steps through them
// as through one longer dimension, so runs are as long as possible (a
// reshape-like copy becomes a single run). The result has rank at least 1.
func (w strideWalk) simplified() strideWalk {
	var out strideWalk
	out.off, out.stop = w.off, w.stop
	for v := range walkVectors {
		if w.strides[v] != nil {
			out.strides[v] = make([]int, 0, len(w.shape))
		}
	}
	for d, n := range w.shape {
		if n == 1 {
			continue
		}
		if k := len(out.shape) - 1; k >= 0 && w.mergesInto(&out, k, d) {
			out.shape[k] *= n
			for v := range walkVectors {
				if out.strides[v] != nil {
					out.strides[v][k] = w.strides[v][d]
				}
			}
			continue
		}
		out.shape = append(out.shape, n)
		for v := range walkVectors {
			if out.strides[v] != nil {
				out.strides[v] = append(out.strides[v], w.strides[v][d])
			}
		}
	}
	if len(out.shape) == 0 { // a single element
		out.shape = []int{1}
		for v := range walkVectors {
			if out.strides[v] != nil {
				out.strides[v] = []int{0}
			}
		}
	}
	return out
}

// mergesInto reports whether w's dimension d continues dimension k of out:
// stepping k once moves every vector as far as stepping d through its whole
// extent.
func (w *strideWalk) mergesInto(out *strideWalk, k, d int) bool {
	for v := range walkVectors {
		if out.strides[v] != nil && out.strides[v][k] != w.strides[v][d]*w.shape[d] {
			return false
		}
	}
	return true
}

// maxInlineRank is the rank up to which a walk keeps its counter on the
// stack.
const maxInlineRank = 8

// run calls fn on the runs covering elements [lo, hi) of the walk, in
// order: whole rows of the innermost dimension in blocks, partial rows at
// the ends of the range one at a time. It only reads w, so chunks of one
// walk may run concurrently.
func (w *strideWalk) run(lo, hi int, fn runFunc) {
	if lo >= hi {
		return
	}
	rank := len(w.shape)
	var inline [maxInlineRank]int
	idx := inline[:0]
	if rank <= maxInlineRank {
		idx = inline[:rank]
	} else {
		idx = make([]int, rank)
	}
	off := w.off
	rem := lo
	for d := rank - 1; d >= 0; d-- {
		i := rem % w.shape[d]
		rem /= w.shape[d]
		idx[d] = i
		for v := range walkVectors {
			off[v] += i * w.stride(v, d)
		}
	}
	last := rank - 1
	for lo < hi {
		var moved int // the dimension whose counter advanced
		if n := w.shape[last]; idx[last] == 0 && last > 0 && hi-lo >= n {
			rows := min(w.shape[last-1]-idx[last-1], (hi-lo)/n)
			fn(off, n, rows)
			lo += rows * n
			moved = last - 1
			idx[moved] += rows
			for v := range walkVectors {
				off[v] += rows * w.stride(v, moved)
			}
		} else {
			n = min(n-idx[last], hi-lo)
			fn(off, n, 1)
			lo += n
			moved = last
			idx[moved] += n
			for v := range walkVectors {
				off[v] += n * w.stride(v, moved)
			}
		}
		for d := moved; d > 0 && idx[d] == w.shape[d]; d-- {
			idx[d] = 0
			idx[d-1]++
			for v := range walkVectors {
				off[v] += w.stride(v, d-1) - w.shape[d]*w.stride(v, d)
			}
		}
	}
}

// parallel runs the whole walk on the worker pool.
func (w *strideWalk) parallel(fn runFunc) {
	pool.parallelFor(w.stop, w.size(), grainElements, func(lo, hi int) { w.run(lo, hi, fn) })
}

// moveBuffer copies elements of src into dst along w: vector 0 holds
// offsets into dst, vector 1 offsets into src. The buffers share an element
// size.
func moveBuffer(dst, src *Buffer, w strideWalk) {
	switch dst.DType().Size() {
	case 1:
		moveElems(view[uint8](dst), view[uint8](src), w)
	case 2:
		moveElems(view[uint16](dst), view[uint16](src), w)
	case 4:
		moveElems(view[uint32](dst), view[uint32](src), w)
	case 8:
		moveElems(view[uint64](dst), view[uint64](src), w)
	case 16:
		moveElems(view[[2]uint64](dst), view[[2]uint64](src), w)
	default:
		panic("cpu: no element layout of size " + strconv.Itoa(dst.DType().Size()))
	}
}

func moveElems[E any](dst, src []E, w strideWalk) {
	if w.size() == 0 {
		return
	}
	w = w.simplified()
	if k, ok := w.transposeTileDim(); ok {
		transposeTiled(dst, src, &w, k)
		return
	}
	st := w.steps()
	ds, ss := st.inner[0], st.inner[1]
	var run runFunc
	switch {
	case ds == 1 && ss == 1:
		run = func(o walkOffsets, n, rows int) {
			for range rows {
				copy(dst[o[0]:o[0]+n], src[o[1]:o[1]+n])
				st.nextRow(&o)
			}
		}
	case ds == 1 && ss == 0: // broadcasting one source element along the run
		run = func(o walkOffsets, n, rows int) {
			for range rows {
				d, v := dst[o[0]:o[0]+n], src[o[1]]
				for i := range d {
					d[i] = v
				}
				st.nextRow(&o)
			}
		}
	default:
		run = func(o walkOffsets, n, rows int) {
			for range rows {
				d, s := o[0], o[1]
				for range n {
					dst[d] = src[s]
					d += ds
					s += ss
				}
				st.nextRow(&o)
			}
		}
	}
	w.parallel(run)
}

// copyBuffer copies src's bytes into dst, which has at least as many.
func copyBuffer(dst, src *Buffer) {
	const grainBytes = grainElements * 8
	pool.parallelFor(nil, len(src.data), grainBytes, func(lo, hi int) {
		copy(dst.data[lo:hi], src.data[lo:hi])
	})
}

// fillBuffer sets every element of dst to the single element of value, a
// buffer of the same element size.
func fillBuffer(dst, value *Buffer) {
	switch dst.DType().Size() {
	case 1:
		fillElems(view[uint8](dst), view[uint8](value)[0])
	case 2:
		fillElems(view[uint16](dst), view[uint16](value)[0])
	case 4:
		fillElems(view[uint32](dst), view[uint32](value)[0])
	case 8:
		fillElems(view[uint64](dst), view[uint64](value)[0])
	case 16:
		fillElems(view[[2]uint64](dst), view[[2]uint64](value)[0])
	default:
		panic("cpu: no element layout of size " + strconv.Itoa(dst.DType().Size()))
	}
}

func fillElems[E any](dst []E, v E) {
	pool.parallelFor(nil, len(dst), grainElements, func(lo, hi int) {
		d := dst[lo:hi]
		for i := range d {
			d[i] = v
		}
	})
}
