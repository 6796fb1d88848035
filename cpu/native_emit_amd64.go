package cpu

import (
	"encoding/binary"

	"github.com/jaxsh/jaxsh/trace"
)

// Lowering, second step: the node graph becomes machine code. Values that
// are the same in every lane are computed once, before the loop; the loop
// body computes the others with every value in a register from its
// producer to its last reader (a kernel needing more registers than there
// are stays on the block machine), then stores the outputs. The body is
// emitted twice: for whole vectors, and for the last partial vector under
// the write mask k1, whose loads and stores touch only the lanes it
// selects.
//
// Calling convention (callNative): DI points at the argument block, words
// of 8 bytes: [0] the elements the whole-vector loop covers, [1] the mask
// of the remaining lanes, [2] a flag the code sets when some lane of the
// chunk is outside the range its sin or cos covers, then one pointer per input (at the chunk's first
// element, or at an input's only element) and one per output. Registers:
// CX the element index, AX the loop's end, pointers in the registers of
// pointerRegs; vector registers 0-31 hold values, k1 the tail mask, k2-k5
// bool values, k6-k7 scratch. The code touches no stack and ends with
// VZEROUPPER.

var pointerRegs = []gpr{rsi, rdx, r8, r9, r10, r11, r12, r13, rbx}

const (
	argMain = 0
	argTail = 1
	argFlag = 2 // set by the code when lanes need the block machine
	argPtrs = 3

	tailMask    = 1
	scratchMask = 6
	boolMasks   = 4 // k2-k5

	// Kernels with transcendentals keep vector registers from
	// firstScratch up for the float64 temporaries of the sequences.
	firstScratch = 24
)

type nativeCode struct {
	code    []byte
	listing string
	lanes   int
	inFull  []bool // input i is read at the lane's index (else one element)
	flags   bool   // the code may flag chunks for the block machine
	bodyOps int    // instructions per vector of the loop
	// Argument words after the pointers (native_index_emit_amd64.go): the
	// chunk's first index, the chunk's first index modulo each of moduli,
	// then every input's address at its first element.
	baseArg, rawArgs int
	moduli           []int
}

type nativeEmitter struct {
	l      *nativeLowering
	a      assembler
	lanes  int
	reg    []uint8 // per node: its vector or mask register
	inPtr  map[int]gpr
	rawPtr map[int]gpr // inputs gathered, at their first element
	code   *nativeCode
	// streaming: whole vectors are stored non-temporally.
	streaming bool
	outPtr    []gpr
}

// emitNative emits the code of l; streaming makes the whole-vector loop
// store its outputs with non-temporal stores (native_stream_amd64.go).
func emitNative(l *nativeLowering, outs []int, nIn int, streaming bool) (*nativeCode, error) {
	e := &nativeEmitter{l: l, lanes: l.lanes, streaming: streaming, reg: make([]uint8, len(l.nodes)), inPtr: map[int]gpr{}, rawPtr: map[int]gpr{}}
	// Pointer registers: inputs read per lane, inputs gathered, then
	// outputs.
	code := &nativeCode{lanes: e.lanes, inFull: make([]bool, nIn), flags: l.flags}
	code.indexArgs(l, nIn, len(outs))
	e.code = code
	next := 0
	for _, n := range l.nodes {
		ptrs := e.inPtr
		if n.op == nLoad {
			code.inFull[n.input] = true
		} else if n.op == nGather {
			ptrs = e.rawPtr
		} else {
			continue
		}
		if _, ok := ptrs[n.input]; !ok {
			if next == len(pointerRegs) {
				return nil, errNotNative("more than %d streams", len(pointerRegs))
			}
			ptrs[n.input] = pointerRegs[next]
			next++
		}
	}
	for range outs {
		if next == len(pointerRegs) {
			return nil, errNotNative("more than %d streams", len(pointerRegs))
		}
		e.outPtr = append(e.outPtr, pointerRegs[next])
		next++
	}
	var pro, body []int
	for i, n := range l.nodes {
		if n.inv || n.index.carried {
			pro = append(pro, i)
		} else {
			body = append(body, i)
		}
	}
	if err := e.allocate(pro, body, outs); err != nil {
		return nil, err
	}

	a := &e.a
	a.list("; %d lanes; %d values before the loop, %d per vector", e.lanes, len(pro), len(body))
	for in, r := range e.rawPtr {
		a.movLoad(r, rdi, int32(8*(code.rawArgs+in)))
	}
	for _, i := range pro {
		if n := l.nodes[i]; n.op == nBroadcast {
			a.movLoad(rcx, rdi, int32(8*(code.rawArgs+n.input)))
		}
		e.node(i, 0)
	}
	a.movLoad(rax, rdi, 8*argMain)
	for in, r := range e.inPtr {
		a.movLoad(r, rdi, int32(8*(argPtrs+in)))
	}
	for j, r := range e.outPtr {
		a.movLoad(r, rdi, int32(8*(argPtrs+nIn+j)))
	}
	a.zero32(rcx)
	loop, tail, done := a.newLabel(), a.newLabel(), a.newLabel()
	a.test(rax)
	a.jcc(condZ, tail)
	a.bind(loop)
	before := len(a.listing)
	e.body(body, outs, 0)
	e.stepCarried(pro)
	code.bodyOps = len(a.listing) - before
	a.addImm(rcx, int32(e.lanes))
	a.cmp(rcx, rax)
	a.jcc(condB, loop)
	a.bind(tail)
	a.kmovwLoad(tailMask, memOperand{base: rdi, disp: 8 * argTail})
	a.kortestw(tailMask, tailMask)
	a.jcc(condZ, done)
	e.body(body, outs, tailMask)
	a.bind(done)
	if streaming {
		a.sfence()
	}
	a.vzeroupper()
	a.ret()
	code.code = a.finish()
	code.listing = a.text()
	return code, nil
}

// allocate gives every node a register: values before the loop keep
// theirs throughout; a body value's register is free again after its last
// reader (outputs are read by the stores at the end of the body).
func (e *nativeEmitter) allocate(pro, body, outs []int) error {
	var freeVec, freeMask []uint8
	top := 31
	if e.l.math {
		top = firstScratch - 1
	}
	for r := top; r >= 0; r-- {
		freeVec = append(freeVec, uint8(r))
	}
	for k := 2 + boolMasks - 1; k >= 2; k-- {
		freeMask = append(freeMask, uint8(k))
	}
	take := func(n int) error {
		pool := &freeVec
		if e.l.nodes[n].dt == trace.Bool {
			pool = &freeMask
		}
		if len(*pool) == 0 {
			return errNotNative("more live values than registers (%d values before the loop, node %d of %d, %s)", len(pro), n, len(e.l.nodes), e.l.nodes[n].dt)
		}
		e.reg[n] = (*pool)[len(*pool)-1]
		*pool = (*pool)[:len(*pool)-1]
		return nil
	}
	give := func(n int) {
		if e.l.nodes[n].dt == trace.Bool {
			freeMask = append(freeMask, e.reg[n])
		} else {
			freeVec = append(freeVec, e.reg[n])
		}
	}
	// A value before the loop keeps its register through the loop if the
	// body or an output reads it; otherwise only up to its last reader
	// before the loop.
	kept := map[int]bool{}
	for _, n := range body {
		for _, a := range e.l.nodes[n].args {
			kept[a] = true
		}
	}
	for _, n := range outs {
		kept[n] = true
	}
	lastPro := map[int]int{}
	for step, n := range pro {
		for _, a := range e.l.nodes[n].args {
			lastPro[a] = step
		}
	}
	for step, n := range pro {
		if err := take(n); err != nil {
			return err
		}
		released := map[int]bool{}
		for _, a := range e.l.nodes[n].args {
			if !kept[a] && !e.l.nodes[a].index.carried && lastPro[a] == step && !released[a] {
				released[a] = true
				give(a)
			}
		}
		if _, read := lastPro[n]; !read && !kept[n] && !e.l.nodes[n].index.carried {
			give(n)
		}
	}
	last := map[int]int{}
	for step, n := range body {
		for _, a := range e.l.nodes[n].args {
			last[a] = step
		}
	}
	for _, n := range outs {
		last[n] = len(body)
	}
	for step, n := range body {
		// A gather's result must not take its address's register.
		early := e.l.nodes[n].op == nGather
		if early {
			if err := take(n); err != nil {
				return err
			}
		}
		released := map[int]bool{}
		for _, a := range e.l.nodes[n].args {
			if !e.l.nodes[a].inv && !e.l.nodes[a].index.carried && last[a] == step && !released[a] {
				released[a] = true
				give(a)
			}
		}
		if !early {
			if err := take(n); err != nil {
				return err
			}
		}
		if _, used := last[n]; !used {
			give(n)
		}
	}
	return nil
}

func (e *nativeEmitter) body(body, outs []int, mask uint8) {
	for _, n := range body {
		e.node(n, mask)
	}
	for j, n := range outs {
		dt := e.l.nodes[n].dt
		op := movOp(dt, 0x11)
		if e.streaming && mask == 0 {
			op = streamOp(dt)
		}
		e.a.store(op, e.width(dt), e.lane(e.outPtr[j], dt), e.reg[n], mask)
	}
}

func (e *nativeEmitter) width(dt trace.DType) vecWidth {
	if dt.Size() == 4 && e.lanes == 8 {
		return ymmWidth
	}
	return zmmWidth
}

// lane addresses the element at the current index of a stream.
func (e *nativeEmitter) lane(base gpr, dt trace.DType) memOperand {
	return memOperand{base: base, index: rcx, hasIndex: true, scale: uint8(dt.Size())}
}

// laneAt is lane, offset elements further.
func (e *nativeEmitter) laneAt(base gpr, dt trace.DType, offset int) memOperand {
	m := e.lane(base, dt)
	m.disp = int32(offset * dt.Size())
	return m
}

// floatOp is an opcode of the 0F map in its ps (float32) or pd (float64)
// form.
func floatOp(dt trace.DType, code byte, name string) evexOp {
	if dt.Size() == 8 {
		return evexOp{pp: 1, mm: 1, w: 1, code: code, name: "v" + name + "pd"}
	}
	return evexOp{pp: 0, mm: 1, w: 0, code: code, name: "v" + name + "ps"}
}

func movOp(dt trace.DType, code byte) evexOp { return floatOp(dt, code, "movu") }

// intOp is a 66.0F opcode in its dword or qword form.
func intOp(dt trace.DType, code byte, name string) evexOp {
	if dt.Size() == 8 {
		return evexOp{pp: 1, mm: 1, w: 1, code: code, name: "vp" + name + "q"}
	}
	return evexOp{pp: 1, mm: 1, w: 0, code: code, name: "vp" + name + "d"}
}

func blendOp(dt trace.DType) evexOp {
	if dt.Size() == 8 {
		return evexOp{pp: 1, mm: 2, w: 1, code: 0x65, name: "vblendmpd"}
	}
	return evexOp{pp: 1, mm: 2, w: 0, code: 0x65, name: "vblendmps"}
}

// bitsConst is a pool constant of one element of dt, broadcast to every
// lane when read.
func (e *nativeEmitter) bitsConst(dt trace.DType, bits uint64) memOperand {
	elem := binary.LittleEndian.AppendUint64(nil, bits)[:dt.Size()]
	return memOperand{rip: true, constant: e.a.constant(elem), bcst: true, lanes: e.lanes}
}

// node emits node n; mask is the tail mask for loads (0 in the
// whole-vector body and before the loop).
func (e *nativeEmitter) node(i int, mask uint8) {
	n := &e.l.nodes[i]
	a, dst, dt := &e.a, e.reg[i], n.dt
	w := e.width(dt)
	arg := func(k int) uint8 { return e.reg[n.args[k]] }
	argRM := func(k int) rmOperand { return vreg(e.width(e.l.nodes[n.args[k]].dt), e.reg[n.args[k]]) }
	switch n.op {
	case nLoad:
		a.load(movOp(dt, 0x10), w, dst, e.laneAt(e.inPtr[n.input], dt, n.index.offset), mask)
	case nBroadcast, nConst:
		m := memOperand{base: rcx, disp: int32(n.index.offset * dt.Size())}
		if n.op == nConst {
			m = e.bitsConst(dt, n.bits)
		}
		m.bcst = false
		op := evexOp{pp: 1, mm: 2, w: 0, code: 0x18, name: "vbroadcastss"}
		if dt.Size() == 8 {
			op = evexOp{pp: 1, mm: 2, w: 1, code: 0x19, name: "vbroadcastsd"}
		}
		a.load(op, w, dst, m, 0)
	case nBinary:
		a.op3(floatOp(dt, n.sub, n.name), w, dst, arg(0), argRM(1), 0, false)
	case nMax, nMin:
		// XLA's max(x, y) is x where x >= y or x is NaN, else y (min:
		// x <= y).
		pred := byte(0x1D)
		if n.op == nMin {
			pred = 0x12
		}
		cmp := floatOp(dt, 0xC2, "cmp")
		a.compare(cmp, w, scratchMask, arg(0), argRM(1), pred)
		a.compare(cmp, w, scratchMask+1, arg(0), argRM(0), 0x03)
		a.kop("korw", 0x45, scratchMask, scratchMask, scratchMask+1)
		a.blend(blendOp(dt), w, dst, arg(1), argRM(0), scratchMask)
	case nNeg:
		a.op3(intOp(dt, 0xEF, "xor"), w, dst, arg(0), memOp(e.bitsConst(dt, signBit(dt))), 0, false)
	case nAbs:
		a.op3(intOp(dt, 0xDB, "and"), w, dst, arg(0), memOp(e.bitsConst(dt, ^signBit(dt)&allBits(dt))), 0, false)
	case nSqrt:
		a.op2(floatOp(dt, 0x51, "sqrt"), w, dst, argRM(0), w, 0, false)
	case nCompare:
		adt := e.l.nodes[n.args[0]].dt
		a.compare(floatOp(adt, 0xC2, "cmp"), e.width(adt), dst, arg(0), argRM(1), n.sub)
	case nSelect:
		a.blend(blendOp(dt), w, dst, arg(1), argRM(2), arg(0))
	case nConvert:
		if dt == trace.Float64 {
			a.op2(evexOp{pp: 0, mm: 1, w: 0, code: 0x5A, name: "vcvtps2pd"}, zmmWidth, dst, argRM(0), zmmWidth, 0, false)
		} else {
			a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0x5A, name: "vcvtpd2ps"}, ymmWidth, dst, argRM(0), zmmWidth, 0, false)
		}
	case nBoolOp:
		a.kop(map[byte]string{0x41: "kandw", 0x45: "korw", 0x47: "kxorw"}[n.sub], n.sub, dst, arg(0), arg(1))
	case nBoolNot:
		a.knotw(dst, arg(0))
	case nMath:
		e.math(n, dst, mask)
	default:
		e.indexNode(i, mask)
	}
}

func signBit(dt trace.DType) uint64 {
	if dt.Size() == 8 {
		return 1 << 63
	}
	return 1 << 31
}

func allBits(dt trace.DType) uint64 {
	if dt.Size() == 8 {
		return ^uint64(0)
	}
	return 1<<32 - 1
}
