package cpu

import (
	"encoding/binary"
	"math"
	"os"
	"slices"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Compiled loops. Running a loop body as a whole program execution per
// iteration (bodyRun.call) binds every operand and result of every step
// again each time: slot tables, placements, result buffers. For a small
// body that binding is most of the iteration. But when every step of a
// body is a fused kernel and every carry is updated in place, each step
// reads and writes the same memory in every iteration: arguments and
// carries stay where they are, temporaries sit at fixed arena offsets, and
// a scan's rows move by one row's bytes. Such a body is bound once per
// loop (bindBody) and its steps run directly, in the same order on the
// same memory as bodyRun.call would run them, so the results are the same
// bits.
//
// Steps whose kernel compiled to native code are called straight into
// that code; a step that only adds a constant to an integer scalar (a
// fori_loop's counter) is a loopCounter. A scan whose steps are all of
// those two kinds runs its iterations inside one call of the loop
// trampoline (control_native_amd64.go), a bounded number of iterations per
// call so that Go's scheduler, the garbage collector and cancellation are
// never held up.

// A boundBody is a loop body's steps with their buffers bound for a whole
// loop, and the buffer holding each of the body's results afterwards.
type boundBody struct {
	steps []boundStep
	res   []*Buffer
	// work estimates one run's cost in machine operations, to bound how
	// many iterations run between cancellation checks.
	work int
}

// A boundStep is one fused step of a bound body.
type boundStep struct {
	fused   fusedRunner
	in, out []*Buffer
	counter *loopCounter
	compare *loopCompare
	copy    *loopCopy
	native  *boundNative
}

// A loopCopy copies a body's result into its scan row when the body
// computed it elsewhere (a carry that is also a y, an xs row passed
// through): what bodyRun's callers copy after each run.
type loopCopy struct{ src, dst *Buffer }

func (c *loopCopy) run() { copy(c.dst.data, c.src.data) }

// A loopCounter is a step computing out = in + add on one integer element
// of 4 or 8 bytes: the wrapping addition the portable kernel performs.
type loopCounter struct {
	in, out *Buffer
	size    int
	add     uint64
}

func (c *loopCounter) run() {
	src, dst := unsafe.Pointer(unsafe.SliceData(c.in.data)), unsafe.Pointer(unsafe.SliceData(c.out.data))
	if c.size == 4 {
		*(*uint32)(dst) = *(*uint32)(src) + uint32(c.add)
	} else {
		*(*uint64)(dst) = *(*uint64)(src) + c.add
	}
}

// counterOf returns k as a loopCounter over in and out when it is one.
func counterOf(k *jit.Kernel, in, out []*Buffer) *loopCounter {
	if k == nil || k.Kind != jit.LoopKernel || len(k.Eqns) != 1 || len(k.In) != 1 || len(k.Out) != 1 || k.Shape.Size() != 1 {
		return nil
	}
	e := k.Eqns[0]
	dt := k.Out[0].Aval().DType
	if (e.Prim.Name != "add" && e.Prim.Name != "sub") || len(e.In) != 2 || e.Out[0] != k.Out[0] ||
		!dt.IsInteger() || (dt.Size() != 4 && dt.Size() != 8) || k.In[0].Aval().DType != dt {
		return nil
	}
	x, isVar := e.In[0].(*trace.Var)
	lit, isLit := e.In[1].(*trace.Literal)
	if !isVar || !isLit {
		if e.Prim.Name == "sub" {
			return nil
		}
		x, isVar = e.In[1].(*trace.Var)
		lit, isLit = e.In[0].(*trace.Literal)
	}
	if !isVar || !isLit || x != k.In[0] || lit.Aval().DType != dt {
		return nil
	}
	b, err := literalBuffer(nil, lit)
	if err != nil {
		return nil
	}
	add := binary.LittleEndian.Uint64(append(b.data[:dt.Size():dt.Size()], make([]byte, 8)...))
	if e.Prim.Name == "sub" {
		add = -add
	}
	return &loopCounter{in: in[0], out: out[0], size: dt.Size(), add: add}
}

// A loopCompare is a step comparing two scalars into a bool: a while
// loop's predicate. Its outcome is one of the compare outcomes; the
// comparison is true when mask has that outcome's bit.
type loopCompare struct {
	a, b, out *Buffer
	kind      uintptr // compareSigned32 ... compareFloat64
	mask      uintptr
}

// Kinds of loopCompare, by the operands' dtype.
const (
	compareSigned32 = iota
	compareSigned64
	compareUnsigned32
	compareUnsigned64
	compareFloat32
	compareFloat64
)

// Outcomes of a comparison.
const (
	outcomeLess      = 1
	outcomeEqual     = 2
	outcomeGreater   = 4
	outcomeUnordered = 8 // a NaN
)

// compareMasks gives each comparison's true outcomes (Go's semantics: a
// NaN makes every comparison false but ne).
var compareMasks = map[string]uintptr{
	"lt": outcomeLess, "le": outcomeLess | outcomeEqual, "gt": outcomeGreater, "ge": outcomeGreater | outcomeEqual,
	"eq": outcomeEqual, "ne": outcomeLess | outcomeGreater | outcomeUnordered,
}

func compareKind(dt trace.DType) (uintptr, bool) {
	switch dt {
	case trace.Int32:
		return compareSigned32, true
	case trace.Int64:
		return compareSigned64, true
	case trace.Uint32:
		return compareUnsigned32, true
	case trace.Float32:
		return compareFloat32, true
	case trace.Float64:
		return compareFloat64, true
	}
	return 0, false
}

// compareOf returns k as a loopCompare over in and out when it is one
// comparison of two scalars (inputs or literals).
func compareOf(k *jit.Kernel, in, out []*Buffer) *loopCompare {
	if k == nil || k.Kind != jit.LoopKernel || len(k.Eqns) != 1 || len(k.Out) != 1 || k.Shape.Size() != 1 {
		return nil
	}
	e := k.Eqns[0]
	mask, isCompare := compareMasks[e.Prim.Name]
	if !isCompare || len(e.In) != 2 || e.Out[0] != k.Out[0] || k.Out[0].Aval().DType != trace.Bool {
		return nil
	}
	dt := e.In[0].Aval().DType
	kind, ok := compareKind(dt)
	if !ok || e.In[1].Aval().DType != dt {
		return nil
	}
	operand := func(a trace.Atom) *Buffer {
		switch a := a.(type) {
		case *trace.Literal:
			b, err := literalBuffer(nil, a)
			if err != nil {
				return nil
			}
			return b
		case *trace.Var:
			for i, v := range k.In {
				if v == a && a.Aval().Size() == 1 {
					return in[i]
				}
			}
		}
		return nil
	}
	c := &loopCompare{a: operand(e.In[0]), b: operand(e.In[1]), out: out[0], kind: kind, mask: mask}
	if c.a == nil || c.b == nil {
		return nil
	}
	return c
}

func (c *loopCompare) run() {
	a, b := unsafe.Pointer(unsafe.SliceData(c.a.data)), unsafe.Pointer(unsafe.SliceData(c.b.data))
	var outcome uintptr
	switch c.kind {
	case compareSigned32:
		outcome = orderOf(*(*int32)(a), *(*int32)(b))
	case compareSigned64:
		outcome = orderOf(*(*int64)(a), *(*int64)(b))
	case compareUnsigned32:
		outcome = orderOf(*(*uint32)(a), *(*uint32)(b))
	case compareUnsigned64:
		outcome = orderOf(*(*uint64)(a), *(*uint64)(b))
	case compareFloat32:
		outcome = orderOf(*(*float32)(a), *(*float32)(b))
	case compareFloat64:
		outcome = orderOf(*(*float64)(a), *(*float64)(b))
	}
	r := byte(0)
	if outcome&c.mask != 0 {
		r = 1
	}
	c.out.data[0] = r
}

func orderOf[T int32 | int64 | uint32 | uint64 | float32 | float64](a, b T) uintptr {
	switch {
	case a < b:
		return outcomeLess
	case a > b:
		return outcomeGreater
	case a == b:
		return outcomeEqual
	}
	return outcomeUnordered
}

// bindBody binds br's steps to br.args, br.into and br.arena, or returns
// nil when the body cannot be bound: a step that is not a fused kernel, or
// a value the plan does not place in memory that stays put for the loop.
// moving are the buffers whose data the loop moves between iterations (a
// scan's rows); they are bound by pointer, never viewed.
func bindBody(br *bodyRun, isMoving func(*Buffer) bool) *boundBody {
	x := br.x
	if isMoving == nil {
		isMoving = func(*Buffer) bool { return false }
	}
	slots := make([]*Buffer, x.nslots)
	for i, b := range br.args {
		if b == nil {
			return nil
		}
		slots[x.args[i]] = b
	}
	for _, e := range x.embedded {
		slots[e.slot] = e.buf
	}
	view := func(b *Buffer, aval trace.AVal) *Buffer {
		if b == nil || b.aval.Equal(aval) {
			return b
		}
		if isMoving(b) {
			return nil
		}
		return &Buffer{aval: aval, dev: x.dev, data: b.data[:aval.Size()*aval.DType.Size()]}
	}
	dest := func(s int, aval trace.AVal) *Buffer {
		switch pl := x.place[s]; pl.kind {
		case placeOutput:
			return view(br.into[pl.index], aval)
		case placeTemp:
			return &Buffer{aval: aval, dev: x.dev, data: br.arena[pl.offset : pl.offset+aval.Size()*aval.DType.Size()]}
		case placeGiven:
			return view(slots[x.args[pl.index]], aval)
		}
		return nil // memory of its own, allocated per run
	}
	bb := &boundBody{}
	for _, st := range x.steps {
		if st.fused == nil {
			return nil
		}
		bs := boundStep{fused: st.fused, in: make([]*Buffer, len(st.in)), out: make([]*Buffer, len(st.out))}
		for i, o := range st.in {
			if bs.in[i] = o.literal; bs.in[i] == nil {
				bs.in[i] = slots[o.slot]
			}
			if bs.in[i] == nil {
				return nil
			}
		}
		for i, a := range st.avals {
			if bs.out[i] = dest(st.out[i], a); bs.out[i] == nil {
				return nil
			}
		}
		for i, s := range st.out {
			slots[s] = bs.out[i]
		}
		bs.counter = counterOf(st.kernel, bs.in, bs.out)
		if bs.counter == nil {
			bs.compare = compareOf(st.kernel, bs.in, bs.out)
		}
		if bs.counter == nil && bs.compare == nil {
			bs.native = bindNative(st.fused, bs.in, bs.out, isMoving)
		}
		bb.work += stepWork(&bs, st.kernel)
		bb.steps = append(bb.steps, bs)
	}
	for _, o := range x.outputs {
		if o.copy != nil {
			bb.res = append(bb.res, o.copy)
			continue
		}
		if x.place[o.slot].kind == placeTemp {
			return nil // a hand-made plan: the result is copied out per run
		}
		bb.res = append(bb.res, slots[o.slot])
	}
	return bb
}

// stepWork estimates a step's cost in machine operations.
func stepWork(bs *boundStep, k *jit.Kernel) int {
	switch {
	case bs.counter != nil, bs.compare != nil:
		return 8
	case bs.native != nil:
		return bs.native.work()
	case k != nil:
		return 200 + 20*max(1, len(k.Eqns))*k.Shape.Size()
	}
	return 200
}

// run runs step i.
func (bb *boundBody) run(i int, stop stopSignal) {
	st := &bb.steps[i]
	switch {
	case st.counter != nil:
		st.counter.run()
	case st.compare != nil:
		st.compare.run()
	case st.copy != nil:
		st.copy.run()
	case st.native != nil:
		st.native.run()
	default:
		st.fused.run(st.in, st.out, stop)
	}
}

func (bb *boundBody) runAll(stop stopSignal) {
	for i := range bb.steps {
		bb.run(i, stop)
	}
}

// loopCheckWork is the work between two cancellation checks of a bound
// loop (and the most one call of the loop trampoline runs): tens of
// microseconds.
const loopCheckWork = 1 << 17

// A bound loop's carries live in two sets of buffers: at even iterations
// the body reads sets[0] and writes the next values of carries with a
// spare (bodyRun.into) into sets[1], updating the others in place; at odd
// iterations the other way round. Without spares the sets are the same and
// one binding serves every iteration.
func carrySets(br *bodyRun, cur []*Buffer) (sets [2][]*Buffer, swaps bool) {
	sets[0], sets[1] = cur, slices.Clone(cur)
	for i := range cur {
		if s := br.into[i]; s != nil {
			sets[1][i], swaps = s, true
		}
	}
	return sets, swaps
}

// bindCarries binds br reading the carries of sets[p] at br.args[off:],
// or returns nil when it does not bind or leaves the next value of a carry
// without a spare elsewhere. A next value the body returns from elsewhere
// than the spare (another carry, a constant) is copied into the spare, as
// bodyRun.advance copies it; those copies come back apart, to run after
// any other copy the loop adds.
func bindCarries(br *bodyRun, off int, sets [2][]*Buffer, p int, isMoving func(*Buffer) bool) (*boundBody, []boundStep) {
	spares := slices.Clone(br.into[:len(sets[p])])
	defer copy(br.into, spares)
	copy(br.args[off:], sets[p])
	for i := range spares {
		if spares[i] != nil {
			br.into[i] = sets[1-p][i]
		}
	}
	bb := bindBody(br, isMoving)
	if bb == nil {
		return nil, nil
	}
	var copies []boundStep
	for i, c := range sets[p] {
		if spares[i] != nil {
			c = sets[1-p][i]
		}
		r := bb.res[i]
		if r == c || len(c.data) == 0 || sameMemory(r, c) {
			continue
		}
		if spares[i] == nil || len(r.data) != len(c.data) {
			return nil, nil
		}
		copies = append(copies, boundStep{copy: &loopCopy{src: r, dst: c}})
		bb.work += 8 + len(c.data)/8
	}
	return bb, copies
}

// scanBound runs a scan whose body binds, from the state runScan set up
// (rows points the xs and ys rows at iteration it's), leaving the final
// carries in cur. It reports false, having run nothing, when the body does
// not bind.
func (r *controlRunner) scanBound(body *bodyRun, cur []*Buffer, xrows, yrows []Buffer, length int, rows func(it int), done <-chan struct{}, host jit.Host) (bool, error) {
	if length == 0 || !compiledLoops() {
		return false, nil
	}
	rows(0)
	for i := range yrows {
		body.into[r.carry+i] = &yrows[i]
	}
	moving := func(b *Buffer) bool { return isElementOf(b, xrows) || isElementOf(b, yrows) }
	sets, swaps := carrySets(body, cur)
	var bbs []*boundBody
	for p := range parities(swaps) {
		bb, copies := bindCarries(body, r.bconsts, sets, p, moving)
		if bb == nil {
			return false, nil
		}
		for i := range yrows {
			if res := bb.res[r.carry+i]; res != &yrows[i] {
				if !res.aval.Equal(yrows[i].aval) {
					return false, nil
				}
				bb.steps = append(bb.steps, boundStep{copy: &loopCopy{src: res, dst: &yrows[i]}})
				bb.work += 8 + len(res.data)/8
			}
		}
		bb.steps = append(bb.steps, copies...)
		bbs = append(bbs, bb)
	}
	stop := stopSignal(done)
	var loop *nativeLoop
	if !swaps && !loopTrampolineOff {
		loop = nativeLoopOf(nil, nil, bbs[0], moving, rowStrides(xrows, yrows, length, r.eqn.Params.Bool("reverse")))
	}
	if compiledLoopHook != nil {
		compiledLoopHook(loop != nil)
	}
	if loop != nil {
		bb := bbs[0]
		for it := 0; it < length; {
			if err := cancelled(done, host); err != nil {
				return true, err
			}
			rows(it)
			bb.refresh()
			n, flagged, _ := loop.run(length - it)
			it += n
			if flagged >= 0 {
				// The step's code left lanes to the portable path: finish
				// the iteration here.
				rows(it)
				bb.refresh()
				bb.steps[flagged].native.recompute()
				for i := flagged + 1; i < len(bb.steps); i++ {
					bb.run(i, stop)
				}
				it++
			}
		}
		return true, nil
	}
	every := max(1, loopCheckWork/max(1, bbs[0].work))
	for it := range length {
		if it%every == 0 {
			if err := cancelled(done, host); err != nil {
				return true, err
			}
		}
		bb := bbs[it%len(bbs)]
		rows(it)
		bb.refresh()
		bb.runAll(stop)
	}
	copy(cur, sets[length%len(bbs)])
	return true, nil
}

// parities is the number of bindings a loop needs: two when carries swap
// with spares.
func parities(swaps bool) int {
	if swaps {
		return 2
	}
	return 1
}

// whileBound runs a while loop whose condition and body bind, from the
// state runWhile set up, leaving the final carries in cur; like scanBound
// it reports false when they do not bind.
func (r *controlRunner) whileBound(cond, body *bodyRun, cur []*Buffer, done <-chan struct{}, host jit.Host) (bool, error) {
	if !compiledLoops() {
		return false, nil
	}
	sets, swaps := carrySets(body, cur)
	var cbs, bbs []*boundBody
	for p := range parities(swaps) {
		copy(cond.args[r.cconsts:], sets[p])
		cb := bindBody(cond, nil)
		bb, copies := bindCarries(body, r.bconsts, sets, p, nil)
		if cb == nil || bb == nil {
			return false, nil
		}
		bb.steps = append(bb.steps, copies...)
		cbs, bbs = append(cbs, cb), append(bbs, bb)
	}
	pred := cbs[0].res[len(cbs[0].res)-1]
	if len(cbs) > 1 && !sameMemory(pred, cbs[1].res[len(cbs[1].res)-1]) {
		return false, nil
	}
	stop := stopSignal(done)
	var loop *nativeLoop
	if !swaps && !loopTrampolineOff {
		loop = nativeLoopOf(cbs[0], pred, bbs[0], nil, nil)
	}
	if compiledLoopHook != nil {
		compiledLoopHook(loop != nil)
	}
	if loop != nil {
		cb, bb := cbs[0], bbs[0]
		for {
			if err := cancelled(done, host); err != nil {
				return true, err
			}
			_, flagged, ended := loop.run(math.MaxInt)
			if ended {
				return true, nil
			}
			if flagged < 0 {
				continue
			}
			// A step's code left lanes to the portable path: finish the
			// iteration here.
			if flagged < len(cb.steps) {
				cb.steps[flagged].native.recompute()
				for i := flagged + 1; i < len(cb.steps); i++ {
					cb.run(i, stop)
				}
				if pred.data[0] == 0 {
					return true, nil
				}
				bb.runAll(stop)
				continue
			}
			flagged -= len(cb.steps)
			bb.steps[flagged].native.recompute()
			for i := flagged + 1; i < len(bb.steps); i++ {
				bb.run(i, stop)
			}
		}
	}
	every := max(1, loopCheckWork/max(1, bbs[0].work+cbs[0].work))
	p := 0
	for it := 0; ; it++ {
		if it%every == 0 {
			if err := cancelled(done, host); err != nil {
				return true, err
			}
		}
		cbs[p].runAll(stop)
		if pred.data[0] == 0 {
			copy(cur, sets[p])
			return true, nil
		}
		bbs[p].runAll(stop)
		p = (p + 1) % len(bbs)
	}
}

func sameMemory(a, b *Buffer) bool {
	return len(a.data) == len(b.data) && unsafe.SliceData(a.data) == unsafe.SliceData(b.data)
}

func isElementOf(b *Buffer, bs []Buffer) bool {
	for i := range bs {
		if b == &bs[i] {
			return true
		}
	}
	return false
}

// rowStrides gives, for a scan's xs and ys rows, the bytes a row's data
// moves by from one iteration to the next.
func rowStrides(xrows, yrows []Buffer, length int, reverse bool) map[*Buffer]int {
	m := map[*Buffer]int{}
	for _, rows := range [][]Buffer{xrows, yrows} {
		for i := range rows {
			n := rows[i].aval.Size() * rows[i].aval.DType.Size()
			if reverse {
				n = -n
			}
			m[&rows[i]] = n
		}
	}
	return m
}

// refresh points the native steps' argument words at their buffers' data
// again, after the loop moved rows.
func (bb *boundBody) refresh() {
	for i := range bb.steps {
		if n := bb.steps[i].native; n != nil {
			n.refresh()
		}
	}
}

// compiledLoops reports whether loop bodies may be bound and compiled;
// JAXSH_CPU_CODEGEN=0 keeps every loop on the per-iteration path, as it
// keeps every kernel on the block machine.
func compiledLoops() bool { return os.Getenv("JAXSH_CPU_CODEGEN") != "0" }

// loopTrampolineOff keeps bound scans out of the loop trampoline, so that
// benchmarks can measure the steps run from Go (set by tests only).
var loopTrampolineOff bool

// compiledLoopHook, when set (by tests, before any Execute runs), is
// called as each bound loop starts, saying whether the loop trampoline
// runs it.
var compiledLoopHook func(trampoline bool)
