package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/cpu/vmath"
	"github.com/jaxsh/jaxsh/trace"
)

// The inverse trigonometric and hyperbolic functions in generated code
// (see native_math_amd64.go): asin and acos from asin's polynomial, the
// inverse hyperbolics through log1p's split (u = 1 + w rounded, c =
// (w − (u − 1))/u the part lost, log1p w = log u + c).

var sqrtpd = pd(0x51, "sqrt")

// log1pOfW: dst = k·ln2 + logZ(u) + c for u = 1 + w, vmath's log1pSplit
// and log kernel; w is overwritten. Uses s3-s7.
func (e *nativeEmitter) log1pOfW(dst, w uint8) {
	const u, c = s3, s4
	e.f3(addpd, u, w, e.c64(1))
	e.f3(subpd, c, u, e.c64(1))
	e.f3(subpd, c, w, e.r(c))
	e.f3(divpd, c, c, e.r(u))
	e.logOf(dst, u, w, s6, s7, c, false)
}

// absWidened: zmm dst = |x| widened to float64.
func (e *nativeEmitter) absWidened(dst, x uint8) {
	e.a.op3(andd, ymmWidth, dst, x, e.absMask32(), 0, false)
	e.widen(dst, dst)
}

// asinh is vmath's asinhLanes: log1p(a + a²/(1 + √(1 + a²))) for a = |x|,
// x's sign; ±Inf and NaN give x.
func (e *nativeEmitter) asinh(dst, x, _ uint8) {
	const a, a2, w = s0, s1, s2
	e.absWidened(a, x)
	e.f3(mulpd, a2, a, e.r(a))
	e.f3(addpd, w, a2, e.c64(1))
	e.a.op2(sqrtpd, zmm, w, e.r(w), zmm, 0, false)
	e.f3(addpd, w, w, e.c64(1))
	e.f3(divpd, w, a2, e.r(w))
	e.f3(addpd, w, a, e.r(w))
	e.log1pOfW(s1, w)
	e.narrow(s0, s1)
	e.bitSelect32(s0, x, e.signMask32())
	e.passNonFinite(dst, x, s0)
}

// passNonFinite: dst = x where x is ±Inf or NaN, res elsewhere.
func (e *nativeEmitter) passNonFinite(dst, x, res uint8) {
	e.a.op3(andd, ymmWidth, s7, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s7, e.c32(float32(math.Inf(1))), cmpNLT)
	e.blend32(dst, res, vreg(ymmWidth, x), scratchMask)
}

// acosh is vmath's acoshLanes: log1p(t + √(t·(t+2))), t = x − 1 (exact);
// NaN below 1, x itself for +Inf and NaN.
func (e *nativeEmitter) acosh(dst, x, _ uint8) {
	const t, p = s0, s1
	e.widen(t, x)
	e.f3(subpd, t, t, e.c64(1))
	e.f3(addpd, p, t, e.c64(2))
	e.f3(mulpd, p, t, e.r(p))
	e.a.op2(sqrtpd, zmm, p, e.r(p), zmm, 0, false)
	e.f3(addpd, t, t, e.r(p))
	e.log1pOfW(s1, t)
	e.narrow(s0, s1)
	e.cmp32(scratchMask, x, e.c32(1), cmpLT)
	e.blend32(s0, s0, e.c32(nanOf32), scratchMask)
	e.cmp32(scratchMask, x, e.c32(math.MaxFloat32), 0x06) // not ≤: +Inf, NaN
	e.blend32(dst, s0, vreg(ymmWidth, x), scratchMask)
}

// atanh is vmath's atanhLanes: ½·log1p(2a/(1−a)) for a = |x| < 1, x's
// sign; ±Inf at ±1, NaN beyond and for NaN.
func (e *nativeEmitter) atanh(dst, x, _ uint8) {
	const a, d, w = s0, s1, s2
	e.absWidened(a, x)
	e.f3(mulpd, w, a, e.c64(2))
	e.f3(subpd, d, e.c64reg(1, d), e.r(a))
	e.f3(divpd, w, w, e.r(d))
	e.log1pOfW(s1, w)
	e.f3(mulpd, s1, s1, e.c64(0.5))
	e.narrow(s0, s1)
	e.a.op3(andd, ymmWidth, s1, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s1, e.c32(1), cmpEQ)
	e.blend32(s0, s0, e.c32(float32(math.Inf(1))), scratchMask)
	e.bitSelect32(s0, x, e.signMask32())
	const notLessOrEqual = 0x06
	e.cmp32(scratchMask, s1, e.c32(1), notLessOrEqual) // |x| > 1, NaN
	e.blend32(dst, s0, e.c32(nanOf32), scratchMask)
}

// asinParts computes vmath's asin pieces for a = |x| (in a, float64):
// large = a > ½ in k7, z = (1−a)·½ or a·a, s = √z or a, and p =
// asinReduced(s, z) into p. Uses s2-s5.
func (e *nativeEmitter) asinParts(p, a uint8) {
	poly := vmath.AsinPoly()
	const large = scratchMask + 1
	const z, s, q = s2, s3, s4
	e.a.compare(floatOp(trace.Float64, 0xC2, "cmp"), zmm, large, a, e.c64(0.5), cmpGT)
	e.f3(mulpd, z, a, e.r(a))
	e.f3(subpd, q, e.c64reg(1, q), e.r(a))
	e.f3(mulpd, q, q, e.c64(0.5))
	e.a.blend(blendOp(trace.Float64), zmm, z, z, e.r(q), large)
	e.a.op2(sqrtpd, zmm, s, e.r(z), zmm, 0, false)
	e.a.blend(blendOp(trace.Float64), zmm, s, a, e.r(s), large)
	e.horner(q, z, poly[:])
	e.f3(mulpd, s5, s, e.r(z))
	e.f3(mulpd, q, s5, e.r(q))
	e.f3(addpd, p, s, e.r(q))
}

// asin is vmath's asinLanes: p, or π/2 − 2p for |x| > ½, x's sign; NaN
// for |x| > 1 and NaN.
func (e *nativeEmitter) asin(dst, x, _ uint8) {
	const a, p = s0, s1
	e.absWidened(a, x)
	e.asinParts(p, a)
	e.f3(addpd, s2, p, e.r(p))
	e.f3(subpd, s2, e.c64reg(math.Pi/2, s3), e.r(s2))
	e.a.blend(blendOp(trace.Float64), zmm, p, p, e.r(s2), scratchMask+1)
	e.narrow(s0, p)
	e.bitSelect32(s0, x, e.signMask32())
	e.nanOutsideUnit(dst, x, s0)
}

// nanOutsideUnit: dst = NaN where |x| > 1 or x is NaN, res elsewhere.
func (e *nativeEmitter) nanOutsideUnit(dst, x, res uint8) {
	e.a.op3(andd, ymmWidth, s7, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s7, e.c32(1), 0x06) // not ≤ 1
	e.blend32(dst, res, e.c32(nanOf32), scratchMask)
}

// acos is vmath's acosLanes: for |x| > ½, 2p (x > 0) or π − 2p (x < 0);
// else π/2 − (±p with x's sign); NaN for |x| > 1 and NaN.
func (e *nativeEmitter) acos(dst, x, _ uint8) {
	const a, p, twoP, small = s0, s1, s2, s3
	e.absWidened(a, x)
	e.asinParts(p, a)
	const negative = scratchMask
	e.a.testMask(evexOp{pp: 1, mm: 2, w: 0, code: 0x27, name: "vptestmd"}, ymmWidth, negative, x, e.signMask32())
	e.f3(addpd, twoP, p, e.r(p))
	e.f3(subpd, s4, e.c64reg(math.Pi, s4), e.r(twoP))
	e.a.blend(blendOp(trace.Float64), zmm, twoP, twoP, e.r(s4), negative) // large result
	e.a.op3(intOp(trace.Float64, 0xEF, "xor"), zmm, p, p, e.q64(1<<63), negative, false)
	e.f3(subpd, small, e.c64reg(math.Pi/2, small), e.r(p))
	e.a.blend(blendOp(trace.Float64), zmm, small, small, e.r(twoP), scratchMask+1)
	e.narrow(s0, small)
	e.nanOutsideUnit(dst, x, s0)
}

// rsqrt is the block op's 1/√x in float64 rounded once to float32 (vmath
// has no rsqrt); the IEEE square root and division need no special cases.
func (e *nativeEmitter) rsqrt(dst, x, _ uint8) {
	e.widen(s0, x)
	e.a.op2(sqrtpd, zmm, s0, e.r(s0), zmm, 0, false)
	e.f3(divpd, s0, e.c64reg(1, s1), e.r(s0))
	e.narrow(dst, s0)
}
