package cpu

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A fusedRunner is a compiled LoopKernel or ReductionKernel: it reads the
// kernel's inputs (Kernel.In order) and fills its outputs (Kernel.Out
// order). A LoopKernel writes every element of them, whatever they held
// before (a fresh result buffer is not zeroed for it); a ReductionKernel
// gets them zeroed when they are fresh.
type fusedRunner interface {
	run(in, out []*Buffer, stop stopSignal)
}

// compileFused compiles a LoopKernel or ReductionKernel.
func compileFused(k *jit.Kernel) (fusedRunner, error) {
	if len(k.Out) == 0 {
		return nil, fmt.Errorf("cpu: %s kernel without outputs", k.Kind)
	}
	switch k.Kind {
	case jit.LoopKernel:
		return compileLoop(k)
	case jit.ReductionKernel:
		return compileReduction(k)
	}
	return nil, fmt.Errorf("cpu: %s kernel is not fused", k.Kind)
}

// emptyKernel has nothing to compute: its outputs have no elements.
type emptyKernel struct{}

func (emptyKernel) run(_, _ []*Buffer, _ stopSignal) {}

func compileLoop(k *jit.Kernel) (fusedRunner, error) {
	size := k.Shape.Size()
	for _, v := range k.Out {
		if v.Aval().Size() != size {
			return nil, fmt.Errorf("cpu: loop kernel over %s has output %v", k.Shape, v)
		}
	}
	if size == 0 {
		return emptyKernel{}, nil
	}
	if r, ok := loneTranspose(k); ok {
		return r, nil
	}
	c, err := newFusedCompiler(k)
	if err != nil {
		return nil, err
	}
	slots := make([]int, len(k.Out))
	for j, v := range k.Out {
		if slots[j], err = c.naturalValue(v, c.identityMap(v.Aval().Shape)); err != nil {
			return nil, err
		}
	}
	lk, err := c.loopProgram(slots, k.Out)
	if err != nil {
		return nil, err
	}
	lk.rowLen = transposedRowLen(k)
	if r, err := compileNative(k, lk); err == nil {
		return r, nil
	}
	return lk, nil
}

// transposedRowLen is the length of the loop shape's rows when the kernel
// reads an operand transposed (a transpose that moves the last axis) and
// the loop is large enough in its last two dimensions for tiles to pay: the
// loop then runs in tiles (see loopKernel.runTiled). Zero otherwise.
func transposedRowLen(k *jit.Kernel) int {
	n := len(k.Shape)
	if n < 2 || k.Shape[n-1] < tileCols/2 || k.Shape.Size()/k.Shape[n-1] < 2*tileRows {
		return 0
	}
	for _, e := range k.Eqns {
		if e.Prim.Name != "transpose" {
			continue
		}
		perm := e.Params.Ints("permutation")
		if len(perm) >= 2 && perm[len(perm)-1] != len(perm)-1 {
			return k.Shape[n-1]
		}
	}
	return 0
}

// loopProgram assembles a program storing slots[j] into output j (outs
// give their dtypes) at the loop's linear indices.
func (c *fusedCompiler) loopProgram(slots []int, outs []*trace.Var) (*loopKernel, error) {
	var stores []storeInstr
	for j, s := range slots {
		sl, dt := &c.slots[s], outs[j].Aval().DType
		switch {
		case sl.kind == slotRegister && !c.inv[s] && sl.layout == dt:
			// The producer writes straight into the output.
			sl.kind, sl.out = slotOutput, j
		case sl.layout == dt:
			stores = append(stores, storeInstr{slot: s, out: j})
		case sl.layout == trace.Float32 && isHalf(dt):
			stores = append(stores, storeInstr{slot: s, out: j, narrow: dt})
		default:
			return nil, fmt.Errorf("cpu: cannot store a %s value as %s", sl.layout, dt)
		}
	}
	return &loopKernel{prog: c.assemble(slots, 0, stores), size: c.size}, nil
}

// assemble lays out the registers and splits the code into hoisted and
// per-block parts. Values the same at every position get registers of
// their own, and so do outputs written directly (for runs where they are
// in place: see slotOutput); the others share registers by liveness, a register being
// reused once its value's last reader has run (never by that reader's own
// results, so no op runs in place). keep lists slots read after the body
// (stored outputs, reduction operands).
func (c *fusedCompiler) assemble(keep []int, minBlock int, stores []storeInstr) *fusedProgram {
	maxSize := 1
	for _, sl := range c.slots {
		if sl.kind != slotView {
			maxSize = max(maxSize, sl.size)
		}
	}
	bl := max(blockLenFor(maxSize), minBlock)
	p := &fusedProgram{
		blockLen: bl, regBytes: bl * maxSize, nIndex: c.nIndex, maxArgs: c.maxArgs,
		slots: c.slots, consts: c.consts, stores: stores,
	}
	for s, sl := range p.slots {
		if sl.kind == slotOutput {
			p.direct = append(p.direct, storeInstr{slot: s, out: sl.out})
		}
	}
	var body []emitted
	for _, e := range c.code {
		if e.invariant {
			p.hoisted = append(p.hoisted, e.instr)
		} else {
			body = append(body, e)
		}
	}
	shared := func(s int) bool { return p.slots[s].kind == slotRegister && !c.inv[s] }
	for s := range p.slots {
		if k := p.slots[s].kind; k == slotRegister && c.inv[s] || k == slotOutput {
			p.slots[s].reg = p.nRegs
			p.nRegs++
		}
	}
	lastUse := make([]int, len(p.slots))
	for i := range lastUse {
		lastUse[i] = -1
	}
	for i, e := range body {
		for _, s := range e.reads {
			lastUse[s] = i
		}
		for _, s := range e.writes {
			lastUse[s] = max(lastUse[s], i)
		}
	}
	for _, s := range keep {
		lastUse[s] = len(body)
	}
	var free []int
	released := make([]bool, len(p.slots))
	release := func(s, i int) {
		if shared(s) && lastUse[s] == i && !released[s] {
			released[s] = true
			free = append(free, p.slots[s].reg)
		}
	}
	for i, e := range body {
		for _, s := range e.writes {
			if !shared(s) {
				continue
			}
			if n := len(free); n > 0 {
				p.slots[s].reg, free = free[n-1], free[:n-1]
			} else {
				p.slots[s].reg = p.nRegs
				p.nRegs++
			}
		}
		for _, s := range e.reads {
			release(s, i)
		}
		for _, s := range e.writes {
			release(s, i) // a result nobody reads
		}
		p.body = append(p.body, e.instr)
	}
	return p
}

// A transposeRunner is a loop kernel that only transposes its input: it
// runs the cache-tiled transpose kernel, where the block machine would
// load the input element by element at permuted indices.
type transposeRunner struct{ eqn *trace.Eqn }

func loneTranspose(k *jit.Kernel) (fusedRunner, bool) {
	if len(k.Eqns) != 1 || len(k.In) != 1 || len(k.Out) != 1 {
		return nil, false
	}
	e := k.Eqns[0]
	if e.Prim.Name != "transpose" || len(e.Out) != 1 || e.Out[0] != k.Out[0] || e.In[0] != trace.Atom(k.In[0]) {
		return nil, false
	}
	return transposeRunner{e}, true
}

func (t transposeRunner) run(in, out []*Buffer, _ stopSignal) {
	if err := transposeKernel(t.eqn, in, out); err != nil {
		panic("cpu: fused transpose: " + err.Error())
	}
}
