package cpu

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// Index arithmetic of fused kernels (DESIGN decision 7).
//
// A fused kernel runs over blocks of consecutive linear indices of its loop
// shape. Every value inside the kernel is needed at some multi-index of its
// own shape for each position k of the block; an index map says which. The
// compiler pushes index-map equations (broadcast, transpose, slice, ...)
// down to the leaves instead of running them, so a transpose of an input
// becomes a load at permuted indices and an iota becomes arithmetic on
// indices.
//
// Each coordinate of such a multi-index is a linForm: an integer constant
// plus integer multiples of index vectors. An index vector holds one int32
// per block position: a coordinate of the block's linear indices in some
// shape (a walk, computed by counting, without division), or a coordinate
// the kernel computed for pad, concatenate or a reshape it cannot express
// linearly. Linear forms compose under broadcast, transpose, squeeze, rev,
// slice and most reshapes, so chains of those cost nothing per element.

// A linForm is c + Σ a·vec over its terms, sorted by vector, with no zero
// coefficients. A form without terms is the same for every block position.
type linForm struct {
	c     int
	terms []linTerm
}

type linTerm struct{ vec, a int }

func constForm(c int) linForm { return linForm{c: c} }

func vecForm(vec int) linForm { return linForm{terms: []linTerm{{vec: vec, a: 1}}} }

func (f linForm) isConst() bool { return len(f.terms) == 0 }

// plus returns f + a·g.
func (f linForm) plus(a int, g linForm) linForm {
	out := linForm{c: f.c + a*g.c, terms: slices.Clone(f.terms)}
	for _, t := range g.terms {
		i, found := slices.BinarySearchFunc(out.terms, t.vec, func(x linTerm, v int) int { return x.vec - v })
		switch {
		case !found:
			out.terms = slices.Insert(out.terms, i, linTerm{vec: t.vec, a: a * t.a})
		case out.terms[i].a+a*t.a == 0:
			out.terms = slices.Delete(out.terms, i, i+1)
		default:
			out.terms[i].a += a * t.a
		}
	}
	return out
}

// scaled returns a·f + b.
func (f linForm) scaled(a, b int) linForm { return constForm(b).plus(a, f) }

func (f linForm) String() string {
	var s strings.Builder
	s.WriteString(strconv.Itoa(f.c))
	for _, t := range f.terms {
		fmt.Fprintf(&s, "%+d*v%d", t.a, t.vec)
	}
	return s.String()
}

// An ixmap gives, per dimension of a value, the coordinate at which the
// value is needed. Coordinates of size-1 dimensions are always 0 (the
// compiler normalises them), so equal maps have equal keys.
type ixmap []linForm

func (m ixmap) key() string {
	parts := make([]string, len(m))
	for i, f := range m {
		parts[i] = f.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// address is the row-major element offset of m in an array of shape.
func (m ixmap) address(shape []int) linForm {
	var f linForm
	for d, s := range rowMajorStrides(shape) {
		f = f.plus(s, m[d])
	}
	return f
}

// squeezedShape drops size-1 dimensions.
func squeezedShape(shape []int) []int {
	var out []int
	for _, n := range shape {
		if n != 1 {
			out = append(out, n)
		}
	}
	return out
}

// A walk is the coordinates of the block's linear indices in one shape of
// the loop's size, one index vector per dimension (of the squeezed shape).
type walkDef struct {
	shape []int
	vecs  []int
}

// walkInstr fills a walk's index vectors for the current block: it divides
// once to find the block's first multi-index, then counts.
type walkInstr struct{ walkDef }

func (w *walkInstr) run(s *fusedState) {
	rank := len(w.shape)
	var inline [maxInlineRank]int
	idx := inline[:0]
	if rank <= maxInlineRank {
		idx = inline[:rank]
	} else {
		idx = make([]int, rank)
	}
	rem := s.lo
	for d := rank - 1; d >= 0; d-- {
		idx[d] = rem % w.shape[d]
		rem /= w.shape[d]
	}
	last := rank - 1
	if w.shape[last] < shortWalkRow {
		w.countShortRows(s, idx)
		return
	}
	inner := s.index[w.vecs[last]]
	for k := 0; k < s.n; {
		run := min(s.n-k, w.shape[last]-idx[last])
		v, base := inner[k:k+run], int32(idx[last])
		for j := range v {
			v[j] = base + int32(j)
		}
		for d := range last {
			fillInt32(s.index[w.vecs[d]][k:k+run], int32(idx[d]))
		}
		k += run
		idx[last] += run
		for d := last; d > 0 && idx[d] == w.shape[d]; d-- {
			idx[d] = 0
			idx[d-1]++
		}
	}
}

// shortWalkRow is the innermost extent below which a walk counts position
// by position: filling runs of a few elements costs more per run (a call
// per outer dimension) than counting costs per position.
const shortWalkRow = 16

// countShortRows fills the walk's vectors position by position from the
// multi-index idx of the block's first position.
func (w *walkInstr) countShortRows(s *fusedState, idx []int) {
	last := len(w.shape) - 1
	if last == 1 { // the common case: (n, small)
		outer, inner := s.index[w.vecs[0]][:s.n], s.index[w.vecs[1]][:s.n]
		if width := w.shape[1]; width&(width-1) == 0 {
			// A power-of-two row: the coordinates are the linear position's
			// high and low bits, without a branch per position.
			shift := uint(bits.TrailingZeros(uint(width)))
			mask := width - 1
			base := idx[0]<<shift | idx[1]
			for k := range outer {
				p := base + k
				outer[k], inner[k] = int32(p>>shift), int32(p&mask)
			}
			return
		}
		i, j, width := int32(idx[0]), int32(idx[1]), int32(w.shape[1])
		for k := range outer {
			outer[k], inner[k] = i, j
			if j++; j == width {
				i, j = i+1, 0
			}
		}
		return
	}
	for k := range s.n {
		for d, v := range w.vecs {
			s.index[v][k] = int32(idx[d])
		}
		for d := last; d >= 0; d-- {
			if idx[d]++; idx[d] < w.shape[d] || d == 0 {
				break
			}
			idx[d] = 0
		}
	}
}

func fillInt32(v []int32, x int32) {
	for i := range v {
		v[i] = x
	}
}

// evalForm writes f's value at each block position into dst (len n).
func evalForm(f *linForm, s *fusedState, dst []int) {
	if len(f.terms) == 0 {
		for i := range dst {
			dst[i] = f.c
		}
		return
	}
	t := f.terms[0]
	v := s.index[t.vec][:len(dst)]
	for i, x := range v {
		dst[i] = f.c + t.a*int(x)
	}
	for _, t := range f.terms[1:] {
		v := s.index[t.vec][:len(dst)]
		for i, x := range v {
			dst[i] += t.a * int(x)
		}
	}
}

// padIndexInstr computes, for the padded dimensions of a pad, the operand
// coordinate of each position (clamped into the operand, so that loads stay
// in bounds where the result is padding) and a mask that is 1 where every
// padded dimension lands on an operand element.
type padIndexInstr struct {
	dims []padDimIndex
	mask int // slot of bool layout
}

type padDimIndex struct {
	form            linForm // the result coordinate
	lo, step, limit int     // operand coordinate (form-lo)/step, valid below limit
	vec             int     // index vector receiving the clamped operand coordinate
}

func (p *padIndexInstr) run(s *fusedState) {
	mask := s.slots[p.mask][:s.n]
	for i := range mask {
		mask[i] = 1
	}
	t := s.offs[:s.n]
	for _, d := range p.dims {
		evalForm(&d.form, s, t)
		out := s.index[d.vec][:s.n]
		for i, x := range t {
			x -= d.lo
			q := x / d.step
			if x < 0 || x != q*d.step || q >= d.limit {
				mask[i] = 0
			}
			out[i] = int32(max(0, min(q, d.limit-1)))
		}
	}
}

// concatIndexInstr computes which operand of a concatenate each position
// falls in (an int32 per position) and, per operand, the coordinate along
// the dimension clamped into that operand.
type concatIndexInstr struct {
	form   linForm
	starts []int // where each operand begins along the dimension
	sizes  []int
	vecs   []int // per operand, -1 for empty ones
	which  int   // slot of int32 layout
}

func (c *concatIndexInstr) run(s *fusedState) {
	t := s.offs[:s.n]
	evalForm(&c.form, s, t)
	which := runAs[int32](s.slots[c.which])[:s.n]
	for i, x := range t {
		p := 0
		for p+1 < len(c.starts) && x >= c.starts[p+1] {
			p++
		}
		which[i] = int32(p)
	}
	for p, vec := range c.vecs {
		if vec < 0 {
			continue
		}
		out := s.index[vec][:s.n]
		start, last := c.starts[p], c.sizes[p]-1
		for i, x := range t {
			out[i] = int32(max(0, min(x-start, last)))
		}
	}
}

// delinearizeInstr splits a linear index (a form) into coordinates of a
// shape by division: the general reshape, which no linear form expresses.
type delinearizeInstr struct {
	form  linForm
	shape []int
	vecs  []int // per dimension of shape
}

func (d *delinearizeInstr) run(s *fusedState) {
	t := s.offs[:s.n]
	evalForm(&d.form, s, t)
	for k := len(d.shape) - 1; k >= 0; k-- {
		out, size := s.index[d.vecs[k]][:s.n], d.shape[k]
		for i, x := range t {
			out[i] = int32(x % size)
			t[i] = x / size
		}
	}
}

// loadInstr reads a kernel input at the block's positions. Where the
// address is the block's own linear index plus a constant, the slot simply
// views the input's memory; where it does not vary, one element is spread
// over the slot (once per chunk: such loads are hoisted); otherwise
// elements are gathered at computed offsets.
type loadInstr struct {
	input int
	dst   int
	size  int
	addr  linForm
	mode  loadMode
}

type loadMode uint8

const (
	loadView loadMode = iota
	loadSpread
	loadGather
)

func (l *loadInstr) run(s *fusedState) {
	data := s.in[l.input].data
	switch l.mode {
	case loadView:
		at := (s.lo + l.addr.c) * l.size
		s.slots[l.dst] = data[at : at+s.n*l.size]
	case loadSpread:
		fillRepeat(s.slots[l.dst][:s.n*l.size], data[l.addr.c*l.size:(l.addr.c+1)*l.size])
	case loadGather:
		offs := s.offs[:s.n]
		evalForm(&l.addr, s, offs)
		gatherBySize(s.slots[l.dst], data, offs, l.size)
	}
}

func gatherBySize(dst, src []byte, offs []int, size int) {
	switch size {
	case 1:
		gatherAtOffsets(runAs[uint8](dst), runAs[uint8](src), offs)
	case 2:
		gatherAtOffsets(runAs[uint16](dst), runAs[uint16](src), offs)
	case 4:
		gatherAtOffsets(runAs[uint32](dst), runAs[uint32](src), offs)
	case 8:
		gatherAtOffsets(runAs[uint64](dst), runAs[uint64](src), offs)
	case 16:
		gatherAtOffsets(runAs[[2]uint64](dst), runAs[[2]uint64](src), offs)
	default:
		panic("cpu: no element layout of size " + strconv.Itoa(size))
	}
}

func gatherAtOffsets[E any](dst, src []E, offs []int) {
	dst = dst[:len(offs)]
	for i, o := range offs {
		dst[i] = src[o]
	}
}
