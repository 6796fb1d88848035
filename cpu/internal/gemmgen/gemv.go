package gemmgen

import (
	"fmt"
	"strings"
)

// The matrix-vector kernel: 16 rows of a row-major float32 matrix times a
// vector, bound by reading the matrix. Each row's sum must stay the
// sequential sum over k of rounded products (dot.go), so the kernel cannot
// sum a row with vector lanes; it keeps one lane per row instead. Per block
// of 16 contracting indices it multiplies 16 vectors, one from each row,
// by the same 16 values of the vector (each product rounded, as the Go
// loop rounds it), transposes the 16×16 products in registers (four rounds
// of 16 shuffles) and adds the 16 columns, in k order, to the row sums.

// gemvRegs hands out the vector registers the transposition works in.
type gemvRegs struct{ free []int }

func (r *gemvRegs) take() int {
	x := r.free[0]
	r.free = r.free[1:]
	return x
}

func (r *gemvRegs) give(xs ...int) { r.free = append(r.free, xs...) }

func writeGemv(b *strings.Builder) {
	emit := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	z := func(i int) string { return fmt.Sprintf("Z%d", i) }
	const acc, vec = 31, 30
	b.WriteString(`
// func gemvF32AVX512x16(blocks int, x *float32, ldx int, v, out *float32)
// out[r] = Σ_{p<16·blocks} round(x[r·ldx+p]·v[p]) for r < 16, summed in p
// order from +0 (one lane per row; see cpu/internal/gemmgen/gemv.go).
TEXT ·gemvF32AVX512x16(SB), NOSPLIT, $0-40
	MOVQ blocks+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	SHLQ $2, R8
	MOVQ v+24(FP), DI
	LEAQ (R8)(R8*2), R9
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	VPXORD Z31, Z31, Z31
	TESTQ CX, CX
	JZ   gemvF32AVX512x16_done
gemvF32AVX512x16_loop:
`)
	emit("VMOVUPS (DI), %s", z(vec))
	bases := []string{"SI", "R10", "R11", "R12"}
	index := []string{"", "(R8*1)", "(R8*2)", "(R9*1)"}
	for r := range 16 {
		emit("PREFETCHT0 512(%s)%s", bases[r/4], index[r%4])
	}
	// Products, one row per register: p[r] = round(x[r][k0:k0+16]·v).
	regs := &gemvRegs{}
	for i := range 30 {
		regs.free = append(regs.free, i)
	}
	p := make([]int, 16)
	for r := range p {
		p[r] = regs.take()
		emit("VMULPS (%s)%s, %s, %s", bases[r/4], index[r%4], z(vec), z(p[r]))
	}
	// Round 1: interleave rows 2i and 2i+1 (32-bit elements, per 128-bit lane).
	a := make([]int, 16)
	for i := 0; i < 16; i += 2 {
		a[i], a[i+1] = regs.take(), regs.take()
		emit("VUNPCKLPS %s, %s, %s", z(p[i+1]), z(p[i]), z(a[i]))
		emit("VUNPCKHPS %s, %s, %s", z(p[i+1]), z(p[i]), z(a[i+1]))
		regs.give(p[i], p[i+1])
	}
	// Round 2: interleave 64-bit pairs; bq[4g+e] holds, in 128-bit lane L,
	// rows 4g..4g+3 at index 4L+e.
	bq := make([]int, 16)
	for g := range 4 {
		lo, hi := a[4*g:4*g+2], a[4*g+2:4*g+4]
		for h := range 2 {
			bq[4*g+2*h], bq[4*g+2*h+1] = regs.take(), regs.take()
			emit("VUNPCKLPD %s, %s, %s", z(hi[h]), z(lo[h]), z(bq[4*g+2*h]))
			emit("VUNPCKHPD %s, %s, %s", z(hi[h]), z(lo[h]), z(bq[4*g+2*h+1]))
			regs.give(lo[h], hi[h])
		}
	}
	// Rounds 3 and 4 move 128-bit lanes: column 4L+e gathers lane L of
	// bq[e], bq[4+e], bq[8+e], bq[12+e].
	c := make([][4]int, 4)
	for e := range 4 {
		x0, x1, x2, x3 := bq[e], bq[4+e], bq[8+e], bq[12+e]
		for i, op := range [][3]int{{x0, x1, 0x44}, {x0, x1, 0xEE}, {x2, x3, 0x44}, {x2, x3, 0xEE}} {
			c[e][i] = regs.take()
			emit("VSHUFF32X4 $0x%X, %s, %s, %s", op[2], z(op[1]), z(op[0]), z(c[e][i]))
		}
		regs.give(x0, x1, x2, x3)
	}
	for j := range 16 {
		l, e := j/4, j%4
		lo, hi, imm := c[e][0], c[e][2], 0x88
		if l >= 2 {
			lo, hi = c[e][1], c[e][3]
		}
		if l%2 == 1 {
			imm = 0xDD
		}
		col := regs.take()
		emit("VSHUFF32X4 $0x%X, %s, %s, %s", imm, z(hi), z(lo), z(col))
		emit("VADDPS %s, %s, %s", z(col), z(acc), z(acc))
		regs.give(col)
	}
	emit("ADDQ $64, SI")
	emit("ADDQ $64, R10")
	emit("ADDQ $64, R11")
	emit("ADDQ $64, R12")
	emit("ADDQ $64, DI")
	emit("DECQ CX")
	emit("JNZ  gemvF32AVX512x16_loop")
	b.WriteString("gemvF32AVX512x16_done:\n")
	emit("MOVQ out+32(FP), AX")
	emit("VMOVUPS Z31, (AX)")
	emit("VZEROUPPER")
	emit("RET")
}
