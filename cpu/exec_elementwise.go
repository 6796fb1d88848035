package cpu

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
)

// The direct path of a one-equation elementwise program: the eager path of
// every elementwise primitive (jit.ApplyPrimitive). A 4-element `x + 1`
// spends nearly all its time around the kernel, in the general executor's
// slot tables, arena, step loop and pooled runners, so such a program runs
// its block op straight on its arguments' buffers instead. The block op is
// the one the general step would run on the same runs, so the results are
// the same bits (exec_elementwise_test.go checks it over the block table).
// Budget charges, cancellation and the allocation hook are the general
// path's.

// maxDirectOperands bounds the operands of a direct program: every
// elementwise primitive but select_n with many cases has at most four.
const maxDirectOperands = 4

// directElementwise is what the direct path needs of a program: its block
// kernel and which argument each operand reads.
type directElementwise struct {
	k   blockKernel
	arg []int
	// spare is one Execute's run headers, kept for the next: the block op
	// is a function value, so headers passed to it live on the heap.
	spare atomic.Pointer[directRuns]
}

// directRuns is the run headers one Execute hands the block op, and room
// for one-element operands repeated to a full run when the output is tiny.
type directRuns struct {
	in   [maxDirectOperands][]byte
	out  [1][]byte
	fill [maxDirectOperands][directFillBytes]byte
}

// directFillBytes is the longest run a one-element operand is repeated
// into here (16 float32s); longer ones take the block op's own broadcast.
const directFillBytes = 64

// directPlan returns the direct plan of x, or nil when x is not exactly one
// elementwise block op reading arguments and writing its one result.
func (x *executable) directPlan() *directElementwise {
	if len(x.steps) != 1 || len(x.outputs) != 1 || x.tempSize != 0 || len(x.embedded) != 0 ||
		len(x.args) > maxDirectOperands {
		return nil
	}
	st := x.steps[0]
	if st.block == nil || len(st.out) != 1 || len(st.in) > maxDirectOperands {
		return nil
	}
	out := x.outputs[0]
	if pl := x.place[st.out[0]]; out.copy != nil || out.slot != st.out[0] || pl.kind != placeOutput || pl.index != 0 ||
		!x.outAvals[0].Equal(st.avals[0]) {
		return nil
	}
	d := &directElementwise{k: *st.block, arg: make([]int, len(st.in))}
	for i, o := range st.in {
		if o.literal != nil {
			return nil
		}
		pl := x.place[o.slot]
		if pl.kind != placeGiven || pl.index < 0 {
			return nil
		}
		d.arg[i] = pl.index
	}
	return d
}

// runs takes the spare run headers, or makes new ones when another Execute
// holds them.
func (d *directElementwise) runs() *directRuns {
	if r := d.spare.Swap(nil); r != nil {
		return r
	}
	return &directRuns{}
}

// release clears the n operand runs of r (it holds no buffer once the
// Execute returns) and keeps it as the spare.
func (d *directElementwise) release(r *directRuns, n int) {
	clear(r.in[:n])
	r.out[0] = nil
	d.spare.Store(r)
}

// executeDirect is Execute of a program with a direct plan; it returns the
// one result.
func (x *executable) executeDirect(args []jit.Buffer, host jit.Host) (*Buffer, error) {
	d := x.direct
	if len(args) != len(x.args) {
		return nil, fmt.Errorf("cpu: program takes %d buffers, got %d", len(x.args), len(args))
	}
	var bufs, in [maxDirectOperands]*Buffer
	for i, a := range args {
		buf, ok := a.(*Buffer)
		if !ok || buf.dev != x.dev {
			return nil, fmt.Errorf("cpu: argument %d is not a buffer on %s", i, x.dev)
		}
		bufs[i] = buf
	}
	for i, a := range d.arg {
		in[i] = bufs[a]
	}
	if host == nil {
		host = jit.NoHost
	}
	charged, err := x.chargePlan(host)
	if err != nil {
		return nil, err
	}
	var out [1]*Buffer
	var recyclable bool
	// The block op writes every element, so a large result is not zeroed
	// first (a second pass over memory the op overwrites).
	out[0], recyclable = newUninitializedBuffer(x.dev, x.outAvals[0])
	if err := d.run(in[:len(d.arg)], out[0], host); err != nil {
		charged.release(charged.bytes)
		return nil, err
	}
	charged.hold(out[:], bufs[:len(args)], func(p *byte) bool { return recyclable && p == unsafe.SliceData(out[0].data) })
	if execAllocHook != nil {
		execAllocHook(x, len(out[0].data))
	}
	return out[0], nil
}

// run computes out from the operands in, as the general step would: one
// block op call over whole runs when the output fits one worker's grain,
// every operand is a whole run or one element and no run is 16-bit
// computed in float32; else the eager kernel's walk (worker pool, broadcast
// rows, widening).
func (d *directElementwise) run(in []*Buffer, out *Buffer, host jit.Host) (err error) {
	n := out.Len()
	if n == 0 {
		return nil
	}
	done := doneOf(host)
	if done != nil {
		if err := cancelled(done, host); err != nil {
			return err
		}
	}
	whole := n <= grainElements && out.DType() == d.k.out[0]
	for i, b := range in {
		whole = whole && (b.Len() == n || b.Len() == 1) && b.DType() == d.k.in[i]
	}
	if whole {
		// The block op's body on full runs, as its broadcast would call it:
		// a one-element operand repeated to the output's length (every
		// element is computed from its own operands alone, so one run or
		// several give the same values).
		r := d.runs()
		body := d.k.body
		for i, b := range in {
			r.in[i] = b.data
			if size := b.DType().Size(); len(b.data) != n*size {
				if n*size > directFillBytes {
					body = d.k.op
					continue
				}
				fillRepeat(r.fill[i][:n*size], b.data)
				r.in[i] = r.fill[i][:n*size]
			}
		}
		r.out[0] = out.data
		body(r.out[:], r.in[:len(in)])
		d.release(r, len(in))
		return nil
	}
	if done != nil {
		// A kernel that saw the stop (parallelFor) unwinds to here.
		defer func() {
			if p := recover(); p != nil {
				if p != errStopped {
					panic(p)
				}
				err = cancelled(done, host)
			}
		}()
	}
	// The walk keeps its operand lists while it runs: they leave the stack.
	runElementwise(d.k, append([]*Buffer(nil), in...), []*Buffer{out}, stopSignal(done))
	return nil
}

// ExecuteOne is Execute for a program with one result, which it returns
// without a list (jit.ApplyPrimitive1).
func (x *executable) ExecuteOne(args []jit.Buffer, host jit.Host) (jit.Buffer, error) {
	if x.direct != nil {
		b, err := x.executeDirect(args, host)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	res, err := x.Execute(args, host)
	if err != nil {
		return nil, err
	}
	if len(res) != 1 {
		return nil, fmt.Errorf("cpu: program has %d results, not one", len(res))
	}
	return res[0], nil
}
