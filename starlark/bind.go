package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// bind applies a primitive to arrays, all on one device, and returns its
// results. Every jnp, lax and nn function ends here: it is the one place
// where eager execution (and, with jit, tracing) happens.
func bind(prim string, params trace.Params, args ...*Array) ([]*Array, error) {
	ts, err := traceOf(args)
	if err != nil {
		return nil, err
	}
	if ts != nil {
		return bindTraced(ts, prim, params, args...)
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
		d, err := defaultDevice()
		if err != nil {
			return nil, err
		}
		dev = d
	}
	return bindOn(dev, prim, params, args...)
}

// bindOn is bind for primitives that may have no operands (iota).
func bindOn(dev jit.Device, prim string, params trace.Params, args ...*Array) ([]*Array, error) {
	ts, err := traceOf(args)
	if err != nil {
		return nil, err
	}
	if ts != nil {
		return bindTraced(ts, prim, params, args...)
	}
	p := trace.Lookup(prim)
	if p == nil {
		return nil, fmt.Errorf("internal error: unknown primitive %q", prim)
	}
	if params == nil {
		params = trace.Params{}
	}
	bufs := make([]jit.Buffer, len(args))
	for i, a := range args {
		if err := a.live(); err != nil {
			return nil, fmt.Errorf("%s: %v", prim, err)
		}
		bufs[i] = a.buf
	}
	outs, err := jit.ApplyPrimitive(dev, p, params, bufs)
	if err != nil {
		return nil, err
	}
	res := make([]*Array, len(outs))
	for i, b := range outs {
		res[i] = newArray(b)
		for _, a := range args {
			if a.buf == b { // an operand passed through: both hold it
				a.shared, res[i].shared = true, true
			}
		}
	}
	return res, nil
}

// bind1 is bind for single-result primitives.
func bind1(prim string, params trace.Params, args ...*Array) (*Array, error) {
	out, err := bind(prim, params, args...)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}
