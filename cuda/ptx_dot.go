package cuda

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// dot_general of two matrices (float32 or float64, one contracting
// dimension each, no batch dimensions) as a tiled shared-memory kernel:
// each block of dotThreads threads computes a dotTile×dotTile tile of the
// result, stepping through the contraction dotK at a time; each thread
// keeps a 4×4 patch of the tile in registers (rows ty+16i, columns
// tx+16j). Either operand may be transposed (the contracting dimension
// first or last): the kernel reads it through strides.

const (
	dotTile    = 64
	dotK       = 16
	dotThreads = 256
)

type dotGeometry struct{ m, n int }

func dotKernel(name string, e *trace.Eqn) (string, dotGeometry, error) {
	var geo dotGeometry
	dn, _ := trace.ParamAs[trace.DotDimensionNumbers](e.Params, "dimension_numbers")
	la, ra := e.In[0].Aval(), e.In[1].Aval()
	out := e.Out[0].Aval()
	if len(dn.LhsBatch) > 0 || len(dn.RhsBatch) > 0 {
		return "", geo, unsupported("dot_general with batch dimensions")
	}
	if la.Rank() != 2 || ra.Rank() != 2 || len(dn.LhsContracting) != 1 || len(dn.RhsContracting) != 1 {
		return "", geo, unsupported("dot_general of shapes %s and %s (only matrix products so far)", la.Shape, ra.Shape)
	}
	dt := la.DType
	if (dt != trace.Float32 && dt != trace.Float64) || ra.DType != dt || out.DType != dt {
		return "", geo, unsupported("dot_general on %s×%s→%s (float32 and float64 so far)", la.DType, ra.DType, out.DType)
	}
	lc, rc := dn.LhsContracting[0], dn.RhsContracting[0]
	M, K := la.Shape[1-lc], la.Shape[lc]
	N := ra.Shape[1-rc]
	if ra.Shape[rc] != K {
		return "", geo, fmt.Errorf("cuda: dot_general contracting sizes differ")
	}
	if M*K >= 1<<31 || K*N >= 1<<31 || M*N >= 1<<31 {
		return "", geo, unsupported("dot_general with more than 2^31 elements in an operand")
	}
	// Strides (in elements) of A[i,k] and B[k,j].
	ai, ak := K, 1
	if lc == 0 {
		ai, ak = 1, M
	}
	bk, bj := N, 1
	if rc == 1 {
		bk, bj = 1, K
	}
	geo = dotGeometry{m: M, n: N}
	ct, _ := ctype(dt)
	size := dt.Size()
	rk := regKindOf(dt)

	b := newBuilder(name)
	pa, pb, pc := b.param(), b.param(), b.param()
	b.comment("dot_general %s x %s -> %s: M=%d N=%d K=%d", la.Shape, ra.Shape, out.Shape, M, N, K)
	A, B, C := b.globalParam(pa), b.globalParam(pb), b.globalParam(pc)
	as := b.sharedArray(dotK*dotTile*size, 16)
	bs := b.sharedArray(dotK*dotTile*size, 16)
	tid, tx, ty, bx, by := b.reg(rB32), b.reg(rB32), b.reg(rB32), b.reg(rB32), b.reg(rB32)
	b.op("mov.u32 %s, %%tid.x", tid)
	b.op("and.b32 %s, %s, 15", tx, tid)
	b.op("shr.u32 %s, %s, 4", ty, tid)
	b.op("mov.u32 %s, %%ctaid.x", bx)
	b.op("mov.u32 %s, %%ctaid.y", by)
	b.op("mul.lo.u32 %s, %s, %d", bx, bx, dotTile) // first column
	b.op("mul.lo.u32 %s, %s, %d", by, by, dotTile) // first row
	sa, sb := b.reg(rB32), b.reg(rB32)
	b.op("mov.u32 %s, %s", sa, as)
	b.op("mov.u32 %s, %s", sb, bs)
	acc := make([][]string, 4)
	for i := range acc {
		acc[i] = make([]string, 4)
		for j := range acc[i] {
			acc[i][j] = b.reg(rk)
			b.op("mov.%s %s, %s", ct, acc[i][j], fImm(ct, 0))
		}
	}
	k0 := b.reg(rB32)
	b.op("mov.u32 %s, 0", k0)
	loop, done := b.newLabel(), b.newLabel()
	if K == 0 {
		b.op("bra.uni %s", done)
	}
	b.label(loop)
	// Load the tiles: As[kk][ii] = A[by+ii, k0+kk], Bs[kk][jj] = B[k0+kk, bx+jj],
	// zero outside the matrices; 4 elements of each per thread.
	zero := b.reg(rk)
	b.op("mov.%s %s, %s", ct, zero, fImm(ct, 0))
	for l := range dotTile * dotK / dotThreads {
		e := b.reg(rB32)
		b.op("add.u32 %s, %s, %d", e, tid, l*dotThreads)
		// A: kk = e % 16 (consecutive threads walk k), ii = e / 16.
		kk, ii := b.reg(rB32), b.reg(rB32)
		b.op("and.b32 %s, %s, 15", kk, e)
		b.op("shr.u32 %s, %s, 4", ii, e)
		b.loadTile(A, zero, ct, size, by, ii, ai, M, k0, kk, ak, K, sa, kk, ii, dotTile)
		// B: jj = e % 64 (consecutive threads walk j), kk = e / 64.
		jj, kb := b.reg(rB32), b.reg(rB32)
		b.op("and.b32 %s, %s, 63", jj, e)
		b.op("shr.u32 %s, %s, 6", kb, e)
		b.loadTile(B, zero, ct, size, bx, jj, bj, N, k0, kb, bk, K, sb, kb, jj, dotTile)
	}
	b.op("bar.sync 0")
	av, bv := make([]string, 4), make([]string, 4)
	for i := range 4 {
		av[i], bv[i] = b.reg(rk), b.reg(rk)
	}
	rowOff, colOff := b.reg(rB32), b.reg(rB32)
	b.op("mul.lo.u32 %s, %s, %d", rowOff, ty, size)
	b.op("mul.lo.u32 %s, %s, %d", colOff, tx, size)
	ra0, rb0 := b.reg(rB32), b.reg(rB32)
	b.op("add.u32 %s, %s, %s", ra0, sa, rowOff)
	b.op("add.u32 %s, %s, %s", rb0, sb, colOff)
	for kk := range dotK {
		for i := range 4 {
			b.op("ld.shared.%s %s, [%s+%d]", ct, av[i], ra0, (kk*dotTile+16*i)*size)
			b.op("ld.shared.%s %s, [%s+%d]", ct, bv[i], rb0, (kk*dotTile+16*i)*size)
		}
		for i := range 4 {
			for j := range 4 {
				b.op("fma.rn.%s %s, %s, %s, %s", ct, acc[i][j], av[i], bv[j], acc[i][j])
			}
		}
	}
	b.op("bar.sync 0")
	p := b.reg(rPred)
	b.op("add.u32 %s, %s, %d", k0, k0, dotK)
	b.op("setp.lt.u32 %s, %s, %d", p, k0, K)
	b.op("@%s bra %s", p, loop)
	b.label(done)
	// Store the patch.
	for i := range 4 {
		row := b.reg(rB32)
		b.op("add.u32 %s, %s, %s", row, by, ty)
		b.op("add.u32 %s, %s, %d", row, row, 16*i)
		for j := range 4 {
			col := b.reg(rB32)
			b.op("add.u32 %s, %s, %s", col, bx, tx)
			b.op("add.u32 %s, %s, %d", col, col, 16*j)
			skip := b.newLabel()
			q := b.reg(rPred)
			b.op("setp.ge.u32 %s, %s, %d", q, row, M)
			b.op("@%s bra %s", q, skip)
			b.op("setp.ge.u32 %s, %s, %d", q, col, N)
			b.op("@%s bra %s", q, skip)
			lin := b.reg(rB32)
			b.op("mad.lo.u32 %s, %s, %d, %s", lin, row, N, col)
			addr := b.reg(rB64)
			b.op("mul.wide.u32 %s, %s, %d", addr, lin, size)
			b.op("add.s64 %s, %s, %s", addr, addr, C)
			b.op("st.global.%s [%s], %s", ct, addr, acc[i][j])
			b.label(skip)
		}
	}
	return b.text(), geo, nil
}

// loadTile stores into shared memory at base + (sk·tile + si)·size the
// matrix element at (origin+i, k0+k) with strides si_, sk_ (zero when
// outside rows×cols).
func (b *builder) loadTile(mat, zero, ct string, size int, origin, i string, strideI, rows int,
	k0, k string, strideK, cols int, base, sk, si string, tile int) {
	gi, gk := b.reg(rB32), b.reg(rB32)
	b.op("add.u32 %s, %s, %s", gi, origin, i)
	b.op("add.u32 %s, %s, %s", gk, k0, k)
	v := b.reg(regKindOf(map[string]trace.DType{"f32": trace.Float32, "f64": trace.Float64}[ct]))
	b.op("mov.%s %s, %s", ct, v, zero)
	in, q := b.reg(rPred), b.reg(rPred)
	b.op("setp.lt.u32 %s, %s, %d", in, gi, rows)
	b.op("setp.lt.u32 %s, %s, %d", q, gk, cols)
	b.op("and.pred %s, %s, %s", in, in, q)
	lin := b.reg(rB32)
	b.op("mul.lo.u32 %s, %s, %d", lin, gi, strideI)
	b.op("mad.lo.u32 %s, %s, %d, %s", lin, gk, strideK, lin)
	addr := b.reg(rB64)
	b.op("mul.wide.u32 %s, %s, %d", addr, lin, size)
	b.op("add.s64 %s, %s, %s", addr, addr, mat)
	b.op("@%s ld.global.%s %s, [%s]", in, ct, v, addr)
	s := b.reg(rB32)
	b.op("mad.lo.u32 %s, %s, %d, %s", s, sk, tile, si)
	b.op("mad.lo.u32 %s, %s, %d, %s", s, s, size, base)
	b.op("st.shared.%s [%s], %s", ct, s, v)
}
