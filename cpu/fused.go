package cpu

import (
	"sync"
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// Fused kernels run as a small block-vector machine (DESIGN decision 7).
// The compiler (fused_compile.go) turns a LoopKernel's or ReductionKernel's
// equations into a straight instruction list over slots. A slot holds one
// value at the positions of the current block: a run of blockLen or fewer
// elements in one layout, in a register of a few KiB, so the live registers
// of a block stay in L1. Per block the machine binds slots to registers,
// runs the instructions (block ops, loads, index arithmetic, small
// reductions), and stores the outputs; blocks are split across the worker
// pool, each worker with its own registers (a fusedState).
//
// Values that do not depend on the position (literals, scalars, a spread
// element of an input, ops on those) are computed once per worker chunk
// rather than per block; literals only once per worker state.

// blockLen is the number of positions per block: small enough that a
// kernel's live registers fit in L1 next to its index vectors, large enough
// to amortise the per-instruction dispatch. Kernels with 8- or 16-byte
// values use half as many, so their registers stay 4-8 KiB.
func blockLenFor(maxSize int) int {
	if maxSize <= 4 {
		return 1024
	}
	return 512
}

// A fusedInstr is one step of a block: it reads and writes slots and index
// vectors of the state.
type fusedInstr interface{ run(s *fusedState) }

type slotKind uint8

const (
	slotRegister slotKind = iota // bound to a register per block
	slotView                     // set by its load to the input's own memory
	slotOutput                   // bound to the output's memory: its producer stores directly
)

// An output may share memory with an input the kernel reads element for
// element (jit's buffer plan allows it): then its slot is bound to a
// register of its own instead, and stored after the block's other
// instructions have read the input's block.

type slotInfo struct {
	layout trace.DType // element layout: a dtype, float32 for widened 16-bit floats
	size   int
	kind   slotKind
	reg    int // register: for slotRegister; for slotOutput when in place
	out    int // output, for slotOutput
}

// A fusedProgram is a compiled instruction list with the layout of its
// registers. It is immutable once compiled and shared by concurrent runs;
// each run takes worker states from states.
type fusedProgram struct {
	blockLen int
	regBytes int
	nRegs    int
	nIndex   int
	maxArgs  int // operands or results of the widest op
	slots    []slotInfo
	consts   []constFill  // filled when a state is made
	hoisted  []fusedInstr // run once per chunk
	body     []fusedInstr // run per block
	stores   []storeInstr // LoopKernel outputs not written directly
	direct   []storeInstr // outputs written directly, stored when in place
	states   sync.Pool
}

// A constFill is a slot holding one element everywhere: a literal, or a
// reduction's identity.
type constFill struct {
	slot int
	elem []byte
}

// A fusedState is one worker's registers and the binding of the current
// run: its inputs, outputs and block.
type fusedState struct {
	prog    *fusedProgram
	regs    [][]byte
	slots   [][]byte
	index   [][]int32
	offs    []int
	args    [][]byte // scratch run lists for block ops
	results [][]byte
	in, out []*Buffer
	inPlace bool // some output shares memory with an input
	lo, n   int
}

// alignedBytes returns n zeroed bytes backed by uint64s, so any element
// type can view them.
func alignedBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

func (p *fusedProgram) newState() *fusedState {
	s := &fusedState{
		prog:    p,
		regs:    make([][]byte, p.nRegs),
		slots:   make([][]byte, len(p.slots)),
		index:   make([][]int32, p.nIndex),
		offs:    make([]int, p.blockLen),
		args:    make([][]byte, p.maxArgs),
		results: make([][]byte, p.maxArgs),
	}
	for i := range s.regs {
		s.regs[i] = alignedBytes(p.regBytes)
	}
	for i := range s.index {
		s.index[i] = make([]int32, p.blockLen)
	}
	for _, c := range p.consts {
		fillRepeat(s.regs[p.slots[c.slot].reg][:p.blockLen*len(c.elem)], c.elem)
	}
	return s
}

// acquire returns a state bound to a run's buffers, with the hoisted
// values computed.
// acquire readies a state for blocks of at most limit elements (hoisted
// values are computed for that many: a scalar loop body's kernel has one
// element, and filling a whole block for it was most of its cost).
func (p *fusedProgram) acquire(in, out []*Buffer, limit int) *fusedState {
	s, _ := p.states.Get().(*fusedState)
	if s == nil {
		s = p.newState()
	}
	s.in, s.out = in, out
	s.inPlace = len(p.direct) > 0 && sharesMemory(in, out)
	if len(p.hoisted) > 0 {
		// Hoisted values fill the registers as far as blocks will read
		// them; they never live in outputs.
		n := min(p.blockLen, limit)
		s.lo, s.n = 0, n
		for i, sl := range p.slots {
			if sl.kind == slotRegister {
				s.slots[i] = s.regs[sl.reg][:n*sl.size]
			}
		}
		for _, ins := range p.hoisted {
			ins.run(s)
		}
	}
	return s
}

func (p *fusedProgram) release(s *fusedState) {
	s.in, s.out = nil, nil
	p.states.Put(s)
}

// bind points the slots at the current block: registers cut to n elements,
// outputs at their block of memory.
func (s *fusedState) bind(lo, n int) {
	s.lo, s.n = lo, n
	for i := range s.prog.slots {
		sl := &s.prog.slots[i]
		switch sl.kind {
		case slotRegister:
			s.slots[i] = s.regs[sl.reg][:n*sl.size]
		case slotOutput:
			if s.inPlace {
				s.slots[i] = s.regs[sl.reg][:n*sl.size]
			} else {
				s.slots[i] = s.out[sl.out].data[lo*sl.size : (lo+n)*sl.size]
			}
		}
	}
}

// sharesMemory reports whether an output overlaps an input.
func sharesMemory(in, out []*Buffer) bool {
	for _, o := range out {
		for _, i := range in {
			if len(o.data) > 0 && len(i.data) > 0 &&
				uintptr(unsafe.Pointer(&o.data[0])) < uintptr(unsafe.Pointer(&i.data[0]))+uintptr(len(i.data)) &&
				uintptr(unsafe.Pointer(&i.data[0])) < uintptr(unsafe.Pointer(&o.data[0]))+uintptr(len(o.data)) {
				return true
			}
		}
	}
	return false
}

// runBlock computes every value of the block [lo, lo+n) of the loop's
// linear indices and stores the outputs not written in place.
func (s *fusedState) runBlock(lo, n int) {
	s.bind(lo, n)
	for _, ins := range s.prog.body {
		ins.run(s)
	}
	for i := range s.prog.stores {
		s.prog.stores[i].run(s)
	}
	if s.inPlace {
		for i := range s.prog.direct {
			s.prog.direct[i].run(s)
		}
	}
}

// A storeInstr writes a slot into its output at the block's positions,
// rounding widened 16-bit floats.
type storeInstr struct {
	slot, out int
	narrow    trace.DType // the output's dtype when the slot holds it widened
}

func (st *storeInstr) run(s *fusedState) {
	b := s.out[st.out]
	src := s.slots[st.slot]
	if st.narrow != trace.InvalidDType {
		narrowRun(view[uint16](b)[s.lo:s.lo+s.n], runAs[float32](src)[:s.n], st.narrow)
		return
	}
	size := b.DType().Size()
	copy(b.data[s.lo*size:(s.lo+s.n)*size], src[:s.n*size])
}

// loopKernel runs a LoopKernel: blocks of its loop's linear indices, split
// across the worker pool.
type loopKernel struct {
	prog *fusedProgram
	size int // elements of the loop shape
	// rowLen, when set, is the length of the loop's rows, run in tiles
	// because an operand is read transposed.
	rowLen int
}

// The tiles of a loop that reads an operand transposed: runs of tileCols
// elements in tileRows consecutive rows. Output row r reads the operand's
// column r, so the tileRows runs of one tile read tileCols lines of the
// operand, each tileRows elements long: one cache line of float32 read
// once per tile instead of once per element (as a whole-row order does),
// and 16 KiB in all, which stays in L1.
const (
	tileRows = 16
	tileCols = 256
)

func (k *loopKernel) run(in, out []*Buffer, stop stopSignal) {
	if k.rowLen > 0 {
		k.runTiled(in, out, stop)
		return
	}
	bl := k.prog.blockLen
	// A chunk is grainElements elements of a short program, fewer of a long
	// one (whose elements cost more each), down to one block: chunks of
	// similar cost share the pool evenly and bound how late a stop is seen.
	grain := max(bl, grainElements*4/max(4, len(k.prog.body)))
	if k.size <= grain {
		// One chunk: run it here, without a closure (a loop body's small
		// kernels run millions of times).
		s := k.prog.acquire(in, out, k.size)
		for b := 0; b < k.size; b += bl {
			s.runBlock(b, min(bl, k.size-b))
		}
		k.prog.release(s)
		return
	}
	pool.parallelFor(stop, k.size, grain, func(lo, hi int) {
		s := k.prog.acquire(in, out, hi-lo)
		for b := lo; b < hi; b += bl {
			s.runBlock(b, min(bl, hi-b))
		}
		k.prog.release(s)
	})
}

// runTiled runs the loop tile by tile; bands of tileRows rows are shared
// among the worker pool.
func (k *loopKernel) runTiled(in, out []*Buffer, stop stopSignal) {
	rows := k.size / k.rowLen
	bands := (rows + tileRows - 1) / tileRows
	grain := max(1, grainElements/(tileRows*k.rowLen))
	bl := k.prog.blockLen
	pool.parallelFor(stop, bands, grain, func(lo, hi int) {
		s := k.prog.acquire(in, out, k.size)
		for band := lo; band < hi; band++ {
			r0, r1 := band*tileRows, min(rows, (band+1)*tileRows)
			for c0 := 0; c0 < k.rowLen; c0 += tileCols {
				c1 := min(k.rowLen, c0+tileCols)
				for r := r0; r < r1; r++ {
					for c := c0; c < c1; c += bl {
						s.runBlock(r*k.rowLen+c, min(bl, c1-c))
					}
				}
			}
		}
		k.prog.release(s)
	})
}
