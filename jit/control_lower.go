package jit

import (
	"fmt"
	"maps"

	"github.com/jaxsh/jaxsh/trace"
)

// lowerControlFlow is the pipeline pass that prepares control-flow
// equations for the rest of the compiler:
//
//   - their bodies, at any depth, get the same treatment: nested jit calls
//     inlined and inner loops lowered (the tokens pass threads through
//     bodies, and knows no jit calls);
//   - a scan with unroll=k > 1 runs k iterations per trip: its body is
//     replicated k times inside a new body (which fusion then fuses across
//     iterations), and the trips that do not fill k are inlined after the
//     loop. A scan unrolled to its full length is no loop at all: its
//     iterations are inlined into the enclosing jaxpr (the study's f_for
//     with unroll=4 is one kernel).
func lowerControlFlow(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
	has := false
	for _, e := range j.Eqns {
		has = has || trace.IsControlFlow(e.Prim)
	}
	if !has {
		return j, nil
	}
	r := newRewriter(j)
	for _, e := range j.Eqns {
		e = r.operands(e)
		if !trace.IsControlFlow(e.Prim) {
			r.emit(e)
			continue
		}
		e, err := lowerBodies(c, e)
		if err != nil {
			return nil, err
		}
		if e.Prim.Name == "scan" && e.Params.Int("unroll") > 1 && !e.In[0].Aval().IsToken() {
			if err := unrollScan(r, e); err != nil {
				return nil, fmt.Errorf("%s: unrolling scan: %w", e.Pos, err)
			}
			continue
		}
		r.emit(e)
	}
	return r.finish(), nil
}

// lowerBodies returns e with its bodies lowered (a copy when any changed).
func lowerBodies(c *compilation, e *trace.Eqn) (*trace.Eqn, error) {
	changed := false
	lower := func(j *trace.Jaxpr) (*trace.Jaxpr, error) {
		nj, err := inlineCalls(c, j)
		if err != nil {
			return nil, err
		}
		if nj, err = lowerControlFlow(c, nj); err != nil {
			return nil, err
		}
		changed = changed || nj != j
		return nj, nil
	}
	params := maps.Clone(e.Params)
	for name, v := range e.Params {
		switch x := v.(type) {
		case *trace.Jaxpr:
			nj, err := lower(x)
			if err != nil {
				return nil, err
			}
			params[name] = nj
		case []*trace.Jaxpr:
			njs := make([]*trace.Jaxpr, len(x))
			for i, j := range x {
				nj, err := lower(j)
				if err != nil {
					return nil, err
				}
				njs[i] = nj
			}
			params[name] = njs
		}
	}
	if !changed {
		return e, nil
	}
	ne := *e
	ne.Params = params
	return &ne, nil
}

// unrollScan emits a scan unrolled k = unroll times (see lowerControlFlow)
// and replaces e's results by the unrolled ones.
func unrollScan(r *rewriter, e *trace.Eqn) error {
	p := e.Params
	body := p.Jaxpr("jaxpr")
	length, k, reverse := p.Int("length"), min(p.Int("unroll"), max(p.Int("length"), 1)), p.Bool("reverse")
	nc, ncar := p.Int("num_consts"), p.Int("num_carry")
	consts, carry, xs := e.In[:nc], append([]trace.Atom(nil), e.In[nc:nc+ncar]...), e.In[nc+ncar:]
	trips, rem := length/k, length%k
	nys := len(body.OutVars) - ncar
	// Rows of xs: the loop covers [lo, lo+trips*k), the rest are inlined
	// after it (before it in row order when reversed: a reversed scan
	// visits the high rows first).
	lo := 0
	if reverse {
		lo = rem
	}
	main := trips * k
	var ysMain []trace.Atom
	if trips > 1 {
		// The loop: xs blocks of k rows, a body of k iterations.
		var blocks []trace.Atom
		for _, x := range xs {
			rows, err := sliceRows(r, x, lo, lo+main, e.Pos)
			if err != nil {
				return err
			}
			shape := append(trace.Shape{trips, k}, x.Aval().Shape[1:]...)
			b, err := r.bind("reshape", []trace.Atom{rows}, trace.Params{"new_sizes": []int(shape)}, e.Pos)
			if err != nil {
				return err
			}
			blocks = append(blocks, b.Out[0])
		}
		nb, err := unrolledBody(body, nc, ncar, k, reverse, e.Pos)
		if err != nil {
			return err
		}
		np := maps.Clone(p)
		np["jaxpr"], np["length"], np["unroll"] = nb, trips, 1
		in := append(append(append([]trace.Atom(nil), consts...), carry...), blocks...)
		loop, err := newEqn("scan", in, np, e.Pos)
		if err != nil {
			return err
		}
		r.emit(loop)
		for i := range carry {
			carry[i] = loop.Out[i]
		}
		for _, y := range loop.Out[ncar:] {
			shape := append(trace.Shape{main}, y.Aval().Shape[2:]...)
			b, err := r.bind("reshape", []trace.Atom{y}, trace.Params{"new_sizes": []int(shape)}, e.Pos)
			if err != nil {
				return err
			}
			ysMain = append(ysMain, b.Out[0])
		}
	}
	// The iterations left, inlined, in visiting order.
	var rows []int
	if trips <= 1 {
		rem, main = length, 0
	}
	if reverse {
		for i := rem - 1; i >= 0; i-- {
			rows = append(rows, i)
		}
	} else {
		for i := 0; i < rem; i++ {
			rows = append(rows, main+i)
		}
	}
	ysRows := make([][]trace.Atom, nys) // per y, per row (in row order)
	for _, row := range rows {
		in := append(append([]trace.Atom(nil), consts...), carry...)
		for _, x := range xs {
			xr, err := rowOf(r, x, row, e.Pos)
			if err != nil {
				return err
			}
			in = append(in, xr)
		}
		outs, err := inlineBody(r, body, in, e.Pos)
		if err != nil {
			return err
		}
		for i := range carry {
			if carry[i], err = coerce(r, outs[i], e.Out[i].Aval(), e.Pos); err != nil {
				return err
			}
		}
		for i := range nys {
			y, err := addLeadingAxis(r, outs[ncar+i], e.Pos)
			if err != nil {
				return err
			}
			if reverse {
				ysRows[i] = append([]trace.Atom{y}, ysRows[i]...)
			} else {
				ysRows[i] = append(ysRows[i], y)
			}
		}
	}
	for i := range carry {
		r.replace(e.Out[i], carry[i])
	}
	for i := range nys {
		parts := ysRows[i]
		if ysMain != nil {
			if reverse {
				parts = append(parts, ysMain[i])
			} else {
				parts = append([]trace.Atom{ysMain[i]}, parts...)
			}
		}
		want := e.Out[ncar+i].Aval()
		var y trace.Atom
		switch len(parts) {
		case 0: // an empty scan
			zero, err := trace.NewLiteral(int64(0), want.DType, false)
			if err != nil {
				zero, err = trace.NewLiteral(false, want.DType, false)
			}
			if err != nil {
				return err
			}
			b, err := r.bind("broadcast_in_dim", []trace.Atom{zero}, trace.Params{"shape": []int(want.Shape), "broadcast_dimensions": []int{}}, e.Pos)
			if err != nil {
				return err
			}
			y = b.Out[0]
		case 1:
			y = parts[0]
		default:
			b, err := r.bind("concatenate", parts, trace.Params{"dimension": 0}, e.Pos)
			if err != nil {
				return err
			}
			y = b.Out[0]
		}
		y, err := coerce(r, y, want, e.Pos)
		if err != nil {
			return err
		}
		r.replace(e.Out[ncar+i], y)
	}
	return nil
}

// unrolledBody is a scan body that runs body k times: its xs are blocks of
// k rows, its ys blocks of k rows.
func unrolledBody(body *trace.Jaxpr, nc, ncar, k int, reverse bool, pos trace.Pos) (*trace.Jaxpr, error) {
	nb := &trace.Jaxpr{}
	r := newRewriter(nb)
	var consts, carry, blocks []trace.Atom
	for i, v := range body.InVars {
		switch {
		case i < nc:
			nv := trace.NewVar(v.Aval())
			nb.InVars = append(nb.InVars, nv)
			consts = append(consts, nv)
		case i < nc+ncar:
			nv := trace.NewVar(v.Aval())
			nb.InVars = append(nb.InVars, nv)
			carry = append(carry, nv)
		default:
			nv := trace.NewVar(v.Aval().WithShape(append(trace.Shape{k}, v.Aval().Shape...)))
			nb.InVars = append(nb.InVars, nv)
			blocks = append(blocks, nv)
		}
	}
	nys := len(body.OutVars) - ncar
	ys := make([][]trace.Atom, nys)
	for it := range k {
		row := it
		if reverse {
			row = k - 1 - it
		}
		in := append(append([]trace.Atom(nil), consts...), carry...)
		for _, b := range blocks {
			xr, err := rowOf(r, b, row, pos)
			if err != nil {
				return nil, err
			}
			in = append(in, xr)
		}
		outs, err := inlineBody(r, body, in, pos)
		if err != nil {
			return nil, err
		}
		for i := range carry {
			if carry[i], err = coerce(r, outs[i], body.InVars[nc+i].Aval(), pos); err != nil {
				return nil, err
			}
		}
		for i := range nys {
			y, err := coerce(r, outs[ncar+i], body.OutVars[ncar+i].Aval(), pos)
			if err != nil {
				return nil, err
			}
			if y, err = addLeadingAxis(r, y, pos); err != nil {
				return nil, err
			}
			if reverse {
				ys[i] = append([]trace.Atom{y}, ys[i]...)
			} else {
				ys[i] = append(ys[i], y)
			}
		}
	}
	outs := append([]trace.Atom(nil), carry...)
	for i := range nys {
		y := ys[i][0]
		if len(ys[i]) > 1 {
			b, err := r.bind("concatenate", ys[i], trace.Params{"dimension": 0}, pos)
			if err != nil {
				return nil, err
			}
			y = b.Out[0]
		}
		outs = append(outs, y)
	}
	nb.OutVars = outs
	out := r.finish()
	out.InVars = nb.InVars
	out.OutVars = make([]trace.Atom, len(outs))
	for i, a := range outs {
		out.OutVars[i] = r.atom(a)
	}
	return out, nil
}

// sliceRows is x[lo:hi] along the leading axis.
func sliceRows(r *rewriter, x trace.Atom, lo, hi int, pos trace.Pos) (trace.Atom, error) {
	shape := x.Aval().Shape
	if lo == 0 && hi == shape[0] {
		return x, nil
	}
	start, limit := make([]int, len(shape)), append([]int(nil), shape...)
	start[0], limit[0] = lo, hi
	e, err := r.bind("slice", []trace.Atom{x}, trace.Params{"start_indices": start, "limit_indices": limit, "strides": nil}, pos)
	if err != nil {
		return nil, err
	}
	return e.Out[0], nil
}

// rowOf is x[i], a static row of the leading axis.
func rowOf(r *rewriter, x trace.Atom, i int, pos trace.Pos) (trace.Atom, error) {
	s, err := sliceRows(r, x, i, i+1, pos)
	if err != nil {
		return nil, err
	}
	e, err := r.bind("reshape", []trace.Atom{s}, trace.Params{"new_sizes": []int(x.Aval().Shape[1:])}, pos)
	if err != nil {
		return nil, err
	}
	return e.Out[0], nil
}

// addLeadingAxis reshapes y to (1, *y.shape).
func addLeadingAxis(r *rewriter, y trace.Atom, pos trace.Pos) (trace.Atom, error) {
	shape := append([]int{1}, y.Aval().Shape...)
	if _, ok := y.(*trace.Literal); ok {
		e, err := r.bind("broadcast_in_dim", []trace.Atom{y}, trace.Params{"shape": shape, "broadcast_dimensions": []int{}}, pos)
		if err != nil {
			return nil, err
		}
		return e.Out[0], nil
	}
	e, err := r.bind("reshape", []trace.Atom{y}, trace.Params{"new_sizes": shape}, pos)
	if err != nil {
		return nil, err
	}
	return e.Out[0], nil
}
