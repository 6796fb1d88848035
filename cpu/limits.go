package cpu

import (
	"runtime"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Memory and cancellation (DESIGN decisions 10 and 11). An Execute charges
// everything its plan allocates (result buffers, the temporary arena,
// values a hand-made plan gives buffers of their own) to the machine's
// budget and to its Host's, before allocating any of it, so an array the
// machine or the interpreter cannot hold is an error naming its shape,
// never the Go runtime's fatal out-of-memory. Results of at least
// heldBytes stay charged until the garbage collector frees them; smaller
// ones, and the arena, are released when the Execute ends (a cleanup per
// small array would cost more than the array).

// heldBytes is the smallest result that stays charged while it lives.
const heldBytes = 64 << 10

// planBytes sums what one Execute of x allocates and the largest of those
// arrays, for the error if the sum is refused.
func (x *executable) planBytes() (int64, trace.AVal) {
	total := int64(x.tempSize)
	largest := trace.NewAVal(trace.Uint8, x.tempSize)
	add := func(a trace.AVal) {
		n := int64(a.Bytes())
		total += n
		if n > int64(largest.Bytes()) {
			largest = a
		}
	}
	for _, a := range x.outAvals {
		add(a)
	}
	for _, pl := range x.place {
		if pl.kind == placeFresh {
			add(pl.aval)
		}
	}
	return total, largest
}

// A charge is what one Execute took from its budgets.
type charge struct {
	bytes   int64
	budgets [2]*jit.Budget // the machine's, and the host's if it has one
}

// chargePlan charges x's allocations to the machine and to host's budget.
func (x *executable) chargePlan(host jit.Host) (charge, error) {
	n, largest := x.plan, x.planLargest
	c := charge{bytes: n}
	if err := jit.ChargeFreeing(jit.Machine, n, largest); err != nil {
		return charge{}, err
	}
	c.budgets[0] = jit.Machine
	if b := jit.BudgetOf(host); b != nil {
		if err := jit.ChargeFreeing(b, n, largest); err != nil {
			jit.Machine.Release(n)
			return charge{}, err
		}
		c.budgets[1] = b
	}
	return c, nil
}

func (c charge) release(n int64) {
	for _, b := range c.budgets {
		if b != nil && n > 0 {
			b.Release(n)
		}
	}
}

// hold keeps charged the large results of an Execute (those not living in
// an argument's memory) until they are freed, and releases the rest.
//
// Results whose storage this run made recyclable (recyclable reports
// them) come back to the pool of recycle.go when unreachable, their charge
// released then.
func (c charge) hold(res []*Buffer, args []*Buffer, recyclable func(p *byte) bool) {
	var held int64
	for i, b := range res {
		p := unsafe.SliceData(b.data)
		n := int64(cap(b.data))
		if p == nil || n < heldBytes || held+n > c.bytes || sharesData(p, res[:i]) || sharesData(p, args) {
			continue
		}
		held += n
		if recyclable(p) && recycleWhenUnreachable(b.data, func() { c.release(n) }) {
			continue
		}
		runtime.AddCleanup(p, c.release, n)
	}
	c.release(c.bytes - held)
}

// sharesData reports whether one of bufs starts at p: a result listed
// twice, or one that lives in an argument.
func sharesData(p *byte, bufs []*Buffer) bool {
	for _, b := range bufs {
		if unsafe.SliceData(b.data) == p {
			return true
		}
	}
	return false
}

// cancelled returns the error of host's cancellation once it has happened,
// and nil while the program may go on.
func cancelled(done <-chan struct{}, host jit.Host) error {
	select {
	case <-done:
		return jit.CancellationOf(host).Err()
	default:
		return nil
	}
}

// doneOf is the channel closed when host's program is cancelled, nil for
// one that cannot be.
func doneOf(host jit.Host) <-chan struct{} {
	if c := jit.CancellationOf(host); c != nil {
		return c.Done()
	}
	return nil
}
