package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/cpu/vmath"
	"github.com/jaxsh/jaxsh/trace"
)

// The trigonometric functions, their inverses and erf in generated code
// (see native_math_amd64.go).

// sinCos computes vmath's sinLanes or cosLanes (trig.go), operation for
// operation; ±Inf and NaN give NaN, and a finite lane beyond the range the
// reduction covers raises the chunk's flag.
func (e *nativeEmitter) sinCos(cos bool, dst, x uint8, mask uint8) {
	a := &e.a
	k := vmath.SinCosConstants()
	c := e.c64
	const xd, hi, shifted, f, s = s0, s1, s2, s3, s4
	e.flagUnlessAtMost(x, k.FastMax, mask)
	e.widen(xd, x)
	e.f3(mulpd, hi, xd, c(k.InvPi1))
	if cos {
		e.f3(subpd, shifted, hi, c(0.5))
		e.f3(addpd, shifted, shifted, c(k.RoundShift))
		e.f3(subpd, f, shifted, c(k.RoundShift))
		e.f3(addpd, f, f, c(0.5))
	} else {
		e.f3(addpd, shifted, hi, c(k.RoundShift))
		e.f3(subpd, f, shifted, c(k.RoundShift))
	}
	e.f3(subpd, f, hi, e.r(f))
	e.f3(mulpd, xd, xd, c(k.InvPi2))
	e.f3(addpd, f, f, e.r(xd))
	e.f3(mulpd, s, f, e.r(f))
	acc := uint8(hi)
	e.f3(mulpd, acc, s, c(k.SinPi[4]))
	for i := 3; i >= 0; i-- {
		e.f3(addpd, acc, acc, c(k.SinPi[i]))
		if i > 0 {
			e.f3(mulpd, acc, s, e.r(acc))
		}
	}
	e.f3(mulpd, acc, f, e.r(acc))
	const res = s3
	e.narrow(res, acc)
	// The sign: the low bit of shifted's bits moved to bit 31 of a dword.
	e.shiftQ("vpsllq", 0x73, 6, shifted, shifted, 31)
	a.truncQD(shifted, shifted)
	y := ymmWidth
	a.op3(intOp(trace.Float32, 0xEF, "xor"), y, res, res, vreg(y, shifted), 0, false)
	if cos {
		a.op3(intOp(trace.Float32, 0xEF, "xor"), y, res, res, e.signMask32(), 0, false)
	}
	// ±Inf and NaN: NaN.
	e.a.op3(andd, y, s5, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s5, e.c32(float32(math.Inf(1))), cmpNLT)
	e.blend32(dst, res, e.c32(nanOf32), scratchMask)
}

// nanForHuge finishes the trigonometric functions: ±Inf and NaN give NaN
// (finite lanes beyond the reduction were flagged).
func (e *nativeEmitter) nanForHuge(dst, x, res uint8) {
	e.a.op3(andd, ymmWidth, s7, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s7, e.c32(float32(math.Inf(1))), cmpNLT)
	e.blend32(dst, res, e.c32(nanOf32), scratchMask)
}

// tan is vmath's tanLanes: x·2/π = n + f, sin and cos of π/2·f from two
// polynomials, and sin/cos for even n, (−cos)/sin for odd n.
func (e *nativeEmitter) tan(dst, x, mask uint8) {
	k := vmath.TanVectorConstants()
	rs := vmath.SinCosConstants().RoundShift
	e.flagUnlessAtMost(x, vmath.SinCosConstants().FastMax, mask)
	const xd, hi, shifted, f, sinF, cosF = s0, s1, s2, s3, s4, s5
	e.widen(xd, x)
	e.f3(mulpd, hi, xd, e.c64(k.TwoOverPi1))
	e.f3(addpd, shifted, hi, e.c64(rs))
	e.f3(subpd, f, shifted, e.c64(rs))
	e.f3(subpd, f, hi, e.r(f))
	e.f3(mulpd, xd, xd, e.c64(k.TwoOverPi2))
	e.f3(addpd, f, f, e.r(xd))
	const s = hi
	e.f3(mulpd, s, f, e.r(f))
	e.horner(sinF, s, k.Sin[:])
	e.f3(mulpd, sinF, f, e.r(sinF))
	e.horner(cosF, s, k.Cos[:])
	e.a.testMask(evexOp{pp: 1, mm: 2, w: 1, code: 0x27, name: "vptestmq"}, zmm, scratchMask, shifted, e.q64(1))
	e.a.op3(intOp(trace.Float64, 0xEF, "xor"), zmm, xd, cosF, e.q64(1<<63), 0, false)
	e.a.blend(blendOp(trace.Float64), zmm, xd, sinF, e.r(xd), scratchMask) // numerator
	e.a.blend(blendOp(trace.Float64), zmm, cosF, cosF, e.r(sinF), scratchMask)
	e.f3(divpd, xd, xd, e.r(cosF))
	e.narrow(s1, xd)
	e.nanForHuge(dst, x, s1)
}

// horner: dst = p[0] + s·(p[1] + s·(… + s·p[n−1])).
func (e *nativeEmitter) horner(dst, s uint8, p []float64) {
	last := len(p) - 1
	e.f3(mulpd, dst, s, e.c64(p[last]))
	for i := last - 1; i >= 0; i-- {
		e.f3(addpd, dst, dst, e.c64(p[i]))
		if i > 0 {
			e.f3(mulpd, dst, s, e.r(dst))
		}
	}
}

// atanOf: p = atan(lo/hi) for the float64 lanes lo ≤ hi (vmath's t =
// lo/hi, t + (t·z)·atanTail(z)); lo and hi are overwritten, p is hi; t1-t3
// are scratch.
func (e *nativeEmitter) atanOf(lo, hi, t1, t2, t3 uint8) {
	c := vmath.AtanPoly()
	const t, z = s2, s3 // callers pass lo = s2, hi = s3
	e.f3(divpd, t, lo, e.r(hi))
	e.f3(mulpd, z, t, e.r(t))
	e.f3(mulpd, t1, z, e.r(z)) // z2
	e.horner(t2, t1, []float64{c[0], c[2], c[4], c[6], c[8]})
	e.horner(t3, t1, []float64{c[1], c[3], c[5], c[7], c[9]})
	e.f3(mulpd, t3, z, e.r(t3))
	e.f3(addpd, t2, t2, e.r(t3)) // atanTail
	e.f3(mulpd, z, t, e.r(z))
	e.f3(mulpd, z, z, e.r(t2))
	e.f3(addpd, z, t, e.r(z))
}

// atan is vmath's atanLanes: with a = |x|, t = min(a,1)/max(a,1), atan t,
// or π/2 − atan t when a > 1, x's sign; ±π/2 (float32) for ±Inf, x for NaN.
func (e *nativeEmitter) atan(dst, x, _ uint8) {
	const a, one, lo, hi = s0, s1, s2, s3
	e.a.op3(andd, ymmWidth, a, x, e.absMask32(), 0, false)
	e.widen(a, a)
	e.c64reg(1, one)
	e.a.compare(floatOp(trace.Float64, 0xC2, "cmp"), zmm, scratchMask, a, e.r(one), cmpLT)
	e.a.blend(blendOp(trace.Float64), zmm, lo, one, e.r(a), scratchMask)
	e.a.blend(blendOp(trace.Float64), zmm, hi, a, e.r(one), scratchMask)
	e.atanOf(lo, hi, s4, s5, s6)
	e.a.compare(floatOp(trace.Float64, 0xC2, "cmp"), zmm, scratchMask, a, e.r(one), cmpGT)
	e.f3(subpd, one, e.c64reg(math.Pi/2, one), e.r(hi))
	e.a.blend(blendOp(trace.Float64), zmm, hi, hi, e.r(one), scratchMask)
	e.narrow(s0, hi)
	e.a.op3(andd, ymmWidth, s1, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s1, e.c32(float32(math.Inf(1))), cmpEQ)
	e.blend32(s0, s0, e.c32(float32(math.Pi/2)), scratchMask)
	e.bitSelect32(s0, x, e.signMask32())
	e.cmp32(scratchMask, x, vreg(ymmWidth, x), cmpUnord)
	e.blend32(dst, s0, vreg(ymmWidth, x), scratchMask)
}

// The float32 constants of vmath's atan2Special.
const pi32, halfPi32, quarterPi32 = float32(math.Pi), float32(math.Pi / 2), float32(math.Pi / 4)

// atan2 is vmath's Atan2_32(y, x): atan2Lanes where x and y are finite
// and not both zero, atan2Special's C99 values elsewhere.
func (e *nativeEmitter) atan2(dst, y, x, _ uint8) {
	const ay, ax, lo, hi = s0, s1, s2, s3
	pdCmp := floatOp(trace.Float64, 0xC2, "cmp")
	pdBlend := blendOp(trace.Float64)
	testmd := evexOp{pp: 1, mm: 2, w: 0, code: 0x27, name: "vptestmd"}
	e.a.op3(andd, ymmWidth, ay, y, e.absMask32(), 0, false)
	e.widen(ay, ay)
	e.a.op3(andd, ymmWidth, ax, x, e.absMask32(), 0, false)
	e.widen(ax, ax)
	e.a.compare(pdCmp, zmm, scratchMask, ay, e.r(ax), cmpLT)
	e.a.blend(pdBlend, zmm, lo, ax, e.r(ay), scratchMask)
	e.a.blend(pdBlend, zmm, hi, ay, e.r(ax), scratchMask)
	e.atanOf(lo, hi, s4, s5, s6)
	const p = hi
	e.a.compare(pdCmp, zmm, scratchMask, ay, e.r(ax), cmpGT)
	e.f3(subpd, s4, e.c64reg(math.Pi/2, s4), e.r(p))
	e.a.blend(pdBlend, zmm, p, p, e.r(s4), scratchMask)
	e.a.testMask(testmd, ymmWidth, scratchMask, x, e.signMask32())
	e.f3(subpd, s4, e.c64reg(math.Pi, s4), e.r(p))
	e.a.blend(pdBlend, zmm, p, p, e.r(s4), scratchMask)
	const res = s0
	e.narrow(res, p)
	e.bitSelect32(res, y, e.signMask32())

	// The special value of every lane, in reverse order of atan2Special's
	// cases: ±π/2; x infinite: ±π/4 or ±3π/4 (y infinite too), ±π or ±0;
	// y = ±0: ±π or y; NaN.
	const xNeg, yInf = scratchMask + 1, scratchMask
	const zeroOrPi, quarters, special, absX, absY = s1, s2, s3, s4, s5
	e.a.op3(andd, ymmWidth, absX, x, e.absMask32(), 0, false)
	e.a.op3(andd, ymmWidth, absY, y, e.absMask32(), 0, false)
	e.a.testMask(testmd, ymmWidth, xNeg, x, e.signMask32())
	e.a.op3(intOp(trace.Float32, 0xEF, "xor"), ymmWidth, zeroOrPi, zeroOrPi, vreg(ymmWidth, zeroOrPi), 0, false)
	e.blend32(zeroOrPi, zeroOrPi, e.c32(pi32), xNeg)
	e.c32reg(quarterPi32, quarters)
	e.blend32(quarters, quarters, e.c32(3*quarterPi32), xNeg)
	e.cmp32(yInf, absY, e.c32(float32(math.Inf(1))), cmpEQ)
	e.blend32(quarters, zeroOrPi, vreg(ymmWidth, quarters), yInf) // x infinite
	e.c32reg(halfPi32, special)
	e.cmp32(scratchMask, absX, e.c32(float32(math.Inf(1))), cmpEQ)
	e.blend32(special, special, vreg(ymmWidth, quarters), scratchMask)
	e.cmp32(scratchMask, y, e.c32(0), cmpEQ)
	e.blend32(special, special, vreg(ymmWidth, zeroOrPi), scratchMask)
	e.bitSelect32(special, y, e.signMask32())
	e.cmp32(scratchMask, x, vreg(ymmWidth, y), cmpUnord)
	e.blend32(special, special, e.c32(nanOf32), scratchMask)
	// atan2Lanes' lanes: both finite, not both zero.
	const finite = scratchMask + 1
	e.cmp32(scratchMask, absX, e.c32(float32(math.Inf(1))), cmpLT)
	e.cmp32(finite, absY, e.c32(float32(math.Inf(1))), cmpLT)
	e.a.kop("kandw", 0x41, scratchMask, scratchMask, finite)
	e.a.op3(intOp(trace.Float32, 0xEB, "or"), ymmWidth, absX, absX, vreg(ymmWidth, absY), 0, false)
	e.a.testMask(testmd, ymmWidth, finite, absX, vreg(ymmWidth, absX))
	e.a.kop("kandw", 0x41, scratchMask, scratchMask, finite)
	e.blend32(dst, special, vreg(ymmWidth, res), scratchMask)
}

// c32reg loads the float32 constant f into every lane of ymm r.
func (e *nativeEmitter) c32reg(f float32, r uint8) {
	m := e.bitsConst(trace.Float32, uint64(math.Float32bits(f)))
	m.bcst = false
	e.a.load(evexOp{pp: 1, mm: 2, w: 0, code: 0x18, name: "vbroadcastss"}, ymmWidth, r, m, 0)
}

// erf is vmath's erfLanes: a = min(|x|, 3.99) (on the bits), the
// polynomial of a's cell (32 cells of width 1/8; each coefficient read
// from its column by two two-table permutes and a blend on the cell's
// bit 4) in t = a − centre, and x's sign bit or-ed in; ±1 for ±Inf, x for
// NaN.
func (e *nativeEmitter) erf(dst, x, _ uint8) {
	k := vmath.ErfVectorConstants()
	const a, idx, t, p, lo, hi = s0, s1, s2, s3, s4, s5
	const bit4 = scratchMask + 1
	e.a.op3(andd, ymmWidth, a, x, e.absMask32(), 0, false)
	e.a.op3(evexOp{pp: 1, mm: 2, w: 0, code: 0x3B, name: "vpminud"}, ymmWidth, a, a, memOp(e.bitsConst(trace.Float32, uint64(k.ClampBits))), 0, false)
	e.widen(a, a)
	e.f3(mulpd, idx, a, e.c64(k.CellsPerUnit))
	e.a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0xE6, name: "vcvttpd2dq"}, ymmWidth, idx, e.r(idx), zmm, 0, false)
	e.a.op2(evexOp{pp: 1, mm: 2, w: 0, code: 0x35, name: "vpmovzxdq"}, zmm, idx, vreg(ymmWidth, idx), zmm, 0, false)
	e.a.testMask(evexOp{pp: 1, mm: 2, w: 1, code: 0x27, name: "vptestmq"}, zmm, bit4, idx, e.q64(16))
	column := func(dst uint8, j int) {
		var col [32]uint64
		for i := range col {
			col[i] = math.Float64bits(k.Cells[i][j])
		}
		movdqu64 := evexOp{pp: 2, mm: 1, w: 1, code: 0x6F, name: "vmovdqu64"}
		permt2q := evexOp{pp: 1, mm: 2, w: 1, code: 0x7E, name: "vpermt2q"}
		e.a.load(movdqu64, zmm, dst, e.table(col[0:8]), 0)
		e.a.op3(permt2q, zmm, dst, idx, memOp(e.table(col[8:16])), 0, false)
		e.a.load(movdqu64, zmm, hi, e.table(col[16:24]), 0)
		e.a.op3(permt2q, zmm, hi, idx, memOp(e.table(col[24:32])), 0, false)
		e.a.blend(blendOp(trace.Float64), zmm, dst, dst, e.r(hi), bit4)
	}
	column(lo, 0)
	e.f3(subpd, t, a, e.r(lo))
	column(p, 7)
	e.f3(mulpd, p, t, e.r(p))
	for j := 6; j >= 1; j-- {
		column(lo, j)
		e.f3(addpd, p, lo, e.r(p))
		if j > 1 {
			e.f3(mulpd, p, t, e.r(p))
		}
	}
	e.narrow(s0, p)
	e.a.op3(andd, ymmWidth, s1, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s1, e.c32(float32(math.Inf(1))), cmpEQ)
	e.blend32(s0, s0, e.c32(1), scratchMask)
	// s0 |= x & sign (VPTERNLOGD A | (B & C)).
	e.a.evex(evexOp{pp: 1, mm: 3, w: 0, code: 0x25}, ymmWidth, s0, x, e.signMask32(), 0, false, 0xF8)
	e.a.list("vpternlogd %s, %s, %s, 0xf8", ymmWidth.reg(s0), ymmWidth.reg(x), e.signMask32().text())
	e.cmp32(scratchMask, x, vreg(ymmWidth, x), cmpUnord)
	e.blend32(dst, s0, vreg(ymmWidth, x), scratchMask)
}
