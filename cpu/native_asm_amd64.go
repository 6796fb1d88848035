package cpu

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// A small x86-64 assembler for generated kernels: EVEX-encoded AVX-512
// vector instructions, the VEX-encoded mask-register instructions, and the
// few general-purpose instructions a loop needs. It keeps a listing of
// what it emitted, in Intel syntax, for JAXSH_DUMP=kernels.
//
// Memory operands always use a 32-bit displacement (mod 10, or RIP-relative
// mod 00), so EVEX's compressed 8-bit displacements never arise.

type gpr uint8

const (
	rax gpr = iota
	rcx
	rdx
	rbx
	rsp
	rbp
	rsi
	rdi
	r8
	r9
	r10
	r11
	r12
	r13
	r14
	r15
)

var gprNames = [...]string{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"}

func (r gpr) String() string { return gprNames[r] }

// low32 names the register's low 32 bits.
func (r gpr) low32() string {
	if r >= r8 {
		return r.String() + "d"
	}
	return "e" + r.String()[1:]
}

// A vecWidth is a vector length: xmm, ymm or zmm (EVEX's L'L field).
type vecWidth uint8

const (
	xmmWidth vecWidth = iota
	ymmWidth
	zmmWidth
)

func (w vecWidth) reg(n uint8) string { return [...]string{"xmm", "ymm", "zmm"}[w] + fmt.Sprint(n) }

// A memOperand is [base + index*scale + disp], or a constant of the pool
// addressed relative to the instruction pointer. bcst broadcasts one
// element to every lane (EVEX.b); elem is then its size.
type memOperand struct {
	base, index gpr
	hasIndex    bool
	scale       uint8
	disp        int32
	constant    int // pool offset, when rip
	rip         bool
	bcst        bool
	lanes       int // of a broadcast, for the listing
}

func (m memOperand) String() string {
	var s string
	switch {
	case m.rip:
		s = fmt.Sprintf("[rip+const%d]", m.constant)
	case m.hasIndex:
		s = fmt.Sprintf("[%s+%s*%d", m.base, m.index, m.scale)
		if m.disp != 0 {
			s += fmt.Sprintf("%+d", m.disp)
		}
		s += "]"
	default:
		s = "[" + m.base.String()
		if m.disp != 0 {
			s += fmt.Sprintf("%+d", m.disp)
		}
		s += "]"
	}
	if m.bcst {
		s += fmt.Sprintf("{1to%d}", m.lanes)
	}
	return s
}

// An rmOperand is a vector register or memory.
type rmOperand struct {
	reg   uint8
	mem   *memOperand
	width vecWidth // of a register
}

func vreg(w vecWidth, n uint8) rmOperand { return rmOperand{reg: n, width: w} }
func memOp(m memOperand) rmOperand       { return rmOperand{mem: &m} }
func (o rmOperand) text() string {
	if o.mem != nil {
		return o.mem.String()
	}
	return o.width.reg(o.reg)
}

// An evexOp is an opcode with its mandatory prefix (0 none, 1 66, 2 F3,
// 3 F2), opcode map (1 0F, 2 0F38, 3 0F3A) and EVEX.W.
type evexOp struct {
	pp, mm, w uint8
	code      byte
	name      string
}

type ripFixup struct {
	at       int // offset of the displacement
	end      int // offset of the instruction's end
	constant int
}

type jumpFixup struct {
	at    int // offset of the rel32
	label int
}

// An assembler accumulates code, its constant pool and its listing.
type assembler struct {
	code    []byte
	consts  []byte
	listing []string
	rips    []ripFixup
	jumps   []jumpFixup
	labels  []int
}

func (a *assembler) list(format string, args ...any) {
	a.listing = append(a.listing, fmt.Sprintf(format, args...))
}

// constant adds an element to the pool (deduplicated) and returns its
// offset.
func (a *assembler) constant(elem []byte) int {
	for off := 0; off+len(elem) <= len(a.consts); off += len(elem) {
		if string(a.consts[off:off+len(elem)]) == string(elem) {
			return off
		}
	}
	for len(a.consts)%len(elem) != 0 {
		a.consts = append(a.consts, 0)
	}
	off := len(a.consts)
	a.consts = append(a.consts, elem...)
	return off
}

// modrm appends the ModRM byte (and SIB and displacement) for reg and rm;
// imm is the number of immediate bytes that will follow, for RIP fixups.
func (a *assembler) modrm(reg uint8, rm rmOperand, imm int) {
	if rm.mem == nil {
		a.code = append(a.code, 0xC0|(reg&7)<<3|rm.reg&7)
		return
	}
	m := rm.mem
	if m.rip {
		a.code = append(a.code, (reg&7)<<3|5)
		a.rips = append(a.rips, ripFixup{at: len(a.code), end: len(a.code) + 4 + imm, constant: m.constant})
		a.code = append(a.code, 0, 0, 0, 0)
		return
	}
	a.code = append(a.code, 0x80|(reg&7)<<3|4)
	sib := byte(4<<3) | byte(m.base&7)
	if m.hasIndex {
		sib = scaleBits(m.scale)<<6 | byte(m.index&7)<<3 | byte(m.base&7)
	}
	a.code = append(a.code, sib)
	a.code = binary.LittleEndian.AppendUint32(a.code, uint32(m.disp))
}

func scaleBits(s uint8) byte {
	switch s {
	case 1:
		return 0
	case 2:
		return 1
	case 4:
		return 2
	case 8:
		return 3
	}
	panic(fmt.Sprintf("cpu: no index scale %d", s))
}

// evex appends one EVEX-encoded instruction: reg is ModRM.reg (a vector
// register 0-31, or a mask register), nds the extra source (0 when the
// instruction has none: EVEX's inverted vvvv is then 1111), mask the
// write mask (0: none), zero selects zeroing-masking, imm an immediate
// byte or -1.
func (a *assembler) evex(op evexOp, w vecWidth, reg, nds uint8, rm rmOperand, mask uint8, zero bool, imm int) {
	var rBit, rPrime, xBit, bBit, bcst byte
	rBit, rPrime = (reg>>3)&1, (reg>>4)&1
	if rm.mem == nil {
		bBit, xBit = (rm.reg>>3)&1, (rm.reg>>4)&1
	} else if !rm.mem.rip {
		bBit = byte(rm.mem.base>>3) & 1
		if rm.mem.hasIndex {
			xBit = byte(rm.mem.index>>3) & 1
		}
		if rm.mem.bcst {
			bcst = 1
		}
	} else if rm.mem.bcst {
		bcst = 1
	}
	p0 := (^rBit&1)<<7 | (^xBit&1)<<6 | (^bBit&1)<<5 | (^rPrime&1)<<4 | op.mm
	p1 := op.w<<7 | (^nds&0xF)<<3 | 1<<2 | op.pp
	var z byte
	if zero {
		z = 1
	}
	p2 := z<<7 | byte(w)<<5 | bcst<<4 | (^(nds>>4)&1)<<3 | mask&7
	a.code = append(a.code, 0x62, p0, p1, p2, op.code)
	nImm := 0
	if imm >= 0 {
		nImm = 1
	}
	a.modrm(reg, rm, nImm)
	if imm >= 0 {
		a.code = append(a.code, byte(imm))
	}
}

// vex2 appends a two-byte-VEX instruction on mask registers (all below 8,
// and memory bases below r8).
func (a *assembler) vex2(pp, l uint8, code byte, reg, vvvv uint8, rm rmOperand) {
	if reg > 7 || (rm.mem != nil && rm.mem.base > 7) {
		panic("cpu: two-byte VEX with extended registers")
	}
	a.code = append(a.code, 0xC5, 1<<7|(^vvvv&0xF)<<3|l<<2|pp, code)
	a.modrm(reg, rm, 0)
}

func maskSuffix(mask uint8, zero bool) string {
	s := ""
	if mask != 0 {
		s = fmt.Sprintf("{k%d}", mask)
		if zero {
			s += "{z}"
		}
	}
	return s
}

// Vector instructions. ops3 is dst = a op b; ops2 is dst = op(src).

func (a *assembler) op3(op evexOp, w vecWidth, dst, x uint8, y rmOperand, mask uint8, zero bool) {
	a.evex(op, w, dst, x, y, mask, zero, -1)
	a.list("%s %s%s, %s, %s", op.name, w.reg(dst), maskSuffix(mask, zero), w.reg(x), y.text())
}

func (a *assembler) op2(op evexOp, dw vecWidth, dst uint8, src rmOperand, sw vecWidth, mask uint8, zero bool) {
	a.evex(op, sw, dst, 0, src, mask, zero, -1)
	a.list("%s %s%s, %s", op.name, dw.reg(dst), maskSuffix(mask, zero), src.text())
}

// load: dst = mem (masked loads do not touch memory of unselected lanes).
func (a *assembler) load(op evexOp, w vecWidth, dst uint8, m memOperand, mask uint8) {
	a.evex(op, w, dst, 0, memOp(m), mask, mask != 0, -1)
	a.list("%s %s%s, %s", op.name, w.reg(dst), maskSuffix(mask, mask != 0), m)
}

// store: mem = src (masked stores write only selected lanes).
func (a *assembler) store(op evexOp, w vecWidth, m memOperand, src uint8, mask uint8) {
	a.evex(op, w, src, 0, memOp(m), mask, false, -1)
	a.list("%s %s%s, %s", op.name, m, maskSuffix(mask, false), w.reg(src))
}

// compare: k = a pred b.
func (a *assembler) compare(op evexOp, w vecWidth, k, x uint8, y rmOperand, pred uint8) {
	a.evex(op, w, k, x, y, 0, false, int(pred))
	a.list("%s k%d, %s, %s, %#x", op.name, k, w.reg(x), y.text(), pred)
}

// testMask: k = lanes where x & y is not zero.
func (a *assembler) testMask(op evexOp, w vecWidth, k, x uint8, y rmOperand) {
	a.evex(op, w, k, x, y, 0, false, -1)
	a.list("%s k%d, %s, %s", op.name, k, w.reg(x), y.text())
}

// blend: dst = k ? y : x per lane.
func (a *assembler) blend(op evexOp, w vecWidth, dst, x uint8, y rmOperand, k uint8) {
	a.evex(op, w, dst, x, y, k, false, -1)
	a.list("%s %s{k%d}, %s, %s", op.name, w.reg(dst), k, w.reg(x), y.text())
}

// shiftLeftQ: dst = src << imm per qword (VPSLLQ's immediate form keeps
// the destination in vvvv and /6 in ModRM.reg).
func (a *assembler) shiftLeftQ(w vecWidth, dst, src uint8, imm uint8) {
	a.evex(evexOp{pp: 1, mm: 1, w: 1, code: 0x73}, w, 6, dst, vreg(w, src), 0, false, int(imm))
	a.list("vpsllq %s, %s, %d", w.reg(dst), w.reg(src), imm)
}

// truncQD: ymm dst = the low dword of each qword of zmm src (VPMOVQD's
// destination is ModRM.rm).
func (a *assembler) truncQD(dst, src uint8) {
	a.evex(evexOp{pp: 2, mm: 2, w: 0, code: 0x35}, zmmWidth, src, 0, vreg(ymmWidth, dst), 0, false, -1)
	a.list("vpmovqd %s, %s", ymmWidth.reg(dst), zmmWidth.reg(src))
}

// Mask-register instructions (word forms: 16 lanes at most).

func (a *assembler) kmovwLoad(k uint8, m memOperand) {
	a.vex2(0, 0, 0x90, k, 0, memOp(m))
	a.list("kmovw k%d, %s", k, m)
}

func (a *assembler) kop(name string, code byte, dst, x, y uint8) {
	a.vex2(0, 1, code, dst, x, rmOperand{reg: y})
	a.list("%s k%d, k%d, k%d", name, dst, x, y)
}

func (a *assembler) knotw(dst, src uint8) {
	a.vex2(0, 0, 0x44, dst, 0, rmOperand{reg: src})
	a.list("knotw k%d, k%d", dst, src)
}

func (a *assembler) kortestw(x, y uint8) {
	a.vex2(0, 0, 0x98, x, 0, rmOperand{reg: y})
	a.list("kortestw k%d, k%d", x, y)
}

// General-purpose instructions.

func rex(w bool, reg, index, base gpr) byte {
	b := byte(0x40)
	if w {
		b |= 8
	}
	return b | byte(reg>>3&1)<<2 | byte(index>>3&1)<<1 | byte(base>>3&1)
}

// movLoad: dst = qword [base+disp].
func (a *assembler) movLoad(dst, base gpr, disp int32) {
	a.code = append(a.code, rex(true, dst, 0, base), 0x8B)
	a.modrm(uint8(dst), memOp(memOperand{base: base, disp: disp}), 0)
	a.list("mov %s, %s", dst, memOperand{base: base, disp: disp})
}

// zero32: dst = 0 (the 32-bit xor clears the whole register).
func (a *assembler) zero32(r gpr) {
	if r > 7 {
		a.code = append(a.code, 0x45)
	}
	a.code = append(a.code, 0x31, 0xC0|byte(r&7)<<3|byte(r&7))
	a.list("xor %s, %s", r.low32(), r.low32())
}

// storeByte: byte [base+disp] = imm.
func (a *assembler) storeByte(base gpr, disp int32, imm uint8) {
	if base > 7 {
		a.code = append(a.code, rex(false, 0, 0, base))
	}
	a.code = append(a.code, 0xC6)
	a.modrm(0, memOp(memOperand{base: base, disp: disp}), 1)
	a.code = append(a.code, imm)
	a.list("mov byte %s, %d", memOperand{base: base, disp: disp}, imm)
}

func (a *assembler) addImm(r gpr, imm int32) {
	a.code = append(a.code, rex(true, 0, 0, r), 0x81, 0xC0|byte(r&7))
	a.code = binary.LittleEndian.AppendUint32(a.code, uint32(imm))
	a.list("add %s, %d", r, imm)
}

// cmp sets flags from x - y.
func (a *assembler) cmp(x, y gpr) {
	a.code = append(a.code, rex(true, y, 0, x), 0x39, 0xC0|byte(y&7)<<3|byte(x&7))
	a.list("cmp %s, %s", x, y)
}

func (a *assembler) test(x gpr) {
	a.code = append(a.code, rex(true, x, 0, x), 0x85, 0xC0|byte(x&7)<<3|byte(x&7))
	a.list("test %s, %s", x, x)
}

func (a *assembler) newLabel() int {
	a.labels = append(a.labels, -1)
	return len(a.labels) - 1
}

func (a *assembler) bind(l int) {
	a.labels[l] = len(a.code)
	a.list("L%d:", l)
}

// Condition codes of jcc.
const (
	condB  = 0x2 // unsigned below
	condZ  = 0x4
	condNZ = 0x5
)

var condNames = map[byte]string{condB: "jb", condZ: "jz", condNZ: "jnz"}

func (a *assembler) jcc(cond byte, l int) {
	a.code = append(a.code, 0x0F, 0x80|cond)
	a.jumps = append(a.jumps, jumpFixup{at: len(a.code), label: l})
	a.code = append(a.code, 0, 0, 0, 0)
	a.list("%s L%d", condNames[cond], l)
}

func (a *assembler) jmp(l int) {
	a.code = append(a.code, 0xE9)
	a.jumps = append(a.jumps, jumpFixup{at: len(a.code), label: l})
	a.code = append(a.code, 0, 0, 0, 0)
	a.list("jmp L%d", l)
}

func (a *assembler) vzeroupper() {
	a.code = append(a.code, 0xC5, 0xF8, 0x77)
	a.list("vzeroupper")
}

func (a *assembler) ret() {
	a.code = append(a.code, 0xC3)
	a.list("ret")
}

// finish resolves jumps and constants and returns the code followed by
// the constant pool (64-byte aligned).
func (a *assembler) finish() []byte {
	for _, j := range a.jumps {
		rel := a.labels[j.label] - (j.at + 4)
		binary.LittleEndian.PutUint32(a.code[j.at:], uint32(int32(rel)))
	}
	out := a.code
	for len(out)%64 != 0 {
		out = append(out, 0xCC)
	}
	pool := len(out)
	out = append(out, a.consts...)
	for _, f := range a.rips {
		rel := pool + f.constant - f.end
		binary.LittleEndian.PutUint32(out[f.at:], uint32(int32(rel)))
	}
	return out
}

// text is the listing, one instruction per line.
func (a *assembler) text() string {
	var b strings.Builder
	for _, l := range a.listing {
		if !strings.HasSuffix(l, ":") {
			b.WriteString("\t")
		}
		b.WriteString(l)
		b.WriteString("\n")
	}
	return b.String()
}
