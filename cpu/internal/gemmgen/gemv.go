package gemmgen

import (
	"fmt"
	"strings"
)

// The matrix-vector kernels: 16 rows (AVX-512) or 8 rows (AVX) of a
// row-major float32 matrix times a vector, bound by reading the matrix.
// Each row's sum must stay the sequential sum over k of rounded products
// (dot.go), so a kernel cannot sum a row with vector lanes; it keeps one
// lane per row instead. Per block of as many contracting indices as rows
// it multiplies one vector from each row by the same values of the vector
// (each product rounded, as the Go loop rounds it), transposes the square
// of products in registers (rounds of shuffles: 32-bit and 64-bit
// interleaves within 128-bit lanes, then moves of whole 128-bit lanes) and
// adds the columns, in k order, to the row sums.

// gemvRegs hands out the vector registers the transposition works in.
type gemvRegs struct{ free []int }

func (r *gemvRegs) take() int {
	x := r.free[0]
	r.free = r.free[1:]
	return x
}

func (r *gemvRegs) give(xs ...int) { r.free = append(r.free, xs...) }

// writeGemv writes the kernel of rows rows (16: AVX-512, 8: AVX).
func writeGemv(b *strings.Builder, rows int) {
	emit := func(format string, args ...any) { fmt.Fprintf(b, "\t"+format+"\n", args...) }
	wide := rows == 16
	regName, nregs, zero := "Y", 16, "VXORPS"
	name := "gemvF32AVX8"
	if wide {
		regName, nregs, zero, name = "Z", 32, "VPXORD", "gemvF32AVX512x16"
	}
	z := func(i int) string { return fmt.Sprintf("%s%d", regName, i) }
	acc, vec := nregs-1, nregs-2
	fmt.Fprintf(b, `
// func %[1]s(blocks int, x *float32, ldx int, v, out *float32)
// out[r] = Σ_{p<%[2]d·blocks} round(x[r·ldx+p]·v[p]) for r < %[2]d, summed in p
// order from +0 (one lane per row; see cpu/internal/gemmgen/gemv.go).
TEXT ·%[1]s(SB), NOSPLIT, $0-40
	MOVQ blocks+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R8
	SHLQ $2, R8
	MOVQ v+24(FP), DI
	LEAQ (R8)(R8*2), R9
	LEAQ (SI)(R8*4), R10
	LEAQ (R10)(R8*4), R11
	LEAQ (R11)(R8*4), R12
	%[3]s %[4]s, %[4]s, %[4]s
	TESTQ CX, CX
	JZ   %[1]s_done
%[1]s_loop:
`, name, rows, zero, z(acc))
	emit("VMOVUPS (DI), %s", z(vec))
	bases := []string{"SI", "R10", "R11", "R12"}
	index := []string{"", "(R8*1)", "(R8*2)", "(R9*1)"}
	for r := range rows {
		emit("PREFETCHT0 512(%s)%s", bases[r/4], index[r%4])
	}
	// Products, one row per register: p[r] = round(x[r][k0:k0+rows]·v).
	regs := &gemvRegs{}
	for i := range nregs - 2 {
		regs.free = append(regs.free, i)
	}
	p := make([]int, rows)
	for r := range p {
		p[r] = regs.take()
		emit("VMULPS (%s)%s, %s, %s", bases[r/4], index[r%4], z(vec), z(p[r]))
	}
	// Interleave rows 2i and 2i+1 (32-bit elements, per 128-bit lane).
	a := make([]int, rows)
	for i := 0; i < rows; i += 2 {
		a[i], a[i+1] = regs.take(), regs.take()
		emit("VUNPCKLPS %s, %s, %s", z(p[i+1]), z(p[i]), z(a[i]))
		emit("VUNPCKHPS %s, %s, %s", z(p[i+1]), z(p[i]), z(a[i+1]))
		regs.give(p[i], p[i+1])
	}
	// Interleave 64-bit pairs: bq[4g+e] holds, in 128-bit lane L, rows
	// 4g..4g+3 at index 4L+e.
	bq := make([]int, rows)
	for g := range rows / 4 {
		lo, hi := a[4*g:4*g+2], a[4*g+2:4*g+4]
		for h := range 2 {
			bq[4*g+2*h], bq[4*g+2*h+1] = regs.take(), regs.take()
			emit("VUNPCKLPD %s, %s, %s", z(hi[h]), z(lo[h]), z(bq[4*g+2*h]))
			emit("VUNPCKHPD %s, %s, %s", z(hi[h]), z(lo[h]), z(bq[4*g+2*h+1]))
			regs.give(lo[h], hi[h])
		}
	}
	// Column 4L+e gathers lane L of bq[e], bq[4+e] (and for 16 rows
	// bq[8+e], bq[12+e]): one lane move for 8 rows, two for 16.
	if !wide {
		for j := range rows {
			l, e := j/4, j%4
			col := regs.take()
			emit("VPERM2F128 $0x%X, %s, %s, %s", []int{0x20, 0x31}[l], z(bq[4+e]), z(bq[e]), z(col))
			emit("VADDPS %s, %s, %s", z(col), z(acc), z(acc))
			regs.give(col)
		}
	} else {
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
	}
	step := 4 * rows
	emit("ADDQ $%d, SI", step)
	emit("ADDQ $%d, R10", step)
	emit("ADDQ $%d, R11", step)
	emit("ADDQ $%d, R12", step)
	emit("ADDQ $%d, DI", step)
	emit("DECQ CX")
	emit("JNZ  %s_loop", name)
	fmt.Fprintf(b, "%s_done:\n", name)
	emit("MOVQ out+32(FP), AX")
	emit("VMOVUPS %s, (AX)", z(acc))
	emit("VZEROUPPER")
	emit("RET")
}
