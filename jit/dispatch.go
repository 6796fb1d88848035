package jit

import (
	"fmt"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/effects"
	"github.com/jaxsh/jaxsh/trace"
)

// Asynchronous dispatch (SPEC §5, DESIGN decision 5). A program is handed
// to the effects runtime of the thread of control that dispatches it (its
// Caller) and a Future comes back at once. The program starts once its
// operands are computed and, for each ordered effect it has, once the
// caller's runtime token of that kind is done; its completion becomes those
// tokens and joins its device's output token, which effects_barrier waits
// on. A caller's programs on one device also run in dispatch order: the
// device's queue is a token kind of its own (queueKind).

// A Caller is the thread of control programs are dispatched for: the
// language's threads and Go callers of the embedding API each are one.
type Caller interface {
	// Effects is the caller's effect state: runtime tokens, the mailbox
	// its callbacks run from, tap failures.
	Effects() *effects.Context
	// NewHost is called at dispatch, on the caller's goroutine, for a
	// program on dev (hostOps: one with effects). The function it returns
	// makes, on the program's goroutine, the Host that runs the program's
	// host operations for prog and charges its allocations (WithLimits); a
	// nil function means NoHost.
	NewHost(dev Device, hostOps bool) func(prog *effects.Program) Host
	// Unread is told of a program with effects that failed: its failure is
	// the next barrier's unless someone reads the Future first (MarkRead).
	Unread(f *Future)
}

// A Future is the results of a dispatched program. Its buffers are written
// by the program before its event is set, and read only after.
type Future struct {
	done *effects.Event
	outs []Buffer
	dev  Device
	read atomic.Bool
}

// Event is the program's completion; its error is the program's.
func (f *Future) Event() *effects.Event { return f.done }

// Device is where the program runs.
func (f *Future) Device() Device { return f.dev }

// Ready reports whether the program is done.
func (f *Future) Ready() bool {
	select {
	case <-f.done.Done():
		return true
	default:
		return false
	}
}

// Output is result i of a finished program, or its failure.
func (f *Future) Output(i int) (Buffer, error) {
	if err := f.done.Err(); err != nil {
		return nil, err
	}
	return f.outs[i], nil
}

// MarkRead records that someone waited for the results: a failure that was
// read is not raised again by the next barrier.
func (f *Future) MarkRead() { f.read.Store(true) }

// Read reports whether MarkRead was called.
func (f *Future) Read() bool { return f.read.Load() }

// An Operand is an input of a dispatched program: a computed buffer, or
// result Index of a program still running (Fut).
type Operand struct {
	Buf   Buffer
	Fut   *Future
	Index int
}

// pending is the event the operand waits for, or nil when it is computed.
func (o Operand) pending() *effects.Event {
	if o.Fut == nil || o.Fut.Ready() {
		return nil
	}
	return o.Fut.done
}

// buffer is the operand's buffer once it is computed.
func (o Operand) buffer() (Buffer, error) {
	if o.Fut == nil {
		return o.Buf, nil
	}
	return o.Fut.Output(o.Index)
}

// SameStorage reports two operands that hold the same buffer, or will: the
// same result of one program.
func (o Operand) SameStorage(p Operand) bool {
	if o.Fut != nil || p.Fut != nil {
		return o.Fut == p.Fut && o.Index == p.Index
	}
	return o.Buf == p.Buf
}

// queueKind is the pseudo effect kind that keeps a caller's programs on
// one device in dispatch order: the device's queue. Programs on different
// devices run concurrently; a callback's own dispatches are ordered within
// it (effects.Tokens), so a callback that runs a computation on the device
// its program occupies does not wait behind that program.
func queueKind(dev Device) string { return "queue " + dev.String() }

// effectKinds lists the runtime token kinds a program with these effects
// waits on: one per ordered effect kind, plus its device's queue.
func effectKinds(dev Device, es trace.Effects) []string {
	kinds := []string{queueKind(dev)}
	for _, e := range es.Ordered() {
		kinds = append(kinds, e.Kind)
	}
	return kinds
}

// Dispatch runs a program asynchronously on dev for caller once every
// operand is computed, and returns its Future. run executes it (on the
// program's goroutine) with the operands' buffers and the Host the caller
// made for it (NewHost). A program stops when the caller's cancellation at
// dispatch is cancelled (effects.Context.Dispatch). name, when set,
// prefixes a failure. A program with effects that fails is reported to
// caller.Unread.
func Dispatch(caller Caller, dev Device, effs trace.Effects, operands []Operand, name string,
	run func(bufs []Buffer, host Host) ([]Buffer, error)) *Future {
	ctx := caller.Effects()
	var deps []*effects.Event
	for _, o := range operands {
		if ev := o.pending(); ev != nil {
			deps = append(deps, ev)
		}
	}
	f := &Future{dev: dev}
	newHost := caller.NewHost(dev, len(effs) > 0)
	f.done = ctx.Dispatch(dev.String(), effectKinds(dev, effs), deps, func(prog *effects.Program) error {
		bufs := make([]Buffer, len(operands))
		for i, o := range operands {
			b, err := o.buffer()
			if err != nil {
				return err
			}
			bufs[i] = b
		}
		host := NoHost
		if newHost != nil {
			host = newHost(prog)
		}
		outs, err := run(bufs, host)
		if err != nil {
			if name != "" {
				err = fmt.Errorf("%s: %w", name, err)
			}
			if len(effs) > 0 {
				caller.Unread(f)
			}
			return err
		}
		f.outs = outs
		return nil
	})
	return f
}

// completedOK is the completion of every program that ran at once and
// succeeded: events are immutable once set, so one serves them all.
var completedOK = effects.Completed(nil)

// runsNow reports whether a call of c may run at once on the calling
// goroutine: a quick program (one without effects: no callback can need
// the caller) whose operands are computed and whose device queue is idle.
// That is the same as a program dispatched and finished instantly, since
// nothing could observe the difference but the time it saves (~4 us).
func (c *Compiled) runsNow(caller Caller, operands []Operand) bool {
	if !c.quick || len(c.Jaxpr.Effects) > 0 {
		return false
	}
	for _, o := range operands {
		if o.pending() != nil {
			return false
		}
	}
	return !caller.Effects().Tokens.Waiting(c.queue)
}

// callNow runs a call of c that runsNow allows, and returns its finished
// Future.
func (c *Compiled) callNow(operands []Operand, copyArg []bool) *Future {
	f := &Future{dev: c.Device}
	all := make([]Buffer, 0, len(c.Consts)+len(operands))
	all = append(all, c.Consts...)
	for _, o := range operands {
		b, err := o.buffer()
		if err != nil {
			f.done = effects.Completed(err)
			return f
		}
		all = append(all, b)
	}
	err := copyDonated(all[len(c.Consts):], copyArg)
	if err == nil {
		f.outs, err = c.Exe.Execute(all, NoHost)
	}
	switch {
	case err == nil:
		f.done = completedOK
	case c.name != "":
		f.done = effects.Completed(fmt.Errorf("%s: %w", c.name, err))
	default:
		f.done = effects.Completed(err)
	}
	return f
}
