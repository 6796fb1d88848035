package cpu

import (
	"encoding/binary"
	"math"

	"github.com/jaxsh/jaxsh/cpu/vmath"
	"github.com/jaxsh/jaxsh/trace"
)

// Transcendental functions in generated code. Each emitter performs the
// float64 operations of the vmath kernel the block machine runs (vmath's
// slice forms for float32), one instruction per IEEE operation and in the
// same order, so every lane gets the same bits; special inputs (NaN, ±Inf,
// arguments beyond a kernel's range, zeros and negatives for log) are
// handled per lane with compares and blends that give the scalar forms'
// results. Only sin and cos of finite |x| ≥ 2^24, which need vmath's
// Payne–Hanek reduction, raise the chunk's flag for the block machine.
//
// The sequences work on eight float32 lanes (ymm), widened to float64
// (zmm), in the scratch registers from firstScratch up, and k6-k7. Table
// lookups with more than 32 entries are gathers based at r15, which the
// code loads with the table's address right before (Go lets assembly
// clobber r15; nothing else in generated code uses it).

// A mathEmitter emits one function's sequence; x is the argument's ymm
// register, dst the result's (it may be x: x is read last by the final
// blend), mask the tail mask (0 for whole vectors).
type mathEmitter func(e *nativeEmitter, dst, x, mask uint8)

// nativeMath lists the float32 functions compiled to native code.
var nativeMath = map[string]mathEmitter{
	"sin":   func(e *nativeEmitter, dst, x, mask uint8) { e.sinCos(false, dst, x, mask) },
	"cos":   func(e *nativeEmitter, dst, x, mask uint8) { e.sinCos(true, dst, x, mask) },
	"exp":   (*nativeEmitter).exp,
	"exp2":  (*nativeEmitter).exp2,
	"expm1": (*nativeEmitter).expm1,
	"tanh":  (*nativeEmitter).tanh,
	"sinh":  (*nativeEmitter).sinh,
	"cosh":  (*nativeEmitter).cosh,
	"log":   (*nativeEmitter).log,
	"log1p": (*nativeEmitter).log1p,
	"tan":   (*nativeEmitter).tan,
	"atan":  (*nativeEmitter).atan,
	"erf":   (*nativeEmitter).erf,
	"asin":  (*nativeEmitter).asin,
	"acos":  (*nativeEmitter).acos,
	"asinh": (*nativeEmitter).asinh,
	"acosh": (*nativeEmitter).acosh,
	"atanh": (*nativeEmitter).atanh,
	"rsqrt": (*nativeEmitter).rsqrt,
}

// nativeMath2 lists the float32 functions of two arguments compiled to
// native code.
var nativeMath2 = map[string]func(e *nativeEmitter, dst, a, b, mask uint8){
	"atan2": (*nativeEmitter).atan2,
	"pow":   (*nativeEmitter).pow,
}

func isNativeMath(name string, arity int, dt trace.DType) bool {
	if dt == trace.Float64 {
		return arity == 1 && nativeMath64[name] != nil
	}
	return dt == trace.Float32 && ((arity == 1 && nativeMath[name] != nil) || (arity == 2 && nativeMath2[name] != nil))
}

// math emits node n, a call of a transcendental, into register dst.
func (e *nativeEmitter) math(n *vnode, dst, mask uint8) {
	if len(n.args) == 2 {
		nativeMath2[n.name](e, dst, e.reg[n.args[0]], e.reg[n.args[1]], mask)
		return
	}
	if n.dt == trace.Float64 {
		nativeMath64[n.name](e, dst, e.reg[n.args[0]], mask)
		return
	}
	nativeMath[n.name](e, dst, e.reg[n.args[0]], mask)
}

// mathFlags reports whether fn's code may flag chunks for the block
// machine.
func mathFlags(fn string, dt trace.DType) bool {
	if dt == trace.Float64 {
		return mathFlags64(fn)
	}
	return fn == "sin" || fn == "cos" || fn == "tan" || fn == "pow"
}

// Scratch registers of the sequences.
const (
	s0 = firstScratch + iota
	s1
	s2
	s3
	s4
	s5
	s6
	s7
)

// Compare predicates (vcmpps/vcmppd imm8).
const (
	cmpEQ    = 0x00 // ordered, equal
	cmpLT    = 0x11 // ordered, less
	cmpUnord = 0x03 // either NaN
	cmpGT    = 0x1E // ordered, greater
	cmpNLT   = 0x05 // not less, or unordered
	cmpNE    = 0x04 // not equal, or unordered
)

const zmm = zmmWidth

// pd is an opcode of the 0F map in its pd form.
func pd(code byte, name string) evexOp { return floatOp(trace.Float64, code, name) }

var (
	addpd = pd(0x58, "add")
	subpd = pd(0x5C, "sub")
	mulpd = pd(0x59, "mul")
	divpd = pd(0x5E, "div")
	andq  = intOp(trace.Float64, 0xDB, "and")
	addq  = intOp(trace.Float64, 0xD4, "add")
	subq  = intOp(trace.Float64, 0xFB, "sub")
	andd  = intOp(trace.Float32, 0xDB, "and")
)

// c64 is a float64 constant broadcast to every lane; q64 one given by its
// bits; c32 a float32 one.
func (e *nativeEmitter) c64(f float64) rmOperand {
	return memOp(e.bitsConst(trace.Float64, math.Float64bits(f)))
}
func (e *nativeEmitter) q64(bits uint64) rmOperand { return memOp(e.bitsConst(trace.Float64, bits)) }
func (e *nativeEmitter) c32(f float32) rmOperand {
	return memOp(e.bitsConst(trace.Float32, uint64(math.Float32bits(f))))
}

// f3 emits dst = x op y on float64 or qword lanes.
func (e *nativeEmitter) f3(op evexOp, dst, x uint8, y rmOperand) {
	e.a.op3(op, zmm, dst, x, y, 0, false)
}

func (e *nativeEmitter) r(n uint8) rmOperand { return vreg(zmm, n) }

// widen: zmm dst = the float64s of ymm x (exact).
func (e *nativeEmitter) widen(dst, x uint8) {
	e.a.op2(evexOp{pp: 0, mm: 1, w: 0, code: 0x5A, name: "vcvtps2pd"}, zmm, dst, vreg(ymmWidth, x), zmm, 0, false)
}

// narrow: ymm dst = zmm x rounded to float32.
func (e *nativeEmitter) narrow(dst, x uint8) {
	e.a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0x5A, name: "vcvtpd2ps"}, ymmWidth, dst, vreg(zmm, x), zmm, 0, false)
}

// shiftQ: dst = src shifted by imm per qword; ext is the opcode's ModRM
// extension (2 logical right, 4 arithmetic right, 6 left), code 0x73 or
// 0x72 (arithmetic).
func (e *nativeEmitter) shiftQ(name string, code, ext byte, dst, src, imm uint8) {
	e.a.evex(evexOp{pp: 1, mm: 1, w: 1, code: code}, zmm, ext, dst, vreg(zmm, src), 0, false, int(imm))
	e.a.list("%s %s, %s, %d", name, zmm.reg(dst), zmm.reg(src), imm)
}

// bitSelect32: ymm dst = the bits of y where sel has ones, of dst
// elsewhere (VPTERNLOGD with dst, y and sel as A, B and C).
func (e *nativeEmitter) bitSelect32(dst, y uint8, sel rmOperand) {
	e.a.evex(evexOp{pp: 1, mm: 3, w: 0, code: 0x25}, ymmWidth, dst, y, sel, 0, false, 0xD8)
	e.a.list("vpternlogd %s, %s, %s, 0xd8", ymmWidth.reg(dst), ymmWidth.reg(y), sel.text())
}

// cmp32 sets k to the lanes of ymm x where x pred y holds.
func (e *nativeEmitter) cmp32(k, x uint8, y rmOperand, pred uint8) {
	e.a.compare(floatOp(trace.Float32, 0xC2, "cmp"), ymmWidth, k, x, y, pred)
}

// blend32: ymm dst = k ? y : x.
func (e *nativeEmitter) blend32(dst, x uint8, y rmOperand, k uint8) {
	e.a.blend(blendOp(trace.Float32), ymmWidth, dst, x, y, k)
}

// table is a pool constant of float64 bit patterns, read whole.
func (e *nativeEmitter) table(words []uint64) memOperand {
	var b []byte
	for _, v := range words {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return memOperand{rip: true, constant: e.a.constant(b)}
}

// gatherQ: zmm dst = the qwords at r15 + disp + 8·idx, idx a zmm of qword
// indices (VGATHERQPD with a VSIB operand; the mask k6 is set to all
// lanes first, as the gather clears it).
func (e *nativeEmitter) gatherQ(dst, idx uint8, disp int32) {
	a := &e.a
	a.kop("kxnorw", 0x46, scratchMask, scratchMask, scratchMask)
	m := memOperand{base: r15, index: gpr(idx & 15), hasIndex: true, scale: 8, disp: disp}
	a.evex(evexOp{pp: 1, mm: 2, w: 1, code: 0x93}, zmm, dst, idx&16, memOp(m), scratchMask, false, -1)
	a.list("vgatherqpd %s{k%d}, [r15+%s*8%+d]", zmm.reg(dst), scratchMask, zmm.reg(idx), disp)
}

// leaR15 loads the address of pool constant m into r15.
func (e *nativeEmitter) leaR15(m memOperand) {
	a := &e.a
	a.code = append(a.code, rex(true, r15, 0, 0), 0x8D)
	a.modrm(uint8(r15&7), memOp(m), 0)
	a.list("lea r15, %s", m)
}

// flagUnlessAtMost raises the chunk's flag when a lane of ymm x (selected
// by mask, if any) is finite and beyond limit in magnitude.
func (e *nativeEmitter) flagUnlessAtMost(x uint8, limit float32, mask uint8) {
	a := &e.a
	e.a.op3(andd, ymmWidth, s5, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s5, e.c32(limit), cmpGT)
	e.cmp32(scratchMask+1, s5, e.c32(float32(math.Inf(1))), cmpLT)
	a.kop("kandw", 0x41, scratchMask, scratchMask, scratchMask+1)
	if mask != 0 {
		a.kop("kandw", 0x41, scratchMask, scratchMask, mask)
	}
	covered := a.newLabel()
	a.kortestw(scratchMask, scratchMask)
	a.jcc(condZ, covered)
	a.storeByte(rdi, 8*argFlag, 1)
	a.bind(covered)
}

func (e *nativeEmitter) absMask32() rmOperand {
	return memOp(e.bitsConst(trace.Float32, ^signBit(trace.Float32)&allBits(trace.Float32)))
}

func (e *nativeEmitter) signMask32() rmOperand {
	return memOp(e.bitsConst(trace.Float32, signBit(trace.Float32)))
}

// nanOf32 is float32(math.NaN()), the NaN vmath returns for invalid
// arguments.
var nanOf32 = float32(math.NaN())

// expScale computes vmath's expReduce on the float64 lanes of z: scale
// (2^(n/32), from the 32-entry table read with two two-table permutes and
// a blend on the index's bit 4) into scale, n into n. z is overwritten;
// tmp1 and tmp2 are scratch.
func (e *nativeEmitter) expScale(scale, n, z, tmp1, tmp2 uint8) {
	a := &e.a
	k := vmath.ExpVectorConstants()
	movdqu64 := evexOp{pp: 2, mm: 1, w: 1, code: 0x6F, name: "vmovdqu64"}
	permt2q := evexOp{pp: 1, mm: 2, w: 1, code: 0x7E, name: "vpermt2q"}
	testmq := evexOp{pp: 1, mm: 2, w: 1, code: 0x27, name: "vptestmq"}
	shifted, idx := z, tmp1
	e.f3(addpd, shifted, z, e.c64(k.RoundShift))
	e.f3(subpd, n, shifted, e.c64(k.RoundShift))
	e.f3(andq, idx, shifted, e.q64(31))
	e.shiftQ("vpsllq", 0x73, 6, shifted, shifted, 47)
	a.load(movdqu64, zmm, scale, e.table(k.Table[0:8]), 0)
	a.op3(permt2q, zmm, scale, idx, memOp(e.table(k.Table[8:16])), 0, false)
	a.load(movdqu64, zmm, tmp2, e.table(k.Table[16:24]), 0)
	a.op3(permt2q, zmm, tmp2, idx, memOp(e.table(k.Table[24:32])), 0, false)
	a.testMask(testmq, zmm, scratchMask, idx, e.q64(16))
	a.blend(blendOp(trace.Float64), zmm, scale, scale, vreg(zmm, tmp2), scratchMask)
	e.f3(addq, scale, scale, e.r(shifted))
}

// expReduced: dst = (1 + r) + (r·r)·(Poly[0] + r·Poly[1]) (vmath's
// expReduced); tmp is scratch, r is kept.
func (e *nativeEmitter) expReduced(dst, r, tmp uint8) {
	k := vmath.ExpVectorConstants()
	e.f3(mulpd, dst, r, e.c64(k.Poly[1]))
	e.f3(addpd, dst, dst, e.c64(k.Poly[0]))
	e.f3(mulpd, tmp, r, e.r(r))
	e.f3(mulpd, dst, tmp, e.r(dst))
	e.f3(addpd, tmp, r, e.c64(1))
	e.f3(addpd, dst, tmp, e.r(dst))
}

// expm1Reduced: dst = r + (r·r)·(P[0] + r·(P[1] + r·P[2])) (vmath's
// expm1Reduced); tmp is scratch, r is kept.
func (e *nativeEmitter) expm1Reduced(dst, r, tmp uint8) {
	p := vmath.Expm1Poly()
	e.f3(mulpd, dst, r, e.c64(p[2]))
	e.f3(addpd, dst, dst, e.c64(p[1]))
	e.f3(mulpd, dst, r, e.r(dst))
	e.f3(addpd, dst, dst, e.c64(p[0]))
	e.f3(mulpd, tmp, r, e.r(r))
	e.f3(mulpd, dst, tmp, e.r(dst))
	e.f3(addpd, dst, r, e.r(dst))
}

// expm1Of: dst = scale·expm1(r) + (scale − 1) for a = the float64 lanes in
// a (overwritten), vmath's expm1 kernel on a; tmp registers t1-t3.
func (e *nativeEmitter) expm1Of(dst, a, t1, t2, t3 uint8) {
	k := vmath.ExpVectorConstants()
	const scale = s5
	e.f3(mulpd, t1, a, e.c64(k.ToSteps))
	e.expScale(scale, t2, t1, t3, dst)
	e.f3(mulpd, t2, t2, e.c64(k.StepLn))
	e.f3(subpd, a, a, e.r(t2)) // r
	e.expm1Reduced(t1, a, t2)
	e.f3(mulpd, t1, scale, e.r(t1))
	e.f3(subpd, scale, scale, e.c64(1))
	e.f3(addpd, dst, t1, e.r(scale))
}

// saturate finishes a function whose kernel covers |x| ≤ limit: in lanes
// beyond it the result is above for x > 0 and below for x < 0, and NaN
// lanes give x itself. res holds the kernel's float32 results.
func (e *nativeEmitter) saturate(dst, x, res uint8, limit, above, below float32) {
	e.cmp32(scratchMask, x, e.c32(limit), cmpGT)
	e.blend32(res, res, e.c32(above), scratchMask)
	e.cmp32(scratchMask, x, e.c32(-limit), cmpLT)
	e.blend32(res, res, e.c32(below), scratchMask)
	e.cmp32(scratchMask, x, vreg(ymmWidth, x), cmpUnord)
	e.blend32(dst, res, vreg(ymmWidth, x), scratchMask)
}

// exp is vmath's expLanes (exp.go): exp(x) = scale·expReduced(x − n·ln2/32).
func (e *nativeEmitter) exp(dst, x, _ uint8) {
	k := vmath.ExpVectorConstants()
	const xd, z, n, scale, t1, t2 = s0, s1, s2, s3, s4, s5
	e.widen(xd, x)
	e.f3(mulpd, z, xd, e.c64(k.ToSteps))
	e.expScale(scale, n, z, t1, t2)
	e.f3(mulpd, n, n, e.c64(k.StepLn))
	e.f3(subpd, xd, xd, e.r(n))
	e.expReduced(t1, xd, t2)
	e.f3(mulpd, t1, scale, e.r(t1))
	e.narrow(s0, t1)
	e.saturate(dst, x, s0, k.FastMax, float32(math.Inf(1)), 0)
}

// exp2 is vmath's exp2Lanes: 2^x = scale·expReduced((x − n/32)·ln2).
func (e *nativeEmitter) exp2(dst, x, _ uint8) {
	k := vmath.ExpVectorConstants()
	const xd, z, n, scale, t1, t2 = s0, s1, s2, s3, s4, s5
	e.widen(xd, x)
	e.f3(mulpd, z, xd, e.c64(32))
	e.expScale(scale, n, z, t1, t2)
	e.f3(mulpd, n, n, e.c64(1.0/32))
	e.f3(subpd, xd, xd, e.r(n))
	e.f3(mulpd, xd, xd, e.c64(math.Ln2))
	e.expReduced(t1, xd, t2)
	e.f3(mulpd, t1, scale, e.r(t1))
	e.narrow(s0, t1)
	e.saturate(dst, x, s0, k.FastMax, float32(math.Inf(1)), 0)
}

// expm1 is vmath's expm1Lanes with x's sign restored (a zero result keeps
// it); beyond the fast range it saturates to +Inf and −1.
func (e *nativeEmitter) expm1(dst, x, _ uint8) {
	k := vmath.ExpVectorConstants()
	e.widen(s0, x)
	e.expm1Of(s1, s0, s2, s3, s4)
	e.narrow(s0, s1)
	e.bitSelect32(s0, x, e.signMask32())
	e.saturate(dst, x, s0, k.FastMax, float32(math.Inf(1)), -1)
}

// tanh is vmath's tanhLanes: e = expm1(2x), tanh x = e/(e+2) with x's
// sign; ±1 beyond TanhFastLimit.
func (e *nativeEmitter) tanh(dst, x, _ uint8) {
	e.widen(s0, x)
	e.f3(mulpd, s0, s0, e.c64(2))
	e.expm1Of(s1, s0, s2, s3, s4)
	e.f3(addpd, s2, s1, e.c64(2))
	e.f3(divpd, s1, s1, e.r(s2))
	e.narrow(s0, s1)
	const limit = float32(vmath.TanhFastLimit)
	e.a.op3(andd, ymmWidth, s1, x, e.absMask32(), 0, false)
	e.cmp32(scratchMask, s1, e.c32(limit), cmpGT)
	e.blend32(s0, s0, e.c32(1), scratchMask)
	e.bitSelect32(s0, x, e.signMask32())
	e.cmp32(scratchMask, x, vreg(ymmWidth, x), cmpUnord)
	e.blend32(dst, s0, vreg(ymmWidth, x), scratchMask)
}

// sinh is vmath's sinhLanes: with e = expm1(|x|), ½(e + e/(e+1)) with x's
// sign; ±Inf beyond exp's fast range.
func (e *nativeEmitter) sinh(dst, x, _ uint8) {
	k := vmath.ExpVectorConstants()
	e.a.op3(andd, ymmWidth, s0, x, e.absMask32(), 0, false)
	e.widen(s0, s0)
	e.expm1Of(s1, s0, s2, s3, s4)
	e.f3(addpd, s2, s1, e.c64(1))
	e.f3(divpd, s2, s1, e.r(s2))
	e.f3(addpd, s1, s1, e.r(s2))
	e.f3(mulpd, s1, s1, e.c64(0.5))
	e.narrow(s0, s1)
	e.bitSelect32(s0, x, e.signMask32())
	inf := float32(math.Inf(1))
	e.saturate(dst, x, s0, k.FastMax, inf, -inf)
}

// cosh is vmath's coshLanes: with E = exp(|x|), ½(E + 1/E); +Inf beyond
// exp's fast range.
func (e *nativeEmitter) cosh(dst, x, _ uint8) {
	k := vmath.ExpVectorConstants()
	const xd, z, n, scale, t1, t2 = s0, s1, s2, s3, s4, s5
	e.a.op3(andd, ymmWidth, xd, x, e.absMask32(), 0, false)
	e.widen(xd, xd)
	e.f3(mulpd, z, xd, e.c64(k.ToSteps))
	e.expScale(scale, n, z, t1, t2)
	e.f3(mulpd, n, n, e.c64(k.StepLn))
	e.f3(subpd, xd, xd, e.r(n))
	e.expReduced(t1, xd, t2)
	e.f3(mulpd, t1, scale, e.r(t1))
	e.f3(divpd, t2, e.c64reg(1, t2), e.r(t1))
	e.f3(addpd, t1, t1, e.r(t2))
	e.f3(mulpd, t1, t1, e.c64(0.5))
	e.narrow(s0, t1)
	inf := float32(math.Inf(1))
	e.saturate(dst, x, s0, k.FastMax, inf, inf)
}

// c64reg loads the float64 constant f into every lane of r and returns r.
func (e *nativeEmitter) c64reg(f float64, r uint8) uint8 {
	m := e.bitsConst(trace.Float64, math.Float64bits(f))
	m.bcst = false
	e.a.load(evexOp{pp: 1, mm: 2, w: 1, code: 0x19, name: "vbroadcastsd"}, zmm, r, m, 0)
	return r
}

// logOf: dst = k·ln2 + logZ for the positive finite float64 lanes of u
// (u is overwritten), vmath's logParts and logZ, or logPreciseZ when
// precise (which also uses s6). t1-t3 are scratch; extra, if not 0xFF, is
// added to the sum last (log1p's correction).
func (e *nativeEmitter) logOf(dst, u, t1, t2, t3, extra uint8, precise bool) {
	k := vmath.LogVectorConstants()
	cell := 52 - k.TableBits
	const tmp = s5
	e.f3(subq, tmp, u, e.q64(k.Offset))
	e.shiftQ("vpsrlq", 0x73, 2, t1, tmp, uint8(cell))
	e.f3(andq, t1, t1, e.q64(1<<k.TableBits-1))
	var tables []uint64
	for _, f := range k.InvC {
		tables = append(tables, math.Float64bits(f))
	}
	for _, f := range k.LogC {
		tables = append(tables, math.Float64bits(f))
	}
	e.leaR15(e.table(tables))
	e.gatherQ(t2, t1, 0)                    // 1/c
	e.gatherQ(t3, t1, int32(8*len(k.InvC))) // log c
	e.shiftQ("vpsraq", 0x72, 4, t1, tmp, 52)
	e.a.truncQD(t1, t1)
	e.a.op2(evexOp{pp: 2, mm: 1, w: 0, code: 0xE6, name: "vcvtdq2pd"}, zmm, t1, vreg(ymmWidth, t1), zmm, 0, false) // k
	e.f3(andq, tmp, tmp, e.q64(0xfff<<52))
	e.f3(subq, u, u, e.r(tmp)) // z
	e.f3(mulpd, u, u, e.r(t2))
	e.f3(subpd, u, u, e.c64(1)) // r
	e.f3(mulpd, tmp, u, e.r(u)) // r²
	if precise {
		e.f3(mulpd, t2, u, e.c64(k.PrecisePoly[1]))
		e.f3(addpd, t2, t2, e.c64(k.PrecisePoly[0]))
		e.f3(mulpd, s6, tmp, e.c64(k.PrecisePoly[2]))
		e.f3(addpd, t2, t2, e.r(s6))
	} else {
		e.f3(mulpd, t2, u, e.c64(k.Poly[1]))
		e.f3(addpd, t2, t2, e.c64(k.Poly[0]))
	}
	e.f3(mulpd, t2, tmp, e.r(t2))
	e.f3(addpd, t2, u, e.r(t2))
	e.f3(addpd, t2, t3, e.r(t2)) // logZ
	e.f3(mulpd, t1, t1, e.c64(math.Ln2))
	e.f3(addpd, dst, t1, e.r(t2))
	if extra != 0xFF {
		e.f3(addpd, dst, dst, e.r(extra))
	}
}

// log is vmath's Log32 on every lane: the kernel on float64(x) for
// positive finite x (subnormals become normal in float64), −Inf for ±0,
// NaN for negatives, x itself for +Inf and NaN.
func (e *nativeEmitter) log(dst, x, _ uint8) {
	e.widen(s0, x)
	e.logOf(s1, s0, s2, s3, s4, 0xFF, false)
	e.narrow(s0, s1)
	e.logSpecials(dst, x, s0, 0)
}

// logSpecials finishes the log family in lanes outside its domain: at
// x = at −Inf, below it NaN, and x itself for +Inf and NaN.
func (e *nativeEmitter) logSpecials(dst, x, res uint8, at float32) {
	e.cmp32(scratchMask, x, e.c32(at), cmpEQ)
	e.blend32(res, res, e.c32(float32(math.Inf(-1))), scratchMask)
	e.cmp32(scratchMask, x, e.c32(at), cmpLT)
	e.blend32(res, res, e.c32(nanOf32), scratchMask)
	e.cmp32(scratchMask, x, e.c32(math.MaxFloat32), 0x06) // not ≤: +Inf, NaN
	e.blend32(dst, res, vreg(ymmWidth, x), scratchMask)
}

// log1p is vmath's log1pLanes for −1 < x ≤ 2^52: u = 1 + x, c = (x −
// (u − 1))·(2 − u), log1p x = (k·ln2 + logZ(u)) + c with x's sign. Above
// 2^52 it is log x (u = x, c = 0, the same sum); −Inf at −1, NaN below.
func (e *nativeEmitter) log1p(dst, x, _ uint8) {
	const xd, u, c, big = s0, s1, s2, s3
	e.widen(xd, x)
	e.f3(addpd, u, xd, e.c64(1))
	e.f3(subpd, c, u, e.c64(1))
	e.f3(subpd, c, xd, e.r(c))
	e.f3(subpd, big, e.c64reg(2, big), e.r(u))
	e.f3(mulpd, c, c, e.r(big))
	e.a.compare(floatOp(trace.Float64, 0xC2, "cmp"), zmm, scratchMask, xd, e.c64(vmath.Log1pFastMax), cmpGT)
	e.a.blend(blendOp(trace.Float64), zmm, u, u, e.r(xd), scratchMask)
	e.a.op3(intOp(trace.Float64, 0xEF, "xor"), zmm, c, c, e.r(c), scratchMask, false) // c = +0 there
	e.logOf(s0, u, s0, s3, s4, c, false)
	e.narrow(s1, s0)
	e.bitSelect32(s1, x, e.signMask32())
	e.logSpecials(dst, x, s1, -1)
}
