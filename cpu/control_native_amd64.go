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
	b := &boundNative{k: k, in: in, out: out, args: make([]uintptr, argPtrs+len(in)+len(out))}
	lanes := k.code.lanes
	whole := k.size &^ (lanes - 1)
	b.args[argMain] = uintptr(whole)
	b.args[argTail] = uintptr(1)<<(k.size-whole) - 1
	for i, buf := range in {
		b.args[argPtrs+i] = dataAddress(buf)
		if isMoving(buf) {
			b.moving = append(b.moving, movingWord{argPtrs + i, buf})
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
// per iteration each loopCall in order, then each loopBump.
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
)

type loopCall struct {
	kind  uintptr
	entry uintptr
	args  *uintptr
	add   uintptr
}

// A loopBump moves a pointer word by delta bytes after each iteration.
type loopBump struct {
	word  *uintptr
	delta uintptr
}

// loopRun is the trampoline's argument: it runs iters iterations unless
// a call's code sets its flag word, counts the iterations it finished in
// done, and on a flag stops with flagged = the call's index + 1 (the rest
// of that iteration not run).
type loopRun struct {
	calls   *loopCall
	ncalls  uintptr
	bumps   *loopBump
	nbumps  uintptr
	iters   uintptr
	done    uintptr
	flagged uintptr
}

// A nativeLoop is a bound scan body whose every step is native code or a
// counter.
type nativeLoop struct {
	bb       *boundBody
	calls    []loopCall
	bumps    []loopBump
	counters [][2]uintptr
	perEntry int
}

// nativeLoopOf returns bb as a nativeLoop, or nil when a step is neither
// native code nor a counter. strides gives how far each moving buffer
// moves per iteration.
func nativeLoopOf(bb *boundBody, isMoving func(*Buffer) bool, strides map[*Buffer]int) *nativeLoop {
	l := &nativeLoop{bb: bb, counters: make([][2]uintptr, len(bb.steps))}
	for i := range bb.steps {
		st := &bb.steps[i]
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
			l.counters[i] = [2]uintptr{dataAddress(c.in), dataAddress(c.out)}
			kind := uintptr(callCount32)
			if c.size == 8 {
				kind = callCount64
			}
			l.calls = append(l.calls, loopCall{kind: kind, args: &l.counters[i][0], add: uintptr(c.add)})
		default:
			return nil
		}
	}
	if len(l.calls) == 0 {
		return nil
	}
	l.perEntry = max(1, loopCheckWork/max(1, bb.work+8*len(l.calls)))
	return l
}

// run runs at most remaining iterations (fewer when that would take
// longer than a call should) and returns how many it finished, and the
// step whose code flagged lanes in the next one (-1: none).
func (l *nativeLoop) run(remaining int) (done, flagged int) {
	lr := loopRun{calls: &l.calls[0], ncalls: uintptr(len(l.calls)), iters: uintptr(min(remaining, l.perEntry))}
	if len(l.bumps) > 0 {
		lr.bumps, lr.nbumps = &l.bumps[0], uintptr(len(l.bumps))
	}
	runLoopCalls(&lr)
	runtime.KeepAlive(l)
	if lr.flagged != 0 {
		return int(lr.done), int(lr.flagged) - 1
	}
	return int(lr.done), -1
}
