package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Bind applies a primitive to arrays, all on one device, and returns its
// results. Every jnp, lax and nn function ends here: it is the one place
// where eager execution (and, with jit, tracing) happens.
func Bind(prim string, params trace.Params, args ...*Array) ([]*Array, error) {
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
	return BindOn(dev, prim, params, args...)
}

// BindOn is bind for primitives that may have no operands (iota).
func BindOn(dev jit.Device, prim string, params trace.Params, args ...*Array) ([]*Array, error) {
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
	if params == nil {
		params = trace.Params{}
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
		return bindLater(dev, p, params, args)
	}
	bufs := make([]jit.Buffer, len(args))
	for i, a := range args {
		b, err := a.buffer() // a failed computation's error
		if err != nil {
			return nil, err
		}
		bufs[i] = b
	}
	outs, err := jit.ApplyPrimitiveWith(eagerHost(), dev, p, params, bufs)
	if err != nil {
		return nil, err
	}
	res := make([]*Array, len(outs))
	for i, b := range outs {
		res[i] = NewArray(b)
		for k, a := range args {
			if bufs[k] == b { // an operand passed through: both hold it
				a.shared, res[i].shared = true, true
			}
		}
	}
	return res, nil
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
	out, err := Bind(prim, params, args...)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}
