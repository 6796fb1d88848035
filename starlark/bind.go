package starlark

import (
	"fmt"
	"sync"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Bind applies a primitive to arrays, all on one device, and returns its
// results. Every jnp, lax and nn function ends here: it is the one place
// where eager execution (and, with jit, tracing) happens.
func Bind(prim string, params trace.Params, args ...*Array) ([]*Array, error) {
	return bind(prim, params, args, nil)
}

// bind is Bind; when first is set, an eager result list is not built: the
// first result is stored there instead (Bind1's case, the common one).
func bind(prim string, params trace.Params, args []*Array, first **Array) ([]*Array, error) {
	if dev := readyDevice(args); dev != nil {
		p := trace.Lookup(prim)
		if p == nil {
			return nil, fmt.Errorf("internal error: unknown primitive %q", prim)
		}
		return bindReady(dev, p, params, args, first)
	}
	for _, a := range args {
		if a.aval.DType == trace.Float0 {
			return nil, float0Error(prim)
		}
	}
	ts, err := traceOf(args)
	if err != nil {
		return nil, err
	}
	if ts != nil {
		return BindTraced(ts, prim, params, args...)
	}
	var dev jit.Device
	for i, a := range args {
		if dev == nil {
			dev = a.Device()
		} else if a.Device() != dev {
			return nil, fmt.Errorf("operands are on different devices: %s and %s (operand %d of %s); move them with device_put", dev, a.Device(), i, prim)
		}
	}
	if dev == nil {
		d, err := DefaultDevice()
		if err != nil {
			return nil, err
		}
		dev = d
	}
	return bindOn(dev, prim, params, args, first)
}

// BindOn is bind for primitives that may have no operands (iota).
func BindOn(dev jit.Device, prim string, params trace.Params, args ...*Array) ([]*Array, error) {
	return bindOn(dev, prim, params, args, nil)
}

func bindOn(dev jit.Device, prim string, params trace.Params, args []*Array, first **Array) ([]*Array, error) {
	ts, err := traceOf(args)
	if err != nil {
		return nil, err
	}
	if ts != nil {
		return BindTraced(ts, prim, params, args...)
	}
	p := trace.Lookup(prim)
	if p == nil {
		return nil, fmt.Errorf("internal error: unknown primitive %q", prim)
	}
	pendingOperand := false
	for _, a := range args {
		if err := a.live(); err != nil {
			return nil, fmt.Errorf("%s: %v", prim, err)
		}
		if a.readyEvent() != nil {
			pendingOperand = true
		}
	}
	if pendingOperand {
		if params == nil {
			params = trace.Params{}
		}
		return bindLater(dev, p, params, args)
	}
	return bindReady(dev, p, params, args, first)
}

// readyDevice is the device of operands that are all computed, live,
// untraced, not float0 and on that one device, while no trace is running
// anywhere: the commonest eager case, which needs none of bind's other
// checks. Nil otherwise (and for no operands).
func readyDevice(args []*Array) jit.Device {
	if len(args) == 0 || activeTraces.Load() != 0 {
		return nil
	}
	var dev jit.Device
	for _, a := range args {
		if a.tr != nil || a.fut != nil || a.donatedTo != nil || a.aval.DType == trace.Float0 {
			return nil
		}
		if d := a.buf.Device(); dev == nil {
			dev = d
		} else if d != dev {
			return nil
		}
	}
	return dev
}

// bindReady runs p eagerly on computed arrays.
func bindReady(dev jit.Device, p *trace.Primitive, params trace.Params, args []*Array, first **Array) ([]*Array, error) {
	one, outs, passed, err := applyReady(dev, p, params, args)
	if err != nil {
		return nil, err
	}
	if one != nil {
		a := resultArray(one, passed&1 != 0)
		if first != nil {
			*first = a
			return nil, nil
		}
		return []*Array{a}, nil
	}
	if first != nil && len(outs) > 0 {
		*first = resultArray(outs[0], passed&1 != 0)
		return nil, nil
	}
	res := make([]*Array, len(outs))
	for i, b := range outs {
		res[i] = resultArray(b, i >= 64 || passed&(1<<i) != 0)
	}
	return res, nil
}

// resultArray wraps an eager result; shared marks one that is also an
// operand's buffer (passed through), which both arrays then hold.
func resultArray(b jit.Buffer, shared bool) *Array {
	a := NewArray(b)
	a.shared = shared
	return a
}

// operandBuffers recycles the buffer lists the eager path hands to an
// executable, which keep nothing of them once it returns.
var operandBuffers = sync.Pool{New: func() any { return new([]jit.Buffer) }}

// applyReady runs p on the buffers of computed arrays: the result of a
// primitive with one is one, the results of any other are outs. passed has
// bit i set when result i is an operand's buffer passed through; those
// operands are marked shared here.
func applyReady(dev jit.Device, p *trace.Primitive, params trace.Params, args []*Array) (one jit.Buffer, outs []jit.Buffer, passed uint64, err error) {
	held := operandBuffers.Get().(*[]jit.Buffer)
	bufs := (*held)[:0]
	defer func() {
		clear(bufs)
		*held = bufs[:0]
		operandBuffers.Put(held)
	}()
	elements := 0
	for _, a := range args {
		b, err := a.buffer() // a failed computation's error
		if err != nil {
			return nil, nil, 0, err
		}
		bufs = append(bufs, b)
		elements = max(elements, b.AVal().Size())
	}
	one, outs, err = jit.ApplyPrimitiveOne(eagerHost(elements), dev, p, params, bufs)
	if err != nil {
		return nil, nil, 0, err
	}
	markPassed := func(i int, b jit.Buffer) {
		for k, a := range args {
			if bufs[k] == b {
				a.shared = true
				if i < 64 {
					passed |= 1 << i
				}
			}
		}
	}
	if one != nil {
		markPassed(0, one)
	}
	for i, b := range outs {
		markPassed(i, b)
	}
	return one, outs, passed, nil
}

// bindLater is the eager path of an operation whose operands are still
// being computed: it checks the operation now (errors point at the user's
// line) and dispatches it to run once they are, returning pending arrays
// at once. Without a thread to dispatch for (a Go caller) it waits instead.
func bindLater(dev jit.Device, p *trace.Primitive, params trace.Params, args []*Array) ([]*Array, error) {
	in := make([]trace.AVal, len(args))
	for i, a := range args {
		in[i] = a.aval
	}
	exe, outAvals, err := jit.PreparePrimitive(dev, p, params, in)
	if err != nil {
		return nil, err
	}
	var from *pending // a program computing an operand: its thread dispatches this
	for _, a := range args {
		if a.fut != nil {
			from = a.fut
			break
		}
	}
	if from == nil || from.st.running.Load() == 0 {
		for _, a := range args {
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
		}
		return BindOn(dev, p.Name, params, args...)
	}
	inputs := append([]*Array(nil), args...)
	pend := dispatch(from.th, dev, nil, inputs, "", func(bufs []jit.Buffer, host jit.Host) ([]jit.Buffer, error) {
		return exe.Execute(bufs, host)
	})
	res := make([]*Array, len(outAvals))
	for i, a := range outAvals {
		// An operand passed through would share its buffer: mark both, as
		// the ready path does once it sees the buffers.
		res[i] = newPendingArray(pend, i, a)
		res[i].shared = true
	}
	for _, a := range args {
		a.shared = true
	}
	return res, nil
}

// Bind1 is bind for single-result primitives.
func Bind1(prim string, params trace.Params, args ...*Array) (*Array, error) {
	var first *Array
	out, err := bind(prim, params, args, &first)
	if err != nil {
		return nil, err
	}
	if first != nil {
		return first, nil
	}
	return out[0], nil
}
