package cpu

import (
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// dot_general with any dimension numbers.
//
// Layout. No operand is transposed in memory: each operand has offsets for
// each role (batch, free, contracting) giving where each flattened index of
// that role starts, so A(b, i, k) = lhs[lb(b)+lm(i)+lk(k)] and
// B(b, k, j) = rhs[rb(b)+rk(k)+rn(j)] for any layout. A role whose
// dimensions collapse to one stride (the usual case) is just that stride;
// only other roles list their offsets in a table. The matmul packs panels
// of B and reads A's rows in place where their layout allows
// (dot_gemm.go); matrix-vector products read rows directly.
//
// Arithmetic. Both operands are converted to one compute type first:
//   - complex if any of lhs, rhs, result is complex (complex128 when one of
//     them is complex128 or float64);
//   - otherwise float64 if any is float64, float32 if any is a float
//     (float16/bfloat16 widen exactly to float32; integer operands of a
//     float preferred_element_type convert to it, as lax does);
//   - otherwise the integer result type itself: wrapping arithmetic in the
//     result's width equals computing exactly and wrapping at the end;
//   - a bool result (bool operands) counts in int64 and is count != 0, the
//     OR of ANDs.
//
// Every output element is Σ_k a·b accumulated in k order from +0 in the
// compute type. The matmul (dot_gemm.go) fuses each float product into the
// sum, acc = fma(a, b, acc), in its assembly kernels and its portable one
// alike, so it gives the same bits on every machine. The matrix-vector
// paths, bound by memory rather than arithmetic, round each product before
// adding it (the explicit T(x*y) conversions keep Go from fusing there).
// float32 stays float32 throughout: no reduced-precision (TF32-like)
// shortcut. The result is then rounded once into the result dtype
// (float16/bfloat16 from float32).

// dot_general writes every element of its result (an empty contraction
// writes zeros), so a reused destination needs no clearing first: for a
// batch of outer products, clearing cost as much as computing.
func init() {
	registerKernel("dot_general", dotKernel)
	writesEveryElement["dot_general"] = true
}

func dotKernel(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error {
	dn, _ := trace.ParamAs[trace.DotDimensionNumbers](e.Params, "dimension_numbers")
	lhs, rhs, dst := in[0], in[1], out[0]
	g := newDotGeometry(lhs.Shape(), rhs.Shape(), dn)
	if dst.Len() == 0 {
		return nil
	}
	ct := dotComputeType(lhs.DType(), rhs.DType(), dst.DType())
	switch ct {
	case trace.Float32:
		dotTyped[float32](stop, g, lhs, rhs, dst, ct)
	case trace.Float64:
		dotTyped[float64](stop, g, lhs, rhs, dst, ct)
	case trace.Int8:
		dotTyped[int8](stop, g, lhs, rhs, dst, ct)
	case trace.Int16:
		dotTyped[int16](stop, g, lhs, rhs, dst, ct)
	case trace.Int32:
		dotTyped[int32](stop, g, lhs, rhs, dst, ct)
	case trace.Int64:
		dotTyped[int64](stop, g, lhs, rhs, dst, ct)
	case trace.Uint8:
		dotTyped[uint8](stop, g, lhs, rhs, dst, ct)
	case trace.Uint16:
		dotTyped[uint16](stop, g, lhs, rhs, dst, ct)
	case trace.Uint32:
		dotTyped[uint32](stop, g, lhs, rhs, dst, ct)
	case trace.Complex64:
		dotTyped[complex64](stop, g, lhs, rhs, dst, ct)
	case trace.Complex128:
		dotTyped[complex128](stop, g, lhs, rhs, dst, ct)
	default:
		panic("cpu: dot_general computing in " + ct.String())
	}
	return nil
}

// dotComputeType is the type the products and sums are computed in (see
// the package comment above).
func dotComputeType(l, r, out trace.DType) trace.DType {
	has := func(pred func(trace.DType) bool) bool { return pred(l) || pred(r) || pred(out) }
	wide := has(func(d trace.DType) bool { return d == trace.Float64 || d == trace.Complex128 })
	switch {
	case has(trace.DType.IsComplex):
		if wide {
			return trace.Complex128
		}
		return trace.Complex64
	case has(trace.DType.IsFloat):
		if wide {
			return trace.Float64
		}
		return trace.Float32
	case out == trace.Bool:
		return trace.Int64
	}
	return out
}

// dotGeometry is dot_general's iteration space: batch × m × n outputs, each
// a sum over k, with the offsets of both operands.
type dotGeometry struct {
	batch, m, n, k int
	lb, lm, lk     dotOffsets // lhs: batch, free (rows), contracting
	rb, rk, rn     dotOffsets // rhs: batch, contracting, free (columns)
}

func newDotGeometry(ls, rs trace.Shape, dn trace.DotDimensionNumbers) dotGeometry {
	free := func(rank int, used ...[]int) []int {
		var dims []int
		for d := range rank {
			if !slices.Contains(used[0], d) && !slices.Contains(used[1], d) {
				dims = append(dims, d)
			}
		}
		return dims
	}
	g := dotGeometry{
		lb: newDotOffsets(ls, dn.LhsBatch),
		lm: newDotOffsets(ls, free(len(ls), dn.LhsBatch, dn.LhsContracting)),
		lk: newDotOffsets(ls, dn.LhsContracting),
		rb: newDotOffsets(rs, dn.RhsBatch),
		rk: newDotOffsets(rs, dn.RhsContracting),
		rn: newDotOffsets(rs, free(len(rs), dn.RhsBatch, dn.RhsContracting)),
	}
	g.batch, g.m, g.n, g.k = g.lb.n, g.lm.n, g.rn.n, g.lk.n
	return g
}

// dotOffsets gives, for each of n flattened indices of one role, the
// element offset it contributes: base + i*stride, or table[i] when the
// role's dimensions do not collapse to one stride.
type dotOffsets struct {
	n            int
	base, stride int
	table        []int
}

// newDotOffsets is the offsets of dims (row-major in the order given) in a
// row-major array of shape.
func newDotOffsets(shape trace.Shape, dims []int) dotOffsets {
	strides := make([]int, len(shape))
	st := 1
	for d := len(shape) - 1; d >= 0; d-- {
		strides[d] = st
		st *= shape[d]
	}
	o := dotOffsets{n: 1}
	var live []int // dimensions of size > 1 decide the layout
	for _, d := range dims {
		o.n *= shape[d]
		if shape[d] > 1 {
			live = append(live, d)
		}
	}
	collapses := true
	for i := 0; i+1 < len(live); i++ {
		collapses = collapses && strides[live[i]] == strides[live[i+1]]*shape[live[i+1]]
	}
	if collapses {
		if len(live) > 0 {
			o.stride = strides[live[len(live)-1]]
		}
		return o
	}
	o.table = []int{0}
	for _, d := range dims {
		next := make([]int, 0, len(o.table)*shape[d])
		for _, b := range o.table {
			for i := range shape[d] {
				next = append(next, b+i*strides[d])
			}
		}
		o.table = next
	}
	return o
}

func (o dotOffsets) at(i int) int {
	if o.table != nil {
		return o.table[i]
	}
	return o.base + i*o.stride
}

// window is indices [lo, hi) as offsets of their own.
func (o dotOffsets) window(lo, hi int) dotOffsets {
	if o.table != nil {
		return dotOffsets{n: hi - lo, table: o.table[lo:hi]}
	}
	return dotOffsets{n: hi - lo, base: o.base + lo*o.stride, stride: o.stride}
}

// contiguous reports whether consecutive indices are consecutive elements.
func (o dotOffsets) contiguous() bool { return (o.table == nil && o.stride == 1) || o.n == 1 }

// dotElem is what dot_general computes in.
type dotElem interface {
	elemInt | elemFloat | elemComplex
}

func dotTyped[T dotElem](stop stopSignal, g dotGeometry, lhs, rhs, dst *Buffer, ct trace.DType) {
	a, b := dotOperand[T](lhs, ct), dotOperand[T](rhs, ct)
	acc := dst // where the result is computed: dst itself, or a buffer of ct
	if dst.DType() != ct {
		acc = newBuffer(dst.dev, trace.AVal{Shape: dst.Shape(), DType: ct})
	}
	c := view[T](acc)
	if g.k == 0 {
		clear(c)
	}
	if g.k > 0 {
		switch {
		case g.n == 1:
			dotRowsTimesVector(stop, g.batch, g.m, g.k, a, g.lb, g.lm, g.lk, b, g.rb, g.rk, c)
		case g.m == 1:
			dotRowsTimesVector(stop, g.batch, g.n, g.k, b, g.rb, g.rn, g.rk, a, g.lb, g.lk, c)
		case g.k == 1:
			dotOuter(stop, g, a, b, c)
		default:
			gemm(stop, g, a, b, c)
		}
	}
	if acc != dst {
		dotStoreResult(acc, dst)
	}
}

// dotOperand returns an operand's elements in the compute type ct.
func dotOperand[T dotElem](x *Buffer, ct trace.DType) []T {
	switch {
	case x.DType() == ct:
		return view[T](x)
	case isHalf(x.DType()) && ct == trace.Float32:
		return view[T](widenHalf(x))
	}
	conv := newBuffer(x.dev, trace.AVal{Shape: x.Shape(), DType: ct})
	mustConvert(x, conv)
	return view[T](conv)
}

// dotStoreResult rounds or converts the computed result into dst.
func dotStoreResult(src, dst *Buffer) {
	switch {
	case src.DType() == trace.Float32 && isHalf(dst.DType()):
		narrowHalf(src, dst)
	case src.DType() == trace.Int64 && dst.DType() == trace.Bool:
		s, d := view[int64](src), view[bool](dst)
		for i, v := range s {
			d[i] = v != 0
		}
	default:
		mustConvert(src, dst)
	}
}

// dotRowsTimesVector computes c[b, i] = Σ_k X(b, i, k) · v(b, k), where
// X(b, i, k) = x[xb(b)+xi(i)+xk(k)] and v(b, k) = y[yb(b)+yk(k)]: a
// matrix-vector product, which packing would only slow down. Rows are
// contiguous in k (four dot products at a time), or the row index is
// contiguous (whole columns scaled and added, as in axpy), or neither
// (element by element).
func dotRowsTimesVector[T dotElem](stop stopSignal, batch, rows, k int, x []T, xb, xi, xk dotOffsets, y []T, yb, yk dotOffsets, c []T) {
	vecs := make([]T, batch*k)
	for b := range batch {
		for kk := range k {
			vecs[b*k+kk] = y[yb.at(b)+yk.at(kk)]
		}
	}
	kContig, rowContig := xk.contiguous(), xi.contiguous()
	// Units of work: blocks of rows within one batch element. Dot products
	// take 64 rows at a time; scaled columns take wide blocks, so each k
	// reads a long contiguous run and not one short piece per page.
	rowBlock := 64
	if !kContig && rowContig {
		rowBlock = min(max(256, roundUp(ceilDiv(rows, 2*pool.size), 64)), 4096)
	}
	blocks := (rows + rowBlock - 1) / rowBlock
	pool.parallelFor(stop, batch*blocks, max(1, grainElements/(k*rowBlock)), func(lo, hi int) {
		for u := lo; u < hi; u++ {
			b, i0 := u/blocks, (u%blocks)*rowBlock
			i1 := min(i0+rowBlock, rows)
			v, out := vecs[b*k:(b+1)*k], c[b*rows+i0:b*rows+i1]
			base := xb.at(b)
			switch {
			case kContig:
				dotRowsContiguous(x[base+xk.at(0):], xi.window(i0, i1), k, v, out)
			case rowContig:
				dotColumnsAxpy(x[base+xi.at(i0):], xk, i1-i0, v, out)
			default:
				for r := range out {
					start := base + xi.at(i0+r)
					var acc T
					for kk, w := range v {
						acc += T(x[start+xk.at(kk)] * w)
					}
					out[r] = acc
				}
			}
		}
	})
}

// dotRowsContiguous: row r is x[starts(r) : starts(r)+k].
func dotRowsContiguous[T dotElem](x []T, starts dotOffsets, k int, v []T, out []T) {
	r := gemvAsm(x, starts, k, v, out)
	for ; r+4 <= starts.n; r += 4 {
		x0 := x[starts.at(r):][:k]
		x1 := x[starts.at(r+1):][:k]
		x2 := x[starts.at(r+2):][:k]
		x3 := x[starts.at(r+3):][:k]
		var a0, a1, a2, a3 T
		for kk, w := range v[:k] {
			a0 += T(x0[kk] * w)
			a1 += T(x1[kk] * w)
			a2 += T(x2[kk] * w)
			a3 += T(x3[kk] * w)
		}
		out[r], out[r+1], out[r+2], out[r+3] = a0, a1, a2, a3
	}
	for ; r < starts.n; r++ {
		row := x[starts.at(r):][:k]
		var acc T
		for kk, w := range v[:k] {
			acc += T(row[kk] * w)
		}
		out[r] = acc
	}
}

// dotColumnsAxpy: row r of the block is at x[r + kOff(k)], so for each k
// the block's elements are contiguous; out accumulates them scaled by v[k].
func dotColumnsAxpy[T dotElem](x []T, kOff dotOffsets, n int, v []T, out []T) {
	clear(out)
	for kk, w := range v {
		col := x[kOff.at(kk):][:n]
		done := axpyAsm(out, col, w)
		for r, e := range col[done:] {
			out[done+r] += T(e * w)
		}
	}
}

// mustConvert converts src into dst's dtype. Every pair of dtypes has a
// conversion (TestConvertBlockOpsMatchTheEagerKernel), so a failure is a
// bug: it panics, and the builtin guard reports an internal error rather
// than a result computed from an unconverted, zeroed operand.
func mustConvert(src, dst *Buffer) {
	if err := convertKernel(nil, []*Buffer{src}, []*Buffer{dst}); err != nil {
		panic("cpu: dot_general operand conversion: " + err.Error())
	}
}
