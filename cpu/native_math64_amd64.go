package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/trace"
)

// float64 transcendentals in generated code. The block machine computes
// them with package math, so the code here performs math's own algorithm
// for amd64, operation for operation.

// nativeMath64 lists the float64 functions compiled to native code; x and
// dst are zmm registers of eight float64 lanes.
var nativeMath64 = map[string]mathEmitter{
	"exp": (*nativeEmitter).exp64,
}

// The constants of math.Exp on amd64 (math/exp_amd64.s), which the block
// machine calls: x = k·ln2 + r with k = round(x·log2e) and ln2 in two
// parts, exp(r/16) by a Taylor polynomial in Horner form, squared four
// times as e·(e+2) steps (exp(2s)−1 = (exp(s)−1)·(exp(s)−1+2)), then
// scaled by 2^k.
const (
	exp64Log2e    = 1.4426950408889634073599246810018920
	exp64Ln2Hi    = 0.69314718055966295651160180568695068359375
	exp64Ln2Lo    = 0.28235290563031577122588448175013436025525412068e-12
	exp64Overflow = 7.09782712893384e+02
)

// exp64Taylor are the polynomial's coefficients, highest first: 1/8!,
// 1/7!, … 1/2!, 1/1!.
var exp64Taylor = [...]float64{2.4801587301587301587e-5, 1.9841269841269841270e-4, 1.3888888888888888889e-3,
	8.3333333333333333333e-3, 4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0}

var (
	fmadd213pd  = evexOp{pp: 1, mm: 2, w: 1, code: 0xA8, name: "vfmadd213pd"}  // dst = x·dst + y
	fnmadd231pd = evexOp{pp: 1, mm: 2, w: 1, code: 0xBC, name: "vfnmadd231pd"} // dst = −(x·y) + dst
)

// exp64 is math.Exp on eight float64 lanes (its FMA path, which Go takes
// on every CPU with AVX-512): the exponent k by a rounding conversion to
// int32, the reduction and the polynomial with fused multiply-adds, and
// the scaling by 2^k with math's gradual-underflow step (two products
// when k + 1023 ≤ 0, 0 below −52 of that). ±Inf, NaN and x beyond the
// overflow threshold take math's special values.
func (e *nativeEmitter) exp64(dst, x, _ uint8) {
	a := &e.a
	const k, kf, r, p, t = s0, s1, s2, s3, s4
	e.f3(mulpd, kf, x, e.c64(exp64Log2e))
	a.op2(evexOp{pp: 3, mm: 1, w: 1, code: 0xE6, name: "vcvtpd2dq"}, ymmWidth, k, e.r(kf), zmm, 0, false)
	a.op2(evexOp{pp: 2, mm: 1, w: 0, code: 0xE6, name: "vcvtdq2pd"}, zmm, kf, vreg(ymmWidth, k), zmm, 0, false)
	a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0x28, name: "vmovapd"}, zmm, r, e.r(x), zmm, 0, false)
	e.f3(fnmadd231pd, r, kf, e.c64(exp64Ln2Hi))
	e.f3(fnmadd231pd, r, kf, e.c64(exp64Ln2Lo))
	e.f3(mulpd, r, r, e.c64(0.0625))
	e.c64reg(exp64Taylor[0], p)
	for _, c := range exp64Taylor[1:] {
		e.f3(fmadd213pd, p, r, e.c64(c))
	}
	e.f3(mulpd, r, r, e.r(p))
	for i := 0; i < 3; i++ {
		e.f3(addpd, p, r, e.c64(2))
		e.f3(mulpd, r, r, e.r(p))
	}
	e.f3(addpd, p, r, e.c64(2))
	e.f3(fmadd213pd, r, p, e.c64(1))

	// 2^k: k + 1023 in dwords, as math's ADDL (it wraps like it).
	addd := intOp(trace.Float32, 0xFE, "add")
	y := ymmWidth
	a.op3(addd, y, k, k, memOp(e.bitsConst(trace.Float32, 0x3FF)), 0, false)
	a.op2(evexOp{pp: 1, mm: 2, w: 0, code: 0x25, name: "vpmovsxdq"}, zmm, t, vreg(y, k), zmm, 0, false)
	e.shiftQ("vpsllq", 0x73, 6, p, t, 52)
	e.f3(mulpd, p, r, e.r(p)) // k + 1023 in (0, 0x7FF)
	e.f3(addq, t, t, e.q64(0x3FE))
	e.shiftQ("vpsllq", 0x73, 6, t, t, 52)
	e.f3(mulpd, r, r, e.r(t))
	e.f3(mulpd, r, r, e.q64(1<<52)) // k + 1023 ≤ 0: two products
	cmpd := evexOp{pp: 1, mm: 3, w: 0, code: 0x1F, name: "vpcmpd"}
	dwordConst := func(v int32) rmOperand { return memOp(e.bitsConst(trace.Float32, uint64(uint32(v)))) }
	const le, lt, ge = 2, 1, 5
	a.evex(cmpd, y, scratchMask, k, dwordConst(0), 0, false, le)
	a.list("vpcmpd k%d, %s, %s, %d", scratchMask, y.reg(k), dwordConst(0).text(), le)
	a.blend(blendOp(trace.Float64), zmm, p, p, e.r(r), scratchMask)
	a.evex(cmpd, y, scratchMask, k, dwordConst(-52), 0, false, lt)
	a.list("vpcmpd k%d, %s, %s, %d", scratchMask, y.reg(k), dwordConst(-52).text(), lt)
	a.op3(intOp(trace.Float64, 0xEF, "xor"), zmm, p, p, e.r(p), scratchMask, false)
	a.evex(cmpd, y, scratchMask, k, dwordConst(0x7FF), 0, false, ge)
	a.list("vpcmpd k%d, %s, %s, %d", scratchMask, y.reg(k), dwordConst(0x7FF).text(), ge)
	inf := e.q64(math.Float64bits(math.Inf(1)))
	a.blend(blendOp(trace.Float64), zmm, p, p, inf, scratchMask)

	// Special values: x > the overflow threshold +Inf, −Inf 0, +Inf and
	// NaN x itself.
	pdCmp := floatOp(trace.Float64, 0xC2, "cmp")
	a.compare(pdCmp, zmm, scratchMask, x, e.c64(exp64Overflow), cmpGT)
	a.blend(blendOp(trace.Float64), zmm, p, p, inf, scratchMask)
	a.compare(pdCmp, zmm, scratchMask, x, e.c64(math.Inf(-1)), cmpEQ)
	a.op3(intOp(trace.Float64, 0xEF, "xor"), zmm, p, p, e.r(p), scratchMask, false)
	a.compare(pdCmp, zmm, scratchMask, x, e.c64(math.Inf(1)), 0x0D) // ≥ +Inf: +Inf
	a.blend(blendOp(trace.Float64), zmm, p, p, e.r(x), scratchMask)
	a.compare(pdCmp, zmm, scratchMask, x, e.r(x), cmpUnord)
	a.blend(blendOp(trace.Float64), zmm, dst, p, e.r(x), scratchMask)
}
