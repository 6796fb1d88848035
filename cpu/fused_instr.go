package cpu

import (
	"strconv"

	"github.com/jaxsh/jaxsh/internal/half"
	"github.com/jaxsh/jaxsh/trace"
)

// The value instructions of fused kernels: block ops, layout changes of
// 16-bit floats, iota, selection (for pad and concatenate) and the
// combining step of small reductions.

// opInstr runs one elementwise block op. Results of a 16-bit float dtype
// that the op computes in float32 are rounded to their dtype at once, as
// the block-op contract asks, so that every later op reads exactly the
// value the eager kernel would have stored.
type opInstr struct {
	k       blockKernel
	in, out []int
	round   []trace.DType // per result: its 16-bit dtype to round to, or InvalidDType
}

func (o *opInstr) run(s *fusedState) {
	args, results := s.args[:len(o.in)], s.results[:len(o.out)]
	for i, sl := range o.in {
		args[i] = s.slots[sl]
	}
	for j, sl := range o.out {
		results[j] = s.slots[sl]
	}
	o.k.op(results, args)
	for j, dt := range o.round {
		if dt != trace.InvalidDType {
			roundHalfRun(runAs[float32](results[j]), dt)
		}
	}
}

// roundHalfRun rounds widened values to the nearest 16-bit float of dt,
// keeping them widened.
func roundHalfRun(v []float32, dt trace.DType) {
	if dt == trace.BFloat16 {
		for i, f := range v {
			v[i] = half.BFloat16ToFloat32(half.BFloat16FromFloat32(f))
		}
		return
	}
	for i, f := range v {
		v[i] = half.Float16ToFloat32(half.Float16FromFloat32(f))
	}
}

// convertInstr moves a 16-bit float value between its own layout and
// float32; both directions are exact because values are always rounded.
type convertInstr struct {
	src, dst int
	dt       trace.DType // the 16-bit dtype
	widen    bool
}

func (c *convertInstr) run(s *fusedState) {
	if c.widen {
		widenRun(runAs[float32](s.slots[c.dst])[:s.n], runAs[uint16](s.slots[c.src]), c.dt)
		return
	}
	narrowRun(runAs[uint16](s.slots[c.dst])[:s.n], runAs[float32](s.slots[c.src]), c.dt)
}

// iotaInstr computes an iota's values from the coordinate along its
// dimension, converted as the iota kernel converts (structural_iota.go).
type iotaInstr struct {
	dt    trace.DType
	coord linForm
	dst   int
}

func (it *iotaInstr) run(s *fusedState) {
	c := s.offs[:s.n]
	evalForm(&it.coord, s, c)
	iotaValues(s.slots[it.dst], c, it.dt)
}

// iotaValues writes each index of idx as dtype dt (16-bit floats rounded
// and widened) into dst.
func iotaValues(dst []byte, idx []int, dt trace.DType) {
	switch dt {
	case trace.Int8:
		convertIndices(runAs[int8](dst), idx)
	case trace.Int16:
		convertIndices(runAs[int16](dst), idx)
	case trace.Int32:
		convertIndices(runAs[int32](dst), idx)
	case trace.Int64:
		convertIndices(runAs[int64](dst), idx)
	case trace.Uint8:
		convertIndices(runAs[uint8](dst), idx)
	case trace.Uint16:
		convertIndices(runAs[uint16](dst), idx)
	case trace.Uint32:
		convertIndices(runAs[uint32](dst), idx)
	case trace.Float32:
		convertIndices(runAs[float32](dst), idx)
	case trace.Float64:
		convertIndices(runAs[float64](dst), idx)
	case trace.Float16:
		v := runAs[float32](dst)[:len(idx)]
		for i, x := range idx {
			v[i] = half.Float16ToFloat32(half.Float16FromFloat64(float64(x)))
		}
	case trace.BFloat16:
		v := runAs[float32](dst)[:len(idx)]
		for i, x := range idx {
			v[i] = half.BFloat16ToFloat32(half.BFloat16FromFloat64(float64(x)))
		}
	case trace.Complex64:
		v := runAs[complex64](dst)[:len(idx)]
		for i, x := range idx {
			v[i] = complex(float32(x), 0)
		}
	case trace.Complex128:
		v := runAs[complex128](dst)[:len(idx)]
		for i, x := range idx {
			v[i] = complex(float64(x), 0)
		}
	default:
		panic("cpu: iota of dtype " + dt.String())
	}
}

func convertIndices[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | float32 | float64](dst []T, idx []int) {
	dst = dst[:len(idx)]
	for i, x := range idx {
		dst[i] = T(x)
	}
}

// selectInstr picks, per position, the element of case which[k] (a bool
// mask picks case 1 where true): pad's operand or padding value, or the
// operand of a concatenate.
type selectInstr struct {
	which int
	wide  bool // which holds int32 (else bool bytes)
	cases []int
	dst   int
	size  int
}

func (sel *selectInstr) run(s *fusedState) {
	cases := s.args[:len(sel.cases)]
	for i, c := range sel.cases {
		cases[i] = s.slots[c]
	}
	dst, n := s.slots[sel.dst], s.n
	switch sel.size {
	case 1:
		selectElems[uint8](dst, cases, s.slots[sel.which], sel.wide, n)
	case 2:
		selectElems[uint16](dst, cases, s.slots[sel.which], sel.wide, n)
	case 4:
		selectElems[uint32](dst, cases, s.slots[sel.which], sel.wide, n)
	case 8:
		selectElems[uint64](dst, cases, s.slots[sel.which], sel.wide, n)
	case 16:
		selectElems[[2]uint64](dst, cases, s.slots[sel.which], sel.wide, n)
	default:
		panic("cpu: no element layout of size " + strconv.Itoa(sel.size))
	}
}

func selectElems[E any](dst []byte, cases [][]byte, which []byte, wide bool, n int) {
	d := runAs[E](dst)[:n]
	if !wide {
		mask := which[:n]
		a, b := runAs[E](cases[0])[:n], runAs[E](cases[1])[:n]
		for i := range d {
			if mask[i] != 0 {
				d[i] = b[i]
			} else {
				d[i] = a[i]
			}
		}
		return
	}
	// One pass per case: concatenates have few operands.
	w := runAs[int32](which)[:n]
	for p, c := range cases {
		cv, p32 := runAs[E](c)[:n], int32(p)
		for i := range d {
			if w[i] == p32 {
				d[i] = cv[i]
			}
		}
	}
}

// combineInstr is one step of a small reduction: dst = a op b, elementwise,
// with the reduction's own row fold (reduce_ops.go), so each step rounds
// exactly as the reduction kernel's does.
type combineInstr struct {
	rows      func(acc, x []byte)
	a, b, dst int
}

func (c *combineInstr) run(s *fusedState) {
	dst := s.slots[c.dst]
	copy(dst, s.slots[c.a])
	c.rows(dst, s.slots[c.b])
}
