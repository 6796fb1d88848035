package cpu

import (
	"fmt"
	"slices"
	"sync"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// ReductionKernels: one or more reductions over the same axes of operands
// of one shape, each operand an expression the kernel computes block by
// block (a window) instead of reading it from memory.
//
// The first stage of reduce.go's plan (the innermost group of reduced
// dimensions) runs here on the windows, with the very trees reduce.go
// uses, calling its own functions wherever a line or subtree fits in a
// window: lines by the reducer's line function or pairwiseTree's leaves,
// rows folded in blocks of 16 combined by halves. The split points do not
// depend on how the work is spread over workers, so a fused reduction
// equals the unfused one bit for bit. Later stages (reduced dimensions
// separated by kept ones) reduce the first stage's result with reduce.go's
// own code.

type reductionKernel struct {
	prog    *fusedProgram
	roots   []int          // slot of each reduction's operand
	reds    []stageReducer // prototypes; each worker clones them
	ops     []reduceOp
	layouts []trace.DType // each operand's layout: float32 for 16-bit floats
	stages  []span3
	empty   bool // the operands have no elements: outputs are identities
	workers sync.Pool
}

func compileReduction(k *jit.Kernel) (fusedRunner, error) {
	c, err := newFusedCompiler(k)
	if err != nil {
		return nil, err
	}
	var axes []int
	var operands []trace.Atom
	rk := &reductionKernel{}
	for j, v := range k.Out {
		e := c.producer[v]
		if e == nil || jit.FusionClassOf(e.Prim) != jit.FuseReduce || !e.In[0].Aval().Shape.Equal(k.Shape) {
			return nil, fmt.Errorf("cpu: reduction kernel output %v is not a reduction of a %s operand", v, k.Shape)
		}
		a := slices.Sorted(slices.Values(e.Params.Ints("axes")))
		if j == 0 {
			axes = a
		} else if !slices.Equal(a, axes) {
			return nil, fmt.Errorf("cpu: reduction kernel reduces over axes %v and %v", axes, a)
		}
		op, ok := reduceOps[e.Prim.Name]
		if !ok {
			return nil, fmt.Errorf("cpu: no fused form of %s", e.Prim.Name)
		}
		layout := preferredLayout(e.In[0].Aval().DType)
		red, err := newStageReducer(op, layout)
		if err != nil {
			return nil, err
		}
		operands = append(operands, e.In[0])
		rk.ops, rk.layouts, rk.reds = append(rk.ops, op), append(rk.layouts, layout), append(rk.reds, red)
	}
	if k.Shape.Size() == 0 {
		rk.empty = true
		return rk, nil
	}
	m := c.identityMap(k.Shape)
	rk.stages = reduceStages(k.Shape, axes)
	if len(rk.stages) == 0 {
		// Every reduced dimension has size 1: the results are the operands,
		// in the same order.
		slots := make([]int, len(operands))
		for j, a := range operands {
			if slots[j], err = c.naturalValue(a, m); err != nil {
				return nil, err
			}
		}
		return c.loopProgram(slots, k.Out)
	}
	for j, a := range operands {
		s, err := c.value(a, m, rk.layouts[j])
		if err != nil {
			return nil, err
		}
		rk.roots = append(rk.roots, s)
	}
	// Windows must hold a whole row of a column block (reduce.go's
	// columnWidth).
	rk.prog = c.assemble(rk.roots, columnWidth, nil)
	return rk, nil
}

// A reductionWorker is one worker's machine state, accumulators, and the
// window of operand positions its root slots currently hold.
type reductionWorker struct {
	s            *fusedState
	reds         []stageReducer
	winLo, winHi int
	stop         stopSignal // the program's, for the pool work it starts
}

func (k *reductionKernel) acquire(in, out []*Buffer, stop stopSignal) *reductionWorker {
	w, _ := k.workers.Get().(*reductionWorker)
	if w == nil {
		w = &reductionWorker{reds: make([]stageReducer, len(k.reds))}
		for j, r := range k.reds {
			w.reds[j] = r.clone()
		}
	}
	w.s = k.prog.acquire(in, out, k.prog.blockLen)
	w.winLo, w.winHi = 0, 0
	w.stop = stop
	return w
}

func (k *reductionKernel) release(w *reductionWorker) {
	k.prog.release(w.s)
	w.s = nil
	k.workers.Put(w)
}

// fetch makes the window cover operand positions [lo, hi), computing a new
// window from lo (as far as limit allows) when it does not.
func (w *reductionWorker) fetch(lo, hi, limit int) {
	if lo >= w.winLo && hi <= w.winHi {
		return
	}
	n := min(w.s.prog.blockLen, limit-lo)
	w.s.runBlock(lo, n)
	w.winLo, w.winHi = lo, lo+n
}

// root is reduction j's operand at positions [lo, hi) of the window.
func (w *reductionWorker) root(k *reductionKernel, j, lo, hi int) []byte {
	size := k.layouts[j].Size()
	return w.s.slots[k.roots[j]][(lo-w.winLo)*size : (hi-w.winLo)*size]
}

func (k *reductionKernel) run(in, out []*Buffer, stop stopSignal) {
	if out[0].Len() == 0 {
		return
	}
	if k.empty {
		for j, op := range k.ops {
			fillReduceIdentity(op, out[j])
		}
		return
	}
	first := k.stages[0]
	dsts := make([][]byte, len(out))
	for j, b := range out {
		if len(k.stages) == 1 && k.layouts[j] == b.DType() {
			dsts[j] = b.data
		} else {
			dsts[j] = alignedBytes(first.outer * first.inner * k.layouts[j].Size())
		}
	}
	if first.inner == 1 {
		k.reduceLines(first, in, out, dsts, stop)
	} else {
		k.foldRows(first, in, out, dsts, stop)
	}
	for j, b := range out {
		if len(k.stages) > 1 || k.layouts[j] != b.DType() {
			k.reds[j].finish(dsts[j], k.stages[1:], b)
		}
	}
}

// reduceLines reduces contiguous lines of st.n positions. Lines that fit
// in a window are reduced many per window by the reducer's own line
// function. Longer ones follow pairwiseTree: a balanced tree over leaves of
// pairwiseLeaf elements, each subtree that fits in a window reduced by
// pairwiseLeaves itself, larger ones split at the middle leaf (on two
// workers above parallelLine), the short last leaf added at the end.
func (k *reductionKernel) reduceLines(st span3, in, out []*Buffer, dsts [][]byte, stop stopSignal) {
	n, bl := st.n, k.prog.blockLen
	if n <= bl {
		per := bl / n
		pool.parallelFor(stop, st.outer, max(1, grainElements/n), func(lo, hi int) {
			w := k.acquire(in, out, stop)
			for q := lo; q < hi; q += per {
				count := min(per, hi-q)
				w.s.runBlock(q*n, count*n)
				for j, r := range w.reds {
					r.lines(w.s.slots[k.roots[j]], n, count, dsts[j], q)
				}
			}
			k.release(w)
		})
		return
	}
	pool.parallelFor(stop, st.outer, 1, func(lo, hi int) {
		w := k.acquire(in, out, stop)
		for q := lo; q < hi; q++ {
			base := q * n
			full := n / pairwiseLeaf
			end := base + full*pairwiseLeaf
			k.leafTree(w, base, 0, full, end, 0)
			if end < base+n {
				w.fetch(end, base+n, base+n)
				for j, r := range w.reds {
					r.restLeaf(w.root(k, j, end, base+n), 1)
					r.combineLine(0, r, 1)
				}
			}
			for j, r := range w.reds {
				r.storeLine(0, dsts[j], q)
			}
		}
		k.release(w)
	})
}

// leafTree reduces full leaves [lo, hi) of the line at base into level l;
// windows may run on up to position limit.
func (k *reductionKernel) leafTree(w *reductionWorker, base, lo, hi, limit, l int) {
	if (hi-lo)*pairwiseLeaf <= k.prog.blockLen {
		from, to := base+lo*pairwiseLeaf, base+hi*pairwiseLeaf
		w.fetch(from, to, limit)
		for j, r := range w.reds {
			r.leaves(w.root(k, j, from, to), hi-lo, l)
		}
		return
	}
	mid := lo + (hi-lo)/2
	if (hi-lo)*pairwiseLeaf > parallelLine {
		other := k.inParallel(w, func(w *reductionWorker) { k.leafTree(w, base, lo, mid, base+mid*pairwiseLeaf, l) },
			func(o *reductionWorker) { k.leafTree(o, base, mid, hi, base+hi*pairwiseLeaf, 0) })
		for j, r := range w.reds {
			r.combineLine(l, other.reds[j], 0)
		}
		k.release(other)
		return
	}
	k.leafTree(w, base, lo, mid, limit, l)
	k.leafTree(w, base, mid, hi, limit, l+1)
	for _, r := range w.reds {
		r.combineLine(l, r, l+1)
	}
}

// inParallel runs left on w and right on a second worker, on the pool,
// and returns the second worker (for the caller to combine and release).
func (k *reductionKernel) inParallel(w *reductionWorker, left, right func(*reductionWorker)) *reductionWorker {
	other := k.acquire(w.s.in, w.s.out, w.stop)
	pool.parallelFor(w.stop, 2, 1, func(a, b int) {
		for i := a; i < b; i++ {
			if i == 0 {
				left(w)
			} else {
				right(other)
			}
		}
	})
	return other
}

// rowBlock is one column block of a row-folding stage: row r holds width
// positions from base + r·stride.
type rowBlock struct {
	base, stride, width int
}

// foldRows folds rows of st.inner positions over st.n, in column blocks of
// at most columnWidth, as reduceSpan does.
func (k *reductionKernel) foldRows(st span3, in, out []*Buffer, dsts [][]byte, stop stopSignal) {
	width := min(st.inner, columnWidth)
	chunks := (st.inner + width - 1) / width
	units := st.outer * chunks
	pool.parallelFor(stop, units, max(1, grainElements/(st.n*width)), func(lo, hi int) {
		w := k.acquire(in, out, stop)
		for u := lo; u < hi; u++ {
			p, c := u/chunks, u%chunks
			k0 := c * width
			b := rowBlock{base: p*st.n*st.inner + k0, stride: st.inner, width: min(width, st.inner-k0)}
			k.rowTree(w, b, 0, st.n, st.n, 0, units < 2*pool.size)
			for j, r := range w.reds {
				r.storeRows(0, dsts[j], p*st.inner+k0, b.width)
			}
		}
		k.release(w)
	})
}

// rowTree folds rows [lo, hi) into level row l: blocks of up to
// pairwiseRows rows left to right from the identity, combined by halves
// (rowFold.tree); with parallel, large halves go to two workers.
func (k *reductionKernel) rowTree(w *reductionWorker, b rowBlock, lo, hi, limit, l int, parallel bool) {
	mid := lo + (hi-lo)/2
	switch {
	case parallel && (hi-lo)*b.width >= 2*parallelLine && hi-lo >= 2:
		other := k.inParallel(w, func(w *reductionWorker) { k.rowTree(w, b, lo, mid, mid, l, true) },
			func(o *reductionWorker) { k.rowTree(o, b, mid, hi, hi, 0, true) })
		for j, r := range w.reds {
			r.combineRows(l, other.reds[j], 0, b.width)
		}
		k.release(other)
	case hi-lo <= pairwiseRows:
		for i := lo; i < hi; {
			rows := w.fetchRows(b, i, hi, limit)
			for j, r := range w.reds {
				at := b.base + i*b.stride
				r.foldRows(w.root(k, j, at, at+(rows-1)*b.stride+b.width), rows, b.width, l, i == lo)
			}
			i += rows
		}
	default:
		k.rowTree(w, b, lo, mid, limit, l, false)
		k.rowTree(w, b, mid, hi, limit, l+1, false)
		for _, r := range w.reds {
			r.combineRows(l, r, l+1, b.width)
		}
	}
}

// fetchRows makes the window hold row i and as many of the rows up to hi
// as it can (rows are contiguous only when a block spans whole rows), and
// says how many it holds.
func (w *reductionWorker) fetchRows(b rowBlock, i, hi, limit int) int {
	at := b.base + i*b.stride
	if b.width != b.stride {
		w.fetch(at, at+b.width, at+b.width)
		return 1
	}
	per := w.s.prog.blockLen / b.width
	w.fetch(at, at+b.width, b.base+min(limit, i+per)*b.stride)
	return min(hi-i, (w.winHi-at)/b.width)
}
