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
	"log": (*nativeEmitter).log64,
	"rsqrt": func(e *nativeEmitter, dst, x, _ uint8) {
		// The block op's 1/math.Sqrt(x): two IEEE operations.
		e.a.op2(sqrtpd, zmm, s0, e.r(x), zmm, 0, false)
		e.f3(divpd, dst, e.c64reg(1, s1), e.r(s0))
	},
	"sin": func(e *nativeEmitter, dst, x, mask uint8) { e.sinCos64(false, dst, x, mask) },
	"cos": func(e *nativeEmitter, dst, x, mask uint8) { e.sinCos64(true, dst, x, mask) },
}

// mathFlags64 reports whether a float64 function's code may flag chunks
// for the block machine.
func mathFlags64(fn string) bool { return fn == "sin" || fn == "cos" }

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

// The constants of math.Log on amd64 (math/log_amd64.s): x = 2^k·f1 with
// f1 from x's mantissa bits and ½'s exponent, moved to [√2/2, √2) by one
// halving of the range; f = f1 − 1, s = f/(2+f), and log x from the
// polynomials in s² and s⁴ with ln2 in two parts.
const (
	log64HalfSqrt2 = 7.07106781186547524401e-01
	log64Ln2Hi     = 6.93147180369123816490e-01
	log64Ln2Lo     = 1.90821492927058770002e-10
)

var log64Odd = [...]float64{6.666666666666735130e-01, 2.857142874366239149e-01, 1.818357216161805012e-01, 1.479819860511658591e-01}
var log64Even = [...]float64{3.999999999940941908e-01, 2.222219843214978396e-01, 1.531383769920937332e-01}

// log64 is math.Log on eight float64 lanes, operation for operation:
// −Inf for ±0, math's NaN for negative bit patterns (negative NaNs too),
// x itself for +Inf and positive NaNs.
func (e *nativeEmitter) log64(dst, x, _ uint8) {
	a := &e.a
	const f, k, s, s2, s4, t = s0, s1, s2, s3, s4, s5
	pdCmp := floatOp(trace.Float64, 0xC2, "cmp")
	orq := intOp(trace.Float64, 0xEB, "or")
	e.f3(andq, f, x, e.q64(1<<52-1))
	e.f3(orq, f, f, e.q64(math.Float64bits(0.5)))
	e.shiftQ("vpsrlq", 0x73, 2, k, x, 52)
	e.f3(andq, k, k, e.q64(0x7FF))
	e.f3(subq, k, k, e.q64(0x3FE))
	a.truncQD(k, k)
	a.op2(evexOp{pp: 2, mm: 1, w: 0, code: 0xE6, name: "vcvtdq2pd"}, zmm, k, vreg(ymmWidth, k), zmm, 0, false)
	// f1 ≤ √2/2 (math tests "not √2/2 < f1"): k − 1 and 2·f1, else k − 0
	// and 1·f1, the same values.
	a.compare(pdCmp, zmm, scratchMask, f, e.c64(log64HalfSqrt2), 0x12)
	a.op3(subpd, zmm, k, k, e.c64(1), scratchMask, false)
	a.op3(mulpd, zmm, f, f, e.c64(2), scratchMask, false)
	e.f3(subpd, f, f, e.c64(1))
	e.f3(addpd, t, f, e.c64(2))
	e.f3(divpd, s, f, e.r(t))
	e.f3(mulpd, s2, s, e.r(s))
	e.f3(mulpd, s4, s2, e.r(s2))
	e.horner(t, s4, log64Odd[:])
	e.f3(mulpd, s2, s2, e.r(t)) // t1
	e.horner(t, s4, log64Even[:])
	e.f3(mulpd, s4, s4, e.r(t))  // t2
	e.f3(addpd, s2, s2, e.r(s4)) // R
	e.f3(mulpd, t, f, e.c64(0.5))
	e.f3(mulpd, t, t, e.r(f)) // hfsq
	e.f3(addpd, s2, s2, e.r(t))
	e.f3(mulpd, s, s, e.r(s2))
	e.f3(mulpd, s4, k, e.c64(log64Ln2Lo))
	e.f3(addpd, s, s, e.r(s4))
	e.f3(subpd, t, t, e.r(s))
	e.f3(subpd, t, t, e.r(f))
	e.f3(mulpd, k, k, e.c64(log64Ln2Hi))
	e.f3(subpd, k, k, e.r(t))

	cmpq := evexOp{pp: 1, mm: 3, w: 1, code: 0x1F, name: "vpcmpq"}
	compareBits := func(v uint64, pred int) {
		a.evex(cmpq, zmm, scratchMask, x, e.q64(v), 0, false, pred)
		a.list("vpcmpq k%d, %s, %s, %d", scratchMask, zmm.reg(x), e.q64(v).text(), pred)
	}
	const lt, ge = 1, 5
	compareBits(math.Float64bits(math.Inf(1)), ge)
	a.blend(blendOp(trace.Float64), zmm, k, k, e.r(x), scratchMask)
	compareBits(0, lt)
	a.blend(blendOp(trace.Float64), zmm, k, k, e.q64(0x7FF8000000000001), scratchMask)
	a.compare(pdCmp, zmm, scratchMask, x, e.c64(0), cmpEQ)
	a.blend(blendOp(trace.Float64), zmm, dst, k, e.c64(math.Inf(-1)), scratchMask)
}

// The constants of math.Sin and math.Cos (pure Go on amd64, no fused
// operations): π/4 in three parts for the Cody–Waite reduction of |x| <
// 2^29 (larger |x| take math's Payne–Hanek reduction: those chunks are
// flagged), and the octant polynomials in z² for sin and cos, highest
// coefficient first.
const (
	trig64PI4A      = 7.85398125648498535156e-1
	trig64PI4B      = 3.77489470793079817668e-8
	trig64PI4C      = 2.69515142907905952645e-15
	trig64Threshold = 1 << 29
)

var trig64Sin = [...]float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
	-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
var trig64Cos = [...]float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
	2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}

// sinCos64 is math's sin or cos on eight float64 lanes: j = trunc(|x|·4/π)
// made even, z = |x| − j·π/4 in three steps, both octant polynomials
// evaluated and one chosen per lane by j, the sign from j (and x, for sin).
// sin keeps ±0 and NaN; ±Inf (cos: also NaN) give math's NaN.
func (e *nativeEmitter) sinCos64(cos bool, dst, x, mask uint8) {
	a := &e.a
	const abs, jd, y, z, zz, pc, ps, t = s0, s1, s2, s3, s4, s5, s6, s7
	pdCmp := floatOp(trace.Float64, 0xC2, "cmp")
	yw := ymmWidth
	testmd := evexOp{pp: 1, mm: 2, w: 0, code: 0x27, name: "vptestmd"}
	addd := intOp(trace.Float32, 0xFE, "add")
	dword := func(v uint32) rmOperand { return memOp(e.bitsConst(trace.Float32, uint64(v))) }
	e.f3(andq, abs, x, e.q64(1<<63-1))
	// Finite |x| ≥ 2^29 needs math's Payne–Hanek reduction.
	a.compare(pdCmp, zmm, scratchMask, abs, e.c64(trig64Threshold), 0x1D)
	a.compare(pdCmp, zmm, scratchMask+1, abs, e.c64(math.Inf(1)), cmpLT)
	a.kop("kandw", 0x41, scratchMask, scratchMask, scratchMask+1)
	if mask != 0 {
		a.kop("kandw", 0x41, scratchMask, scratchMask, mask)
	}
	covered := a.newLabel()
	a.kortestw(scratchMask, scratchMask)
	a.jcc(condZ, covered)
	a.storeByte(rdi, 8*argFlag, 1)
	a.bind(covered)

	e.f3(mulpd, y, abs, e.c64(4/math.Pi))
	a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0xE6, name: "vcvttpd2dq"}, yw, jd, e.r(y), zmm, 0, false)
	a.op2(evexOp{pp: 2, mm: 1, w: 0, code: 0xE6, name: "vcvtdq2pd"}, zmm, y, vreg(yw, jd), zmm, 0, false)
	a.testMask(testmd, yw, scratchMask, jd, dword(1))
	a.op3(addpd, zmm, y, y, e.c64(1), scratchMask, false)
	a.op3(addd, yw, jd, jd, dword(1), scratchMask, false)
	a.op3(andd, yw, jd, jd, dword(7), 0, false)
	e.f3(mulpd, t, y, e.c64(trig64PI4A))
	e.f3(subpd, z, abs, e.r(t))
	e.f3(mulpd, t, y, e.c64(trig64PI4B))
	e.f3(subpd, z, z, e.r(t))
	e.f3(mulpd, t, y, e.c64(trig64PI4C))
	e.f3(subpd, z, z, e.r(t))
	e.f3(mulpd, zz, z, e.r(z))
	// cos polynomial: (1 − ½zz) + (zz·zz)·P(zz).
	reversed := func(c [6]float64) []float64 { return []float64{c[5], c[4], c[3], c[2], c[1], c[0]} }
	e.horner(pc, zz, reversed(trig64Cos))
	e.f3(mulpd, t, zz, e.c64(0.5))
	e.f3(subpd, y, e.c64reg(1, y), e.r(t))
	e.f3(mulpd, t, zz, e.r(zz))
	e.f3(mulpd, pc, t, e.r(pc))
	e.f3(addpd, pc, y, e.r(pc))
	// sin polynomial: z + (z·zz)·P(zz).
	e.horner(ps, zz, reversed(trig64Sin))
	e.f3(mulpd, t, z, e.r(zz))
	e.f3(mulpd, ps, t, e.r(ps))
	e.f3(addpd, ps, z, e.r(ps))
	// j mod 4 in {1, 2}: bit 1 of j + 1.
	a.op3(addd, yw, t, jd, dword(1), 0, false)
	a.testMask(testmd, yw, scratchMask, t, dword(2))
	if cos {
		a.blend(blendOp(trace.Float64), zmm, pc, pc, e.r(ps), scratchMask)
	} else {
		a.blend(blendOp(trace.Float64), zmm, pc, ps, e.r(pc), scratchMask)
	}
	// The sign: bit 2 of j (sin: xor x's sign; cos: xor bit 1 of j).
	if cos {
		a.op3(addd, yw, t, jd, vreg(yw, jd), 0, false)
		a.op3(intOp(trace.Float32, 0xEF, "xor"), yw, t, t, vreg(yw, jd), 0, false)
		a.op3(andd, yw, t, t, dword(4), 0, false)
	} else {
		a.op3(andd, yw, t, jd, dword(4), 0, false)
	}
	a.op2(evexOp{pp: 1, mm: 2, w: 0, code: 0x35, name: "vpmovzxdq"}, zmm, t, vreg(yw, t), zmm, 0, false)
	e.shiftQ("vpsllq", 0x73, 6, t, t, 61)
	xorq := intOp(trace.Float64, 0xEF, "xor")
	if !cos {
		e.f3(andq, abs, x, e.q64(1<<63))
		e.f3(xorq, t, t, e.r(abs))
	}
	e.f3(xorq, pc, pc, e.r(t))

	nan := e.q64(0x7FF8000000000001)
	e.f3(andq, abs, x, e.q64(1<<63-1))
	a.compare(pdCmp, zmm, scratchMask, abs, e.c64(math.Inf(1)), cmpEQ)
	if cos {
		a.compare(pdCmp, zmm, scratchMask+1, x, e.r(x), cmpUnord)
		a.kop("korw", 0x45, scratchMask, scratchMask, scratchMask+1)
		a.blend(blendOp(trace.Float64), zmm, dst, pc, nan, scratchMask)
		return
	}
	a.blend(blendOp(trace.Float64), zmm, pc, pc, nan, scratchMask)
	a.compare(pdCmp, zmm, scratchMask, x, e.c64(0), cmpEQ)
	a.compare(pdCmp, zmm, scratchMask+1, x, e.r(x), cmpUnord)
	a.kop("korw", 0x45, scratchMask, scratchMask, scratchMask+1)
	a.blend(blendOp(trace.Float64), zmm, dst, pc, e.r(x), scratchMask)
}
