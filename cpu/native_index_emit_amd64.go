package cpu

import (
	"encoding/binary"
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
)

// Emitting the index-map and integer nodes (native_index_amd64.go).

// indexArgs lays out the argument words after the pointers.
func (c *nativeCode) indexArgs(l *nativeLowering, nIn, nOut int) {
	c.baseArg = argPtrs + nIn + nOut
	c.moduli = l.index.moduli
	c.rawArgs = c.baseArg + 1 + len(c.moduli)
}

// argWords is the size of the argument block.
func (c *nativeCode) argWords(nIn int) int { return c.rawArgs + nIn }

// setIndexArgs fills the index words for a chunk starting at element
// first, a multiple of the lanes.
func (c *nativeCode) setIndexArgs(args []uintptr, first int) {
	args[c.baseArg] = uintptr(first)
	for k, m := range c.moduli {
		args[c.baseArg+1+k] = uintptr(first % m)
	}
}

var (
	movdqu32     = evexOp{pp: 2, mm: 1, code: 0x6F, name: "vmovdqu32"}
	broadcastD   = evexOp{pp: 1, mm: 2, code: 0x58, name: "vpbroadcastd"}
	compareU     = evexOp{pp: 1, mm: 3, code: 0x1E, name: "vpcmpud"}
	compareInt   = evexOp{pp: 1, mm: 3, code: 0x1F, name: "vpcmpd"}
	predNotBelow = uint8(5)
)

func (e *nativeEmitter) indexNode(i int, mask uint8) {
	n := &e.l.nodes[i]
	a, dst, dt := &e.a, e.reg[i], n.dt
	w := e.width(dt)
	argRM := func(k int) rmOperand { return vreg(e.width(e.l.nodes[n.args[k]].dt), e.reg[n.args[k]]) }
	switch n.op {
	case nLinear:
		a.load(broadcastD, w, dst, memOperand{base: rdi, disp: int32(8 * e.code.baseArg)}, 0)
		lanes := make([]int32, e.lanes)
		for k := range lanes {
			lanes[k] = int32(k)
		}
		a.op3(intAdd, w, dst, dst, memOp(e.laneConst(lanes)), 0, false)
	case nResidue:
		k := 0
		for e.code.moduli[k] != n.index.modulus {
			k++
		}
		a.load(broadcastD, w, dst, memOperand{base: rdi, disp: int32(8 * (e.code.baseArg + 1 + k))}, 0)
		lanes := make([]int32, e.lanes)
		for j := range lanes {
			lanes[j] = int32(j % n.index.modulus)
		}
		a.op3(intAdd, w, dst, dst, memOp(e.laneConst(lanes)), 0, false)
		e.reduceOnce(dst, n.index.modulus)
	case nLaneData:
		a.load(movdqu32, w, dst, memOperand{rip: true, constant: a.constant(n.index.data)}, 0)
	case nGather:
		if mask == 0 {
			a.kop("kxnorw", 0x46, scratchMask, scratchMask, scratchMask)
		} else {
			a.vex2(0, 0, 0x90, scratchMask, 0, rmOperand{reg: mask})
			a.list("kmovw k%d, k%d", scratchMask, mask)
		}
		addr := n.args[0]
		a.gather(w, dst, e.rawPtr[n.input], e.reg[addr], e.width(trace.Int32), uint8(dt.Size()), scratchMask)
	case nIntOp:
		a.op3(n.index.op, w, dst, e.reg[n.args[0]], argRM(1), 0, false)
	case nShift:
		digit := uint8(2)
		if n.index.op == shiftLeft {
			digit = 6
		}
		a.evex(n.index.op, w, digit, dst, argRM(0), 0, false, int(n.index.imm))
		a.list("%s %s, %s, %d", n.index.op.name, w.reg(dst), w.reg(e.reg[n.args[0]]), n.index.imm)
	case nIntToFloat:
		from := e.l.nodes[n.args[0]].dt
		a.op2(n.index.op, w, dst, argRM(0), e.width(wider(from, dt)), 0, false)
	case nIntResize:
		if dt == trace.Int32 {
			a.truncQD(dst, e.reg[n.args[0]])
		} else {
			a.op2(n.index.op, w, dst, argRM(0), zmmWidth, 0, false)
		}
	case nIntCompare:
		adt := e.l.nodes[n.args[0]].dt
		op := compareInt
		if adt.Size() == 8 {
			op.w, op.name = 1, "vpcmpq"
		}
		a.compare(op, e.width(adt), dst, e.reg[n.args[0]], argRM(1), n.sub)
	default:
		panic(fmt.Sprintf("cpu: native node op %d", n.op))
	}
}

func wider(x, y trace.DType) trace.DType {
	if x.Size() >= y.Size() {
		return x
	}
	return y
}

// laneConst is a pool constant of one int32 per lane.
func (e *nativeEmitter) laneConst(lanes []int32) memOperand {
	var b []byte
	for _, v := range lanes {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return memOperand{rip: true, constant: e.a.constant(b)}
}

// reduceOnce subtracts m from the int32 lanes of r that are at least m.
func (e *nativeEmitter) reduceOnce(r uint8, m int) {
	a, w := &e.a, e.width(trace.Int32)
	mod := memOp(e.bitsConst(trace.Int32, uint64(m)))
	a.compare(compareU, w, scratchMask, r, mod, predNotBelow)
	a.op3(intSub, w, r, r, mod, scratchMask, false)
}

// stepCarried moves the carried index values on by one vector, at the end
// of the loop's body.
func (e *nativeEmitter) stepCarried(pro []int) {
	a, w := &e.a, e.width(trace.Int32)
	for _, i := range pro {
		n := &e.l.nodes[i]
		switch n.op {
		case nLinear:
			a.op3(intAdd, w, e.reg[i], e.reg[i], memOp(e.bitsConst(trace.Int32, uint64(e.lanes))), 0, false)
		case nResidue:
			a.op3(intAdd, w, e.reg[i], e.reg[i], memOp(e.bitsConst(trace.Int32, uint64(e.lanes%n.index.modulus))), 0, false)
			e.reduceOnce(e.reg[i], n.index.modulus)
		}
	}
}

// gather: dst = the elements of size scale at base + idx·scale, in the
// lanes mask k selects (VPGATHERDD/DQ with a VSIB operand; k is cleared
// as lanes complete). dw is the destination's width, iw the index's.
func (a *assembler) gather(dw vecWidth, dst uint8, base gpr, idx uint8, iw vecWidth, scale uint8, k uint8) {
	var w byte
	name := "vpgatherdd"
	if scale == 8 {
		w, name = 1, "vpgatherdq"
	}
	bit := func(x uint8, b uint) byte { return byte(x>>b) & 1 }
	p0 := (^bit(dst, 3)&1)<<7 | (^bit(idx, 3)&1)<<6 | (^byte(base>>3)&1)<<5 | (^bit(dst, 4)&1)<<4 | 2
	p1 := w<<7 | 0xF<<3 | 1<<2 | 1
	p2 := byte(dw)<<5 | (^bit(idx, 4)&1)<<3 | k&7
	a.code = append(a.code, 0x62, p0, p1, p2, 0x90, 0x80|(dst&7)<<3|4, scaleBits(scale)<<6|(idx&7)<<3|byte(base&7), 0, 0, 0, 0)
	a.list("%s %s{k%d}, [%s+%s*%d]", name, dw.reg(dst), k, base, iw.reg(idx), scale)
}
