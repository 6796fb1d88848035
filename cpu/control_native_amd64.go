package cpu

import "runtime"

// A boundNative is a step whose kernel compiled to native code, bound to
// its buffers for a whole loop: its argument block is built once and the
// code is called directly, one chunk covering the kernel (so only kernels
// of at most one chunk are bound).
type boundNative struct {
	k       *nativeKernel
	in, out []*Buffer
	args    []uintptr
	// moving lists the argument words of buffers the loop moves (scan
	// rows), with their buffers.
	moving []movingWord
}

type movingWord struct {
	word int
	buf  *Buffer
}

// bindNative returns r bound to in and out when r is native code that
// covers the kernel in one call; nil otherwise. A kernel that may hand
// lanes to the portable path and writes over its inputs runs on the
// portable path whole (nativeKernel.run), so it is not bound either.
func bindNative(r fusedRunner, in, out []*Buffer, isMoving func(*Buffer) bool) *boundNative {
	k, ok := r.(*nativeKernel)
	if !ok || k.size > k.grain || (k.code.flags && sharesMemory(in, out)) {
		return nil
	}
	b := &boundNative{k: k, in: in, out: out, args: make([]uintptr, k.code.argWords(len(in)))}
	lanes := k.code.lanes
	whole := k.size &^ (lanes - 1)
	b.args[argMain] = uintptr(whole)
	b.args[argTail] = uintptr(1)<<(k.size-whole) - 1
	k.code.setIndexArgs(b.args, 0)
	for i, buf := range in {
		// The one chunk starts at element 0: an input's address is the
		// same read per lane and gathered.
		for _, word := range []int{argPtrs + i, k.code.rawArgs + i} {
			b.args[word] = dataAddress(buf)
			if isMoving(buf) {
				b.moving = append(b.moving, movingWord{word, buf})
			}
		}
	}
	for j, buf := range out {
		b.args[argPtrs+len(in)+j] = dataAddress(buf)
		if isMoving(buf) {
			b.moving = append(b.moving, movingWord{argPtrs + len(in) + j, buf})
		}
	}
	return b
}

func (b *boundNative) refresh() {
	for _, m := range b.moving {
		b.args[m.word] = dataAddress(m.buf)
	}
}

func (b *boundNative) run() {
	callNative(b.k.mem.entry(), &b.args[0])
	if b.args[argFlag] != 0 {
		b.recompute()
	}
	runtime.KeepAlive(b)
}

// recompute runs the kernel on the portable path after its code flagged
// lanes it does not cover.
func (b *boundNative) recompute() {
	b.args[argFlag] = 0
	b.k.portable.runRange(b.in, b.out, 0, b.k.size)
}

func (b *boundNative) work() int {
	vectors := (b.k.size + b.k.code.lanes - 1) / b.k.code.lanes
	return 40 + vectors*max(1, b.k.code.bodyOps)
}

// The loop trampoline (control_native_amd64.s) runs a loop's iterations:
// per iteration the condition's calls, then (unless the predicate is
// false) the body's calls, then each loopBump.
//
//	func runLoopCalls(run *loopRun)
//
//go:noescape
func runLoopCalls(run *loopRun)

// Kinds of loopCall.
const (
	callCode    = 0 // call entry with DI = args
	callCount32 = 1 // *args[1] = *args[0] + add, 4 bytes
	callCount64 = 2 // the same, 8 bytes
	callCompare = 3 // *args[2] = outcome of *args[0] against *args[1], of compare kind sub, is in mask add
	callCopy    = 4 // copy args[2] bytes from *args[0] to *args[1]
)

type loopCall struct {
	kind  uintptr
	entry uintptr
	args  *uintptr
	add   uintptr
	sub   uintptr
}

// A loopBump moves a pointer word by delta bytes after each iteration.
type loopBump struct {
	word  *uintptr
	delta uintptr
}

// loopRun is the trampoline's argument. It runs at most iters iterations:
// calls[:ncond], then, when pred is set, stops (ended = 1) if *pred is
// false; then calls[ncond:ncalls] and the bumps. It counts the iterations
// it finished in done; when a call's code sets its flag word it stops with
// flagged = the call's index + 1, the rest of that iteration not run.
type loopRun struct {
	calls   *loopCall
	ncond   uintptr
	ncalls  uintptr
	pred    *byte
	bumps   *loopBump
	nbumps  uintptr
	iters   uintptr
	done    uintptr
	flagged uintptr
	ended   uintptr
}

// A nativeLoop is a bound loop whose every step is native code, a counter
// or a comparison.
type nativeLoop struct {
	calls    []loopCall
	ncond    int
	pred     *byte
	bumps    []loopBump
	operands [][3]uintptr
	perEntry int
	bodies   []*boundBody // kept alive while the trampoline runs
}

// nativeLoopOf returns the loop of cond (nil for a scan), testing pred,
// and body as a nativeLoop, or nil when a step is none of those kinds.
// strides gives how far each moving buffer moves per iteration.
func nativeLoopOf(cond *boundBody, pred *Buffer, body *boundBody, isMoving func(*Buffer) bool, strides map[*Buffer]int) *nativeLoop {
	l := &nativeLoop{}
	var steps []*boundStep
	work := body.work
	if cond != nil {
		if len(pred.data) == 0 {
			return nil
		}
		l.pred = &pred.data[0]
		for i := range cond.steps {
			steps = append(steps, &cond.steps[i])
		}
		l.ncond = len(steps)
		work += cond.work
		l.bodies = append(l.bodies, cond)
	}
	for i := range body.steps {
		steps = append(steps, &body.steps[i])
	}
	l.bodies = append(l.bodies, body)
	if isMoving == nil {
		isMoving = func(*Buffer) bool { return false }
	}
	// The operand words of counters and comparisons: allocated at once, so
	// that pointers to them stay valid.
	l.operands = make([][3]uintptr, len(steps))
	for i, st := range steps {
		switch {
		case st.native != nil:
			l.calls = append(l.calls, loopCall{kind: callCode, entry: st.native.k.mem.entry(), args: &st.native.args[0]})
			for _, m := range st.native.moving {
				l.bumps = append(l.bumps, loopBump{word: &st.native.args[m.word], delta: uintptr(strides[m.buf])})
			}
		case st.counter != nil:
			c := st.counter
			if isMoving(c.in) || isMoving(c.out) {
				return nil
			}
			l.operands[i] = [3]uintptr{dataAddress(c.in), dataAddress(c.out)}
			kind := uintptr(callCount32)
			if c.size == 8 {
				kind = callCount64
			}
			l.calls = append(l.calls, loopCall{kind: kind, args: &l.operands[i][0], add: uintptr(c.add)})
		case st.compare != nil:
			c := st.compare
			if isMoving(c.a) || isMoving(c.b) || isMoving(c.out) {
				return nil
			}
			l.operands[i] = [3]uintptr{dataAddress(c.a), dataAddress(c.b), dataAddress(c.out)}
			l.calls = append(l.calls, loopCall{kind: callCompare, args: &l.operands[i][0], add: c.mask, sub: c.kind})
		case st.copy != nil:
			c := st.copy
			l.operands[i] = [3]uintptr{dataAddress(c.src), dataAddress(c.dst), uintptr(len(c.dst.data))}
			for w, b := range []*Buffer{c.src, c.dst} {
				if isMoving(b) {
					l.bumps = append(l.bumps, loopBump{word: &l.operands[i][w], delta: uintptr(strides[b])})
				}
			}
			l.calls = append(l.calls, loopCall{kind: callCopy, args: &l.operands[i][0]})
		default:
			return nil
		}
	}
	if len(l.calls) == 0 && l.pred == nil {
		return nil
	}
	l.perEntry = max(1, loopCheckWork/max(1, work+8*len(l.calls)))
	return l
}

// run runs at most remaining iterations (fewer when that would take
// longer than a call should) and returns how many it finished, the step
// (counting the condition's first) whose code flagged lanes in the next one
// (-1: none), and whether the predicate ended the loop.
func (l *nativeLoop) run(remaining int) (done, flagged int, ended bool) {
	lr := loopRun{ncond: uintptr(l.ncond), ncalls: uintptr(len(l.calls)), pred: l.pred, iters: uintptr(min(remaining, l.perEntry))}
	if len(l.calls) > 0 {
		lr.calls = &l.calls[0]
	}
	if len(l.bumps) > 0 {
		lr.bumps, lr.nbumps = &l.bumps[0], uintptr(len(l.bumps))
	}
	runLoopCalls(&lr)
	runtime.KeepAlive(l)
	return int(lr.done), int(lr.flagged) - 1, lr.ended != 0
}
