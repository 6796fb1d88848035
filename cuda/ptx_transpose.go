package cuda

import (
	"github.com/jaxsh/jaxsh/trace"
)

// A 2-D transpose through shared memory: a block of 32×8 threads moves a
// 32×32 tile, reading rows of the input and writing rows of the output (both
// coalesced); the tile is 33 elements wide so that the column reads hit 32
// different banks. Elements are moved as raw bits of their size.

const transposeTile = 32

type transposeGeometry struct{ rows, cols int }

// transposeKernel transposes x of shape (rows, cols) into (cols, rows).
func transposeKernel(name string, x trace.AVal) (string, transposeGeometry, error) {
	rows, cols := x.Shape[0], x.Shape[1]
	geo := transposeGeometry{rows: rows, cols: cols}
	if x.Size() >= 1<<31 {
		return "", geo, unsupported("transpose of more than 2^31 elements")
	}
	size := x.DType.Size()
	var mt string
	rk := rB32
	switch size {
	case 1:
		mt = "u8"
	case 2:
		mt = "u16"
	case 4:
		mt = "u32"
	case 8:
		mt, rk = "u64", rB64
	default:
		return "", geo, unsupported("transpose of %s", x.DType)
	}
	b := newBuilder(name)
	px, py := b.param(), b.param()
	b.comment("transpose %s -> (%d, %d)", x.Shape, cols, rows)
	X, Y := b.globalParam(px), b.globalParam(py)
	tile := b.sharedArray(transposeTile*(transposeTile+1)*max(size, 4), 8)
	tx, ty, bx, by, st := b.reg(rB32), b.reg(rB32), b.reg(rB32), b.reg(rB32), b.reg(rB32)
	b.op("mov.u32 %s, %%tid.x", tx)
	b.op("mov.u32 %s, %%tid.y", ty)
	b.op("mov.u32 %s, %%ctaid.x", bx)
	b.op("mov.u32 %s, %%ctaid.y", by)
	b.op("mul.lo.u32 %s, %s, %d", bx, bx, transposeTile)
	b.op("mul.lo.u32 %s, %s, %d", by, by, transposeTile)
	b.op("mov.u32 %s, %s", st, tile)
	sharedT := "b32"
	if rk == rB64 {
		sharedT = "b64"
	}
	elem := max(size, 4)
	v := b.reg(rk)
	for j := 0; j < transposeTile; j += 8 {
		r, c, s := b.reg(rB32), b.reg(rB32), b.reg(rB32)
		b.op("add.u32 %s, %s, %s", r, by, ty)
		b.op("add.u32 %s, %s, %d", r, r, j)
		b.op("add.u32 %s, %s, %s", c, bx, tx)
		skip := b.newLabel()
		p := b.reg(rPred)
		b.op("setp.ge.u32 %s, %s, %d", p, r, rows)
		b.op("@%s bra %s", p, skip)
		b.op("setp.ge.u32 %s, %s, %d", p, c, cols)
		b.op("@%s bra %s", p, skip)
		lin, addr := b.reg(rB32), b.reg(rB64)
		b.op("mad.lo.u32 %s, %s, %d, %s", lin, r, cols, c)
		b.op("mul.wide.u32 %s, %s, %d", addr, lin, size)
		b.op("add.s64 %s, %s, %s", addr, addr, X)
		b.op("ld.global.%s %s, [%s]", mt, v, addr)
		// tile[ty+j][tx]
		b.op("add.u32 %s, %s, %d", s, ty, j)
		b.op("mad.lo.u32 %s, %s, %d, %s", s, s, transposeTile+1, tx)
		b.op("mad.lo.u32 %s, %s, %d, %s", s, s, elem, st)
		b.op("st.shared.%s [%s], %s", sharedT, s, v)
		b.label(skip)
	}
	b.op("bar.sync 0")
	for j := 0; j < transposeTile; j += 8 {
		// Output row bx+ty+j (an input column), column by+tx (an input row).
		r, c, s := b.reg(rB32), b.reg(rB32), b.reg(rB32)
		b.op("add.u32 %s, %s, %s", r, bx, ty)
		b.op("add.u32 %s, %s, %d", r, r, j)
		b.op("add.u32 %s, %s, %s", c, by, tx)
		skip := b.newLabel()
		p := b.reg(rPred)
		b.op("setp.ge.u32 %s, %s, %d", p, r, cols)
		b.op("@%s bra %s", p, skip)
		b.op("setp.ge.u32 %s, %s, %d", p, c, rows)
		b.op("@%s bra %s", p, skip)
		// tile[tx][ty+j]
		b.op("mad.lo.u32 %s, %s, %d, %s", s, tx, transposeTile+1, ty)
		b.op("add.u32 %s, %s, %d", s, s, j)
		b.op("mad.lo.u32 %s, %s, %d, %s", s, s, elem, st)
		b.op("ld.shared.%s %s, [%s]", sharedT, v, s)
		lin, addr := b.reg(rB32), b.reg(rB64)
		b.op("mad.lo.u32 %s, %s, %d, %s", lin, r, rows, c)
		b.op("mul.wide.u32 %s, %s, %d", addr, lin, size)
		b.op("add.s64 %s, %s, %s", addr, addr, Y)
		b.op("st.global.%s [%s], %s", mt, addr, v)
		b.label(skip)
	}
	return b.text(), geo, nil
}
