package cpu

import (
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Reductions in fused kernels, and the typed accumulators they share with
// ReductionKernels (fused_reduction.go).
//
// A small reduction (at most jit.SmallReduction elements per result)
// inside a loop is unrolled at compile time: its operand is evaluated at
// each reduced position (a constant offset in the index map, so no
// division), and the values are combined elementwise over the block in
// exactly the order reduce.go's kernel uses for that geometry: stage by
// stage, innermost group of reduced dimensions first; a stage over
// contiguous lines follows the line reduction (pairwise float sums and
// products: eight interleaved partial sums from 8 elements on; others
// left to right), a stage with kept dimensions inside it folds rows left to
// right from the identity. So fused and unfused results are equal bit for
// bit, not just within an ulp.

var reduceOps = map[string]reduceOp{
	"reduce_sum": opSum, "reduce_prod": opProd, "reduce_max": opMax,
	"reduce_min": opMin, "reduce_and": opAnd, "reduce_or": opOr,
}

// A reduceGroup is a run of reduced dimensions that reduce.go merges into
// one stage; line says no kept dimension of size > 1 lies inside it, so
// the stage reduces contiguous lines rather than folding rows.
type reduceGroup struct {
	n    int
	line bool
}

// reduceGroups lists the stages reduceStages plans for shape and axes,
// outermost first.
func reduceGroups(shape []int, axes []int) []reduceGroup {
	var gs []reduceGroup
	lastReduced := false
	for d, n := range shape {
		if n == 1 {
			continue
		}
		reduced := false
		for _, a := range axes {
			reduced = reduced || a == d
		}
		switch {
		case !reduced:
			for i := range gs {
				gs[i].line = false
			}
		case lastReduced:
			gs[len(gs)-1].n *= n
		default:
			gs = append(gs, reduceGroup{n: n, line: true})
		}
		lastReduced = reduced
	}
	return gs
}

func (c *fusedCompiler) smallReduce(e *trace.Eqn, m ixmap) (int, error) {
	op, ok := reduceOps[e.Prim.Name]
	if !ok {
		return 0, fmt.Errorf("cpu: no fused form of %s", e.Prim.Name)
	}
	x := e.In[0].Aval()
	axes := slices.Sorted(slices.Values(e.Params.Ints("axes")))
	layout := preferredLayout(x.DType)
	red, err := newStageReducer(op, layout)
	if err != nil {
		return 0, err
	}
	// The reduced positions, row-major over the reduced dimensions.
	var extents []int
	count := 1
	for _, a := range axes {
		extents = append(extents, x.Shape[a])
		count *= x.Shape[a]
	}
	if count > jit.SmallReduction {
		return 0, fmt.Errorf("cpu: %s of %d elements per result is not a small reduction", e.Prim.Name, count)
	}
	if count == 0 {
		return c.constSlot(layout, red.identity()), nil
	}
	vals := make([]int, count)
	pos := make([]int, len(axes))
	for i := range vals {
		om, j, r := make(ixmap, x.Rank()), 0, 0
		for d := range om {
			if r < len(axes) && axes[r] == d {
				om[d] = constForm(pos[r])
				r++
			} else {
				om[d] = m[j]
				j++
			}
		}
		if vals[i], err = c.value(e.In[0], om, layout); err != nil {
			return 0, err
		}
		for r := len(pos) - 1; r >= 0; r-- {
			if pos[r]++; pos[r] < extents[r] {
				break
			}
			pos[r] = 0
		}
	}
	groups := reduceGroups(x.Shape, axes)
	if len(groups) == 0 {
		return vals[0], nil // every reduced dimension has size 1: a copy
	}
	for g := len(groups) - 1; g >= 0; g-- {
		n := groups[g].n
		next := make([]int, len(vals)/n)
		for q := range next {
			next[q] = c.reduceRun(vals[q*n:(q+1)*n], groups[g].line, op, red, layout)
		}
		vals = next
	}
	out := vals[0]
	if isHalf(x.DType) {
		c.emit(&roundInstr{slot: out, dt: x.DType}, []int{out}, nil, c.inv[out])
	}
	return out, nil
}

// reduceRun emits the combination of vals (one slot per reduced element,
// in order) as reduce.go's stage of that kind would compute it. Row stages
// fold from the identity (rowFold.sequential); lines of order-free
// operations fold left to right; pairwise sums and products follow their
// leaf functions for short lines (sumLeaf, prodLeaf in reduce_pairwise.go:
// a line of at most jit.SmallReduction elements is one leaf), step for
// step. TestFusedSmallReductionOrder checks this against the kernel for
// every dtype and length.
func (c *fusedCompiler) reduceRun(vals []int, line bool, op reduceOp, red stageReducer, layout trace.DType) int {
	rows := red.rowsBytes()
	comb := func(a, b int) int {
		s := c.newSlot(layout, c.inv[a] && c.inv[b])
		c.emit(&combineInstr{rows: rows, a: a, b: b, dst: s}, []int{a, b}, []int{s}, c.inv[s])
		return s
	}
	fold := func(acc int, vs []int) int {
		for _, v := range vs {
			acc = comb(acc, v)
		}
		return acc
	}
	identity := func() int { return c.constSlot(layout, red.identity()) }
	switch {
	case !line:
		return fold(identity(), vals)
	case !red.pairwise():
		return fold(vals[0], vals[1:])
	case op == opProd:
		// Eight partial products from 1 over whole groups of eight, then
		// ((p0 p1)(p2 p3))((p4 p5)(p6 p7)), then the rest in order. The
		// products start from 1 literally: for complex numbers 1·x can
		// differ from x in the signs of zeros.
		n8 := len(vals) / 8 * 8
		if n8 == 0 {
			return fold(identity(), vals)
		}
		p := make([]int, 8)
		for j := range p {
			p[j] = comb(identity(), vals[j])
		}
		for i := 8; i < n8; i += 8 {
			for j := range p {
				p[j] = comb(p[j], vals[i+j])
			}
		}
		r := comb(comb(comb(p[0], p[1]), comb(p[2], p[3])), comb(comb(p[4], p[5]), comb(p[6], p[7])))
		return fold(r, vals[n8:])
	}
	// Sums: 4L partial sums (L lanes of a 32-byte vector) over whole rows
	// of 4L, combined lane-wise and then by halves, then the rest in order,
	// all from +0.0, then sumInexactLine's + 0.
	lanes := red.lanes()
	width := 4 * lanes
	nf := len(vals) / width * width
	if nf == 0 {
		return comb(fold(identity(), vals), identity())
	}
	p := slices.Clone(vals[:width])
	for i := width; i < nf; i += width {
		for j := range p {
			p[j] = comb(p[j], vals[i+j])
		}
	}
	for j := range lanes {
		p[j] = comb(comb(p[j], p[lanes+j]), comb(p[2*lanes+j], p[3*lanes+j]))
	}
	for half := lanes / 2; half >= 1; half /= 2 {
		for j := range half {
			p[j] = comb(p[j], p[j+half])
		}
	}
	return comb(fold(p[0], vals[nf:]), identity())
}

// roundInstr rounds a widened 16-bit float value in place: a reduction of
// float16 or bfloat16 accumulates in float32 and rounds once, as the
// reduction kernel does.
type roundInstr struct {
	slot int
	dt   trace.DType
}

func (r *roundInstr) run(s *fusedState) { roundHalfRun(runAs[float32](s.slots[r.slot]), r.dt) }

// A stageReducer is one reduction's accumulator for one element type, with
// the operations fused reductions need: the identity and elementwise fold
// for small reductions, and for a ReductionKernel's first stage the line
// reductions and row folds of reduce.go applied to windows its operand
// expression computes, with per-level partial results (level slots) for
// the trees above the windows, and the later stages on the first one's
// result.
type stageReducer interface {
	identity() []byte
	rowsBytes() func(acc, x []byte)
	pairwise() bool
	lanes() int // pairwise sums: the lanes of their leaf (leafLanes)
	// lines reduces count lines of n elements, held one after another in
	// win, into elements at, at+1, ... of dst.
	lines(win []byte, n, count int, dst []byte, at int)
	// leaves sets level slot l to the pairwise subtree over count full
	// leaves held in win (for other operations: to their reduction).
	leaves(win []byte, count, l int)
	// restLeaf sets level slot l to a line's last, short leaf.
	restLeaf(win []byte, l int)
	// combineLine folds level slot fl of from into level slot l.
	combineLine(l int, from stageReducer, fl int)
	// storeLine writes level slot l, finished as a whole line, into dst[at].
	storeLine(l int, dst []byte, at int)
	// foldRows folds rows of width elements held one after another in win
	// into level row l, first setting it to the identity if init.
	foldRows(win []byte, rows, width, l int, init bool)
	combineRows(l int, from stageReducer, fl, width int)
	storeRows(l int, dst []byte, at, width int)
	// finish reduces the first stage's result over the remaining stages
	// into dst, rounding to a 16-bit dtype at the end if dst has one.
	finish(first []byte, rest []span3, dst *Buffer)
	clone() stageReducer
}

func newStageReducer(op reduceOp, dt trace.DType) (stageReducer, error) {
	switch dt {
	case trace.Bool:
		return &stageRed[uint8]{r: boolReducer(op)}, nil
	case trace.Int8:
		return intStage[int8](op), nil
	case trace.Int16:
		return intStage[int16](op), nil
	case trace.Int32:
		return intStage[int32](op), nil
	case trace.Int64:
		return intStage[int64](op), nil
	case trace.Uint8:
		return intStage[uint8](op), nil
	case trace.Uint16:
		return intStage[uint16](op), nil
	case trace.Uint32:
		return intStage[uint32](op), nil
	case trace.Float32:
		return inexactStage(floatReducer[float32](op), op), nil
	case trace.Float64:
		return inexactStage(floatReducer[float64](op), op), nil
	case trace.Complex64:
		return inexactStage(complexReducer[complex64](op), op), nil
	case trace.Complex128:
		return inexactStage(complexReducer[complex128](op), op), nil
	}
	return nil, fmt.Errorf("cpu: no fused reduction of %s", dt)
}

// intStage adds the many-rows fold of sums.
func intStage[T elemInt](op reduceOp) *stageRed[T] {
	s := &stageRed[T]{r: intReducer[T](op)}
	if op == opSum {
		s.addMany = addManyRows[T]
	}
	return s
}

// addManyRows adds rows of len(acc) elements, one after another in x,
// into acc in order: addRows row by row without a call per row, which
// matters for the narrow rows of reductions over leading axes.
func addManyRows[T elemInt | elemInexact](acc, x []T, rows int) {
	w := len(acc)
	x = x[:rows*w]
	if w == 1 {
		a := acc[0]
		for _, v := range x {
			a += v
		}
		acc[0] = a
		return
	}
	for i := range rows {
		r := x[i*w : (i+1)*w]
		for k := range acc {
			acc[k] += r[k]
		}
	}
}

// inexactStage adds what pairwise sums and products need: their leaf
// function and combining operation (reduce_pairwise.go), sumInexactLine's
// final + 0, and a loop for short sums that adds in the leaf's own order
// without a call per line.
func inexactStage[T elemInexact](r reducer[T], op reduceOp) *stageRed[T] {
	s := &stageRed[T]{r: r, nLanes: leafLanes[T]()}
	switch op {
	case opSum:
		s.leaf, s.op = sumLeaf[T], func(a, b T) T { return a + b }
		s.plusZero = func(x T) T { return x + 0 }
		s.short = shortSumLines[T]
		s.addMany = addManyRows[T]
	case opProd:
		s.leaf, s.op = prodLeaf[T], func(a, b T) T { return a * b }
	}
	return s
}

// shortSumLines is sumInexactLine for lines shorter than a row of sumLeaf's
// partial sums, whose leaf then adds left to right from +0.0: so
// 0 + x0 + x1 + ... + 0.
func shortSumLines[T elemInexact](x []T, n int, out []T) {
	x = x[:len(out)*n]
	for i := range out {
		var s T
		for _, v := range x[i*n : (i+1)*n] {
			s += v
		}
		out[i] = s + 0
	}
}

type stageRed[T any] struct {
	r        reducer[T]
	nLanes   int
	leaf     func([]T) T                // pairwise: one leaf
	op       func(a, b T) T             // pairwise: combines subtrees
	plusZero func(T) T                  // sums: the line's final + 0
	short    func([]T, int, []T)        // short sums, when set
	addMany  func(acc, x []T, rows int) // sums: folds narrow rows without a call each
	levels   []T                        // level slots of line trees
	rowLevel [][]T                      // level rows of row trees
}

func (s *stageRed[T]) identity() []byte { return append([]byte(nil), bytesOf([]T{s.r.identity})...) }

func (s *stageRed[T]) rowsBytes() func(acc, x []byte) {
	rows := s.r.rows
	return func(acc, x []byte) { rows(runAs[T](acc), runAs[T](x)) }
}

func (s *stageRed[T]) pairwise() bool { return s.r.pairwise }

func (s *stageRed[T]) lanes() int { return s.nLanes }

func (s *stageRed[T]) clone() stageReducer {
	return &stageRed[T]{r: s.r, nLanes: s.nLanes, leaf: s.leaf, op: s.op, plusZero: s.plusZero, short: s.short, addMany: s.addMany}
}

func (s *stageRed[T]) lines(win []byte, n, count int, dst []byte, at int) {
	x, out := runAs[T](win)[:n*count], runAs[T](dst)[at:at+count]
	if s.short != nil && n < 4*s.nLanes {
		s.short(x, n, out)
		return
	}
	for i := range out {
		out[i] = s.r.line(x[i*n : (i+1)*n])
	}
}

func (s *stageRed[T]) level(l int) []T {
	for len(s.levels) <= l {
		s.levels = append(s.levels, s.r.identity)
	}
	return s.levels[l : l+1]
}

func (s *stageRed[T]) leaves(win []byte, count, l int) {
	x := runAs[T](win)
	if s.leaf == nil {
		s.level(l)[0] = s.r.line(x)
		return
	}
	s.level(l)[0] = pairwiseLeaves(x, 0, count, s.leaf, s.op)
}

func (s *stageRed[T]) restLeaf(win []byte, l int) {
	x := runAs[T](win)
	if s.leaf == nil {
		s.level(l)[0] = s.r.line(x)
		return
	}
	s.level(l)[0] = s.leaf(x)
}

func (s *stageRed[T]) combineLine(l int, from stageReducer, fl int) {
	lv, other := s.level(l), from.(*stageRed[T]).level(fl)
	if s.op != nil {
		lv[0] = s.op(lv[0], other[0])
		return
	}
	s.r.rows(lv, other)
}
func (s *stageRed[T]) storeLine(l int, dst []byte, at int) {
	v := s.level(l)[0]
	if s.plusZero != nil {
		v = s.plusZero(v)
	}
	runAs[T](dst)[at] = v
}

func (s *stageRed[T]) row(l, width int) []T {
	for len(s.rowLevel) <= l {
		s.rowLevel = append(s.rowLevel, make([]T, columnWidth))
	}
	return s.rowLevel[l][:width]
}

func (s *stageRed[T]) foldRows(win []byte, rows, width, l int, init bool) {
	acc, x := s.row(l, width), runAs[T](win)
	if init {
		for i := range acc {
			acc[i] = s.r.identity
		}
	}
	if s.addMany != nil && width < narrowRow {
		s.addMany(acc, x, rows)
		return
	}
	for i := range rows {
		s.r.rows(acc, x[i*width:(i+1)*width])
	}
}

// narrowRow is the row width below which sums fold rows in one loop
// rather than by a call of the reducer's row fold per row (which, wider,
// may use vector instructions for the same additions).
const narrowRow = 32

func (s *stageRed[T]) combineRows(l int, from stageReducer, fl, width int) {
	s.r.rows(s.row(l, width), from.(*stageRed[T]).row(fl, width))
}

func (s *stageRed[T]) storeRows(l int, dst []byte, at, width int) {
	copy(runAs[T](dst)[at:at+width], s.row(l, width))
}

func (s *stageRed[T]) finish(first []byte, rest []span3, dst *Buffer) {
	src := runAs[T](first)
	if !isHalf(dst.DType()) {
		runReduce(s.r, src, view[T](dst), rest, nil)
		return
	}
	acc := src
	if len(rest) > 0 {
		acc = make([]T, dst.Len())
		runReduce(s.r, src, acc, rest, nil)
	}
	narrowRun(view[uint16](dst), runAs[float32](bytesOf(acc)), dst.DType())
}
