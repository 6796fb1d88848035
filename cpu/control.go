package cpu

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Control flow: a ControlKernel runs its bodies' executables (jit/control.go
// says how the compiler lays out their memory). The kernel's result buffers
// hold the loop carries; each iteration runs the body with the current
// carries as its (donated) arguments and, for carries it does not update in
// place, a spare buffer in the kernel's scratch to write the next value
// into, after which the two swap. Scan rows are views into the xs and ys
// buffers. Nothing is allocated per iteration, and the host the program
// was executed with runs the bodies' host operations, in order.

// A controlRunner is one ControlKernel, compiled.
type controlRunner struct {
	eqn    *trace.Eqn
	ctl    *jit.Control
	bodies []*executable
	token  bool
	// cconsts, bconsts: a while's condition and body consts, a scan's
	// consts (in bconsts); carry: the carries, token included; xs: a
	// scan's xs.
	cconsts, bconsts, carry, xs int
}

func (b *backend) compileControl(k *jit.Kernel, d jit.Device) (*controlRunner, error) {
	e := k.Eqns[0]
	r := &controlRunner{eqn: e, ctl: k.Control}
	for i, bp := range k.Control.Bodies {
		x, err := b.Compile(bp, d)
		if err != nil {
			return nil, fmt.Errorf("%s body %d: %w", e.Prim.Name, i, err)
		}
		r.bodies = append(r.bodies, x.(*executable))
	}
	n := len(e.In)
	tok := 0
	if n > 0 && e.In[0].Aval().IsToken() {
		r.token, tok = true, 1
		n--
	}
	switch e.Prim.Name {
	case "while":
		r.cconsts, r.bconsts = e.Params.Int("cond_nconsts"), e.Params.Int("body_nconsts")
		r.carry = n - r.cconsts - r.bconsts + tok
	case "scan":
		r.bconsts, r.carry = e.Params.Int("num_consts"), e.Params.Int("num_carry")+tok
		r.xs = n - r.bconsts - e.Params.Int("num_carry")
	case "cond":
	default:
		return nil, fmt.Errorf("cpu: no control kernel for %s", e.Prim.Name)
	}
	return r, nil
}

// bodyRun is the per-execution state of one body: its scratch tables and
// the slices handed to executable.run, reused across iterations.
type bodyRun struct {
	x     *executable
	sc    *execScratch
	arena []byte
	args  []*Buffer
	into  []*Buffer
	res   []*Buffer
	// allocated counts the bytes the body's runs allocated (none, when
	// the plan is followed).
	allocated int
	// views are the buffers into holds: spares in the scratch, scan rows.
	views []Buffer
}

func (r *controlRunner) newBodyRun(i int, scratch []byte) *bodyRun {
	x := r.bodies[i]
	br := &bodyRun{
		x: x, sc: x.getScratch(), arena: scratch[:x.tempSize],
		args: make([]*Buffer, len(x.args)), into: make([]*Buffer, len(x.outAvals)),
		res: make([]*Buffer, len(x.outputs)), views: make([]Buffer, len(x.outAvals)),
	}
	for o, off := range r.ctl.Outs[i] {
		if off >= 0 && o < len(br.into) {
			aval := x.outAvals[o]
			br.views[o] = Buffer{aval: aval, dev: x.dev, data: scratch[off : off+aval.Size()*aval.DType.Size()]}
			br.into[o] = &br.views[o]
		}
	}
	return br
}

// done returns the scratch tables and adds the runs' allocations.
func (br *bodyRun) done(allocated *int) {
	*allocated += br.allocated
	br.x.putScratch(br.sc)
}

// call runs the body once with br.args, writing into br.into.
func (br *bodyRun) call(host jit.Host) error {
	clear(br.sc.outs)
	n, err := br.x.run(br.sc, br.args, br.into, br.arena, host, br.res)
	br.allocated += n
	return err
}

// run runs the kernel and returns the bytes its bodies allocated.
func (r *controlRunner) run(in, out []*Buffer, arena []byte, host jit.Host) (int, error) {
	scratch := arena[r.ctl.ScratchOffset : r.ctl.ScratchOffset+r.ctl.Scratch]
	allocated := 0
	var err error
	switch r.eqn.Prim.Name {
	case "cond":
		err = r.runCond(in, out, scratch, host, &allocated)
	case "while":
		err = r.runWhile(in, out, scratch, host, &allocated)
	case "scan":
		err = r.runScan(in, out, scratch, host, &allocated)
	}
	return allocated, err
}

func (r *controlRunner) runCond(in, out []*Buffer, scratch []byte, host jit.Host, allocated *int) error {
	k := 0
	if r.token {
		k = 1
	}
	idx := int(int32(binary.LittleEndian.Uint32(in[k].data)))
	idx = max(0, min(idx, len(r.bodies)-1))
	br := r.newBodyRun(idx, scratch)
	defer br.done(allocated)
	copy(br.args, in[:k])
	copy(br.args[k:], in[k+1:])
	copy(br.into, out)
	if err := br.call(host); err != nil {
		return err
	}
	for i, b := range br.res {
		if b != out[i] {
			copy(out[i].data, b.data)
		}
	}
	return nil
}

// carries splits a loop's operands into consts and carries (the token, an
// operand of its own, is the first carry).
func (r *controlRunner) carries(in []*Buffer, nconsts int) (consts, carry []*Buffer) {
	carry = make([]*Buffer, 0, r.carry)
	rest := in
	if r.token {
		carry = append(carry, in[0])
		rest = in[1:]
	}
	return rest[:nconsts], append(carry, rest[nconsts:nconsts+r.carry-len(carry)]...)
}

// startCarries copies the initial carries into the kernel's result
// buffers, where the loop runs.
func startCarries(cur, init, out []*Buffer) {
	for i := range cur {
		cur[i] = out[i]
		if !sameData(cur[i], init[i]) { // the plan may start the loop in place
			copy(cur[i].data, init[i].data)
		}
	}
}

func sameData(a, b *Buffer) bool {
	return len(a.data) == 0 || len(b.data) == 0 || unsafe.SliceData(a.data) == unsafe.SliceData(b.data)
}

// advance takes the body's results as the new carries: a carry updated in
// place is already there; any other is written into its spare (by the body,
// or copied when the body returned another buffer), and the spare and the
// current buffer swap.
func (br *bodyRun) advance(cur []*Buffer) {
	for i := range cur {
		res := br.res[i]
		spare := br.into[i]
		if spare == nil {
			if res != cur[i] {
				copy(cur[i].data, res.data)
			}
			continue
		}
		if res != spare {
			copy(spare.data, res.data)
		}
		old := cur[i]
		cur[i] = spare
		br.into[i] = old
	}
}

// finish leaves the final carries in the kernel's result buffers.
func finish(cur, out []*Buffer) {
	for i, b := range cur {
		if b != out[i] {
			copy(out[i].data, b.data)
		}
	}
}

func (r *controlRunner) runWhile(in, out []*Buffer, scratch []byte, host jit.Host, allocated *int) error {
	cconsts, init := r.carries(in, r.cconsts+r.bconsts)
	bconsts := cconsts[r.cconsts:]
	cconsts = cconsts[:r.cconsts]
	cur := make([]*Buffer, r.carry)
	startCarries(cur, init, out)
	cond := r.newBodyRun(0, scratch)
	defer cond.done(allocated)
	body := r.newBodyRun(1, scratch)
	defer body.done(allocated)
	copy(cond.args, cconsts)
	copy(body.args, bconsts)
	done := doneOf(host)
	copy(cond.args[len(cconsts):], cur)
	copy(body.args[len(bconsts):], cur)
	if bound, err := r.whileBound(cond, body, cur, done, host); bound {
		if err != nil {
			return err
		}
		finish(cur, out)
		return nil
	}
	for {
		if err := cancelled(done, host); err != nil {
			return err
		}
		copy(cond.args[len(cconsts):], cur)
		if err := cond.call(host); err != nil {
			return err
		}
		if pred := cond.res[len(cond.res)-1]; pred.data[0] == 0 {
			break
		}
		copy(body.args[len(bconsts):], cur)
		if err := body.call(host); err != nil {
			return err
		}
		body.advance(cur)
	}
	finish(cur, out)
	return nil
}

func (r *controlRunner) runScan(in, out []*Buffer, scratch []byte, host jit.Host, allocated *int) error {
	consts, init := r.carries(in, r.bconsts)
	xs := in[len(in)-r.xs:]
	cur := make([]*Buffer, r.carry)
	startCarries(cur, init, out)
	body := r.newBodyRun(0, scratch)
	defer body.done(allocated)
	copy(body.args, consts)
	length, reverse := r.eqn.Params.Int("length"), r.eqn.Params.Bool("reverse")
	// Row views of xs (arguments) and ys (results).
	xrows := make([]Buffer, len(xs))
	for i, x := range xs {
		xrows[i] = Buffer{aval: x.aval.WithShape(x.aval.Shape[1:]), dev: x.dev}
		body.args[len(consts)+r.carry+i] = &xrows[i]
	}
	ys := out[r.carry:]
	yrows := make([]Buffer, len(ys))
	for i, y := range ys {
		yrows[i] = Buffer{aval: y.aval.WithShape(y.aval.Shape[1:]), dev: y.dev}
	}
	done := doneOf(host)
	// rows points the xs and ys rows at iteration it's.
	rows := func(it int) {
		t := it
		if reverse {
			t = length - 1 - it
		}
		for i, x := range xs {
			n := len(x.data) / length
			xrows[i].data = x.data[t*n : (t+1)*n]
		}
		for i, y := range ys {
			n := len(y.data) / length
			yrows[i].data = y.data[t*n : (t+1)*n]
		}
	}
	copy(body.args[len(consts):], cur)
	if bound, err := r.scanBound(body, cur, xrows, yrows, length, rows, done, host); bound {
		if err != nil {
			return err
		}
		finish(cur, out)
		return nil
	}
	for it := range length {
		if err := cancelled(done, host); err != nil {
			return err
		}
		copy(body.args[len(consts):], cur)
		rows(it)
		for i := range ys {
			body.into[r.carry+i] = &yrows[i]
		}
		if err := body.call(host); err != nil {
			return err
		}
		for i := range ys {
			if res := body.res[r.carry+i]; res != &yrows[i] {
				copy(yrows[i].data, res.data)
			}
		}
		body.advance(cur)
	}
	finish(cur, out)
	return nil
}
