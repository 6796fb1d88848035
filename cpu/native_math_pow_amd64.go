package cpu

import (
	"math"

	"github.com/jaxsh/jaxsh/cpu/vmath"
	"github.com/jaxsh/jaxsh/trace"
)

// pow is vmath's powLanes (pow.go) where x is finite and nonzero and y
// finite: t = y·log|x| (log to 2^-39), clamped to ±200, exp(t) rounded to
// float32, the sign flipped for negative x and an odd integer y, NaN for
// negative x and a non-integer y. Chunks with a zero, infinite or NaN
// operand are flagged: the block machine follows math.Pow's C99 rules
// there.
func (e *nativeEmitter) pow(dst, x, y, mask uint8) {
	a := &e.a
	// Flag lanes outside the fast path.
	e.a.op3(andd, ymmWidth, s0, x, e.absMask32(), 0, false)
	e.a.op3(andd, ymmWidth, s1, y, e.absMask32(), 0, false)
	inf := e.c32(float32(math.Inf(1)))
	// (Each predicate is the negation of the fast path's, NaN included; a
	// knotw would also set the mask bits above the eight lanes.)
	const notGreater, notLess = 0x1A, 0x15
	e.cmp32(scratchMask, s0, e.c32(0), notGreater)
	e.cmp32(scratchMask+1, s0, inf, notLess)
	a.kop("korw", 0x45, scratchMask, scratchMask, scratchMask+1)
	e.cmp32(scratchMask+1, s1, inf, notLess)
	a.kop("korw", 0x45, scratchMask, scratchMask, scratchMask+1)
	if mask != 0 {
		a.kop("kandw", 0x41, scratchMask, scratchMask, mask)
	}
	covered := a.newLabel()
	a.kortestw(scratchMask, scratchMask)
	a.jcc(condZ, covered)
	a.storeByte(rdi, 8*argFlag, 1)
	a.bind(covered)

	// t = y·(k·ln2 + logPreciseZ) for |x|.
	e.widen(s0, s0)
	e.logOf(s2, s0, s2, s3, s4, 0xFF, true)
	e.widen(s1, y)
	e.f3(mulpd, s2, s1, e.r(s2))
	e.f3(pd(0x5D, "min"), s2, s2, e.c64(200))
	e.f3(pd(0x5F, "max"), s2, s2, e.c64(-200))
	// e = float32(exp(t)).
	k := vmath.ExpVectorConstants()
	const z, n, scale, t1 = s0, s3, s4, s6
	e.f3(mulpd, z, s2, e.c64(k.ToSteps))
	e.expScale(scale, n, z, t1, s7)
	e.f3(mulpd, n, n, e.c64(k.StepLn))
	e.f3(subpd, s2, s2, e.r(n))
	e.expReduced(t1, s2, s7)
	e.f3(mulpd, t1, scale, e.r(t1))
	const res = s0
	e.narrow(res, t1)
	// Negative x: is y an integer (|y| clamped to 2^24, where every float32
	// is an even integer), and odd?
	e.a.op3(andd, ymmWidth, s1, y, e.absMask32(), 0, false)
	e.widen(s1, s1)
	e.f3(pd(0x5D, "min"), s1, s1, e.c64(0x1p24))
	rs := k.RoundShift
	e.f3(addpd, s2, s1, e.c64(rs))
	e.f3(subpd, s3, s2, e.c64(rs))
	const isInt, odd = scratchMask, scratchMask + 1
	e.a.compare(floatOp(trace.Float64, 0xC2, "cmp"), zmm, isInt, s3, e.r(s1), cmpEQ)
	e.a.testMask(evexOp{pp: 1, mm: 2, w: 1, code: 0x27, name: "vptestmq"}, zmm, odd, s2, e.q64(1))
	a.kop("kandw", 0x41, odd, odd, isInt)
	// s4 = all ones in lanes of negative x.
	a.evex(evexOp{pp: 1, mm: 1, w: 0, code: 0x72}, ymmWidth, 4, s4, vreg(ymmWidth, x), 0, false, 31)
	a.list("vpsrad %s, %s, 31", ymmWidth.reg(s4), ymmWidth.reg(x))
	xorD, orD := intOp(trace.Float32, 0xEF, "xor"), intOp(trace.Float32, 0xEB, "or")
	a.op3(andd, ymmWidth, s5, s4, e.signMask32(), 0, false)
	a.op3(xorD, ymmWidth, res, res, vreg(ymmWidth, s5), odd, false)
	a.knotw(isInt, isInt)
	a.op3(andd, ymmWidth, s5, s4, memOp(e.bitsConst(trace.Float32, 0x7fc00000)), 0, false)
	a.op3(orD, ymmWidth, res, res, vreg(ymmWidth, s5), isInt, false)
	e.a.op2(evexOp{pp: 0, mm: 1, w: 0, code: 0x28, name: "vmovaps"}, ymmWidth, dst, vreg(ymmWidth, res), ymmWidth, 0, false)
}
