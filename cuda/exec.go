package cuda

import (
	"fmt"
	"runtime"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Executing a compiled Program on one device. Every step is queued on the
// device's stream, in program order, so one Execute needs no
// synchronisation of its own: results are returned while the GPU may still
// be computing them, and whatever reads them later (ToHost, another
// program) is queued behind.
//
// Memory follows the buffer plan (Program.Slices): per Execute, one
// temporary arena of Program.TempSize bytes, allocated and freed
// stream-ordered (cuMemAllocAsync/cuMemFreeAsync where the driver has
// memory pools), and one buffer per result; arguments (donated ones
// written in place) and embedded constants are the caller's and the
// compiler's. A Program made by hand, without a plan, gets a buffer per
// value.
//
// Host operations (debug_print, id_tap, call) run on the goroutine running
// Execute, as jit.Host requires: the stream is synchronised, the operands
// are copied into pinned host memory, the Host is called, and a call's
// results are copied back before the next step is queued. (The driver's
// cuLaunchHostFunc, bound in driver_api.go, would let taps run without
// draining the stream, but it calls back on a driver thread, which the
// jit.Host contract does not allow yet.)

type executable struct {
	dev      *Device
	prog     *jit.Program
	c        *compiled
	mod      *Module
	fns      []uintptr // per step: the kernel (0 for host steps)
	launches []launch
	run      []bool // per step: whether the launch has work
	args     []*trace.Var
	embedded map[*trace.Var]*Buffer
	literals map[int]*Buffer // outputs that are literals, made at compile time
	outAvals []trace.AVal
}

func (b *backend) Compile(p *jit.Program, d jit.Device) (jit.Executable, error) {
	dev, err := b.device(d)
	if err != nil {
		return nil, err
	}
	c, err := compileProgram(p)
	if err != nil {
		return nil, err
	}
	x := &executable{dev: dev, prog: p, c: c, embedded: map[*trace.Var]*Buffer{}, literals: map[int]*Buffer{}}
	hasKernels := false
	for _, st := range c.steps {
		if st.kind == stepKernel {
			hasKernels = true
		}
	}
	if hasKernels {
		if x.mod, err = dev.ctx.loadModule(c.ptx); err != nil {
			return nil, fmt.Errorf("cuda: loading the program's PTX: %w", err)
		}
		runtime.AddCleanup(x, func(m *Module) { _ = m.unload() }, x.mod)
	}
	for _, st := range c.steps {
		var fn uintptr
		var l launch
		ok := false
		if st.kind == stepKernel {
			if l, ok = st.shape.launchFor(dev.sms); ok {
				if fn, err = x.mod.function(st.kernel); err != nil {
					return nil, err
				}
			}
		}
		x.fns, x.launches, x.run = append(x.fns, fn), append(x.launches, l), append(x.run, ok)
	}
	x.args = p.Args
	if x.args == nil && len(p.Embedded) == 0 {
		x.args = append(append(x.args, p.Jaxpr.ConstVars...), p.Jaxpr.InVars...)
	}
	for _, e := range p.Embedded {
		buf, err := b.FromHost(dev, e.Value.AVal, e.Value.Data)
		if err != nil {
			return nil, err
		}
		x.embedded[e.Var] = buf.(*Buffer)
	}
	for i, a := range p.Jaxpr.OutVars {
		x.outAvals = append(x.outAvals, a.Aval())
		if l, ok := a.(*trace.Literal); ok {
			buf, err := literalBuffer(dev, l)
			if err != nil {
				return nil, err
			}
			x.literals[i] = buf
		}
	}
	return x, nil
}

// literalBuffer makes a device buffer holding a literal scalar.
func literalBuffer(dev *Device, l *trace.Literal) (*Buffer, error) {
	data, err := literalBytes(l)
	if err != nil {
		return nil, err
	}
	buf, err := cudaBackendFor(dev).FromHost(dev, l.Aval(), data)
	if err != nil {
		return nil, err
	}
	return buf.(*Buffer), nil
}

func cudaBackendFor(*Device) *backend {
	if theBackend != nil {
		return theBackend
	}
	return &backend{}
}

// An execution's state: where each value lives.
type execution struct {
	x      *executable
	addr   map[*trace.Var]uint64
	bufs   map[*trace.Var]*Buffer // values with buffers of their own
	outs   []*Buffer              // result buffers by output index
	arena  uint64
	keep   []*Buffer   // buffers the queued work reads
	budget *jit.Budget // the Host's, charged for every allocation (nil: none)
}

func (x *executable) Execute(args []jit.Buffer, host jit.Host) (res []jit.Buffer, err error) {
	if len(args) != len(x.args) {
		return nil, fmt.Errorf("cuda: program takes %d buffers, got %d", len(x.args), len(args))
	}
	if host == nil {
		host = jit.NoHost
	}
	dev := x.dev
	ex := &execution{x: x, addr: map[*trace.Var]uint64{}, bufs: map[*trace.Var]*Buffer{},
		outs: make([]*Buffer, len(x.outAvals)), budget: jit.BudgetOf(host)}
	argBufs := make([]*Buffer, len(args))
	for i, a := range args {
		buf, ok := a.(*Buffer)
		if !ok || buf.dev != dev {
			return nil, fmt.Errorf("cuda: argument %d is not a buffer on %s", i, dev)
		}
		argBufs[i] = buf
		ex.addr[x.args[i]] = buf.ptr
		ex.bufs[x.args[i]] = buf
	}
	for v, buf := range x.embedded {
		ex.addr[v] = buf.ptr
	}
	p := x.prog
	if p.TempSize > 0 {
		var charge deviceCharge
		if charge, err = chargeDevice(dev.memory, ex.budget, int64(p.TempSize), trace.NewAVal(trace.Uint8, p.TempSize)); err != nil {
			return nil, err
		}
		if ex.arena, err = dev.ctx.memAlloc(p.TempSize, dev.stream, dev.pools); err != nil {
			charge.release()
			return nil, err
		}
		defer func() {
			if ferr := dev.ctx.memFree(ex.arena, dev.stream, dev.pools); ferr != nil && err == nil {
				err = ferr
			}
			charge.release()
		}()
	}
	for i, st := range x.c.steps {
		if err := cancelledHost(host); err != nil {
			return nil, err
		}
		switch st.kind {
		case stepNone:
			continue
		case stepHost:
			if err := ex.hostStep(st, host); err != nil {
				return nil, err
			}
			continue
		}
		if !x.run[i] {
			for _, v := range st.out { // empty results still need a place
				if _, err := ex.dest(v); err != nil {
					return nil, err
				}
			}
			continue
		}
		params := make([]uint64, 0, len(st.in)+len(st.out))
		for _, v := range st.in {
			a, ok := ex.addr[v]
			if !ok {
				return nil, fmt.Errorf("cuda: step %s reads %v before it is written", st.kernel, v)
			}
			params = append(params, a)
		}
		for _, v := range st.out {
			a, err := ex.dest(v)
			if err != nil {
				return nil, err
			}
			params = append(params, a)
		}
		if err := dev.stream.launchKernel(x.fns[i], x.launches[i], params); err != nil {
			return nil, fmt.Errorf("cuda: launching %s: %w", st.kernel, err)
		}
	}
	res = make([]jit.Buffer, len(x.outAvals))
	for i, a := range p.Jaxpr.OutVars {
		if lit, ok := x.literals[i]; ok {
			c, err := ex.copyOf(lit, x.outAvals[i])
			if err != nil {
				return nil, err
			}
			res[i] = c
			continue
		}
		v := a.(*trace.Var)
		if buf := ex.bufs[v]; buf != nil && buf.aval.Equal(v.Aval()) {
			res[i] = buf // an argument returned as it is, or its own buffer
			continue
		}
		if emb := x.embedded[v]; emb != nil {
			c, err := ex.copyOf(emb, v.Aval())
			if err != nil {
				return nil, err
			}
			res[i] = c
			continue
		}
		sl, planned := p.Slices[v]
		switch {
		case planned && sl.Kind == jit.OutputSlice && ex.outs[sl.Index] != nil && ex.outs[sl.Index].aval.Equal(v.Aval()):
			res[i] = ex.outs[sl.Index]
		default:
			// A value living somewhere else (an arena in a hand-made
			// plan, or a view of another result): copy it out.
			addr, ok := ex.addr[v]
			if !ok {
				return nil, fmt.Errorf("cuda: result %d was never written", i)
			}
			c, err := dev.newBufferFor(v.Aval(), ex.budget)
			if err != nil {
				return nil, err
			}
			if err := dev.stream.copyDtoD(c.ptr, addr, c.size); err != nil {
				return nil, err
			}
			res[i] = c
		}
	}
	runtime.KeepAlive(argBufs)
	runtime.KeepAlive(ex.keep)
	return res, nil
}

// copyOf copies a buffer into a new result buffer.
func (ex *execution) copyOf(src *Buffer, aval trace.AVal) (*Buffer, error) {
	c, err := ex.x.dev.newBufferFor(aval, ex.budget)
	if err != nil {
		return nil, err
	}
	return c, ex.x.dev.stream.copyDtoD(c.ptr, src.ptr, c.size)
}

// dest returns the address a step writes value v at, per the plan.
func (ex *execution) dest(v *trace.Var) (uint64, error) {
	if a, ok := ex.addr[v]; ok {
		return a, nil // a donated argument written in place
	}
	x := ex.x
	aval := v.Aval()
	var a uint64
	sl, planned := x.prog.Slices[v]
	switch {
	case aval.IsToken():
		a = 0
	case planned && sl.Kind == jit.OutputSlice:
		if ex.outs[sl.Index] == nil {
			buf, err := x.dev.newBufferFor(x.outAvals[sl.Index], ex.budget)
			if err != nil {
				return 0, err
			}
			ex.outs[sl.Index] = buf
		}
		a = ex.outs[sl.Index].ptr
	case planned && sl.Kind == jit.TempSlice:
		a = ex.arena + uint64(sl.Offset)
	case planned && sl.Kind == jit.ArgSlice:
		return 0, fmt.Errorf("cuda: the plan writes %v into argument %d, which was not passed", v, sl.Index)
	default:
		buf, err := x.dev.newBufferFor(aval, ex.budget)
		if err != nil {
			return 0, err
		}
		ex.bufs[v] = buf
		a = buf.ptr
	}
	ex.addr[v] = a
	return a, nil
}

// hostStep runs a host operation: drain the stream, stage the operands in
// pinned memory, call the host, write the results back.
func (ex *execution) hostStep(st step, host jit.Host) error {
	x := ex.x
	dev := x.dev
	e := st.eqn
	var arrays []*trace.Var
	total := 0
	for _, a := range e.In {
		if v, ok := a.(*trace.Var); ok && !v.Aval().IsToken() {
			arrays = append(arrays, v)
			total += v.Aval().Size() * v.Aval().DType.Size()
		}
	}
	pin, err := dev.ctx.hostAlloc(total)
	if err != nil {
		return err
	}
	defer pin.Free()
	off := 0
	for _, v := range arrays {
		n := v.Aval().Size() * v.Aval().DType.Size()
		a, ok := ex.addr[v]
		if !ok {
			return fmt.Errorf("cuda: %s reads %v before it is written", e.Prim.Name, v)
		}
		if err := dev.stream.copyDtoHPinned(pin, off, a, n); err != nil {
			return err
		}
		off += n
	}
	if err := dev.stream.Synchronize(); err != nil {
		return fmt.Errorf("cuda: before %s: %w", e.Prim.Name, err)
	}
	data := pin.Bytes()
	var args []jit.HostArg
	off = 0
	for _, a := range e.In {
		if a.Aval().IsToken() {
			continue
		}
		if l, ok := a.(*trace.Literal); ok {
			b, err := literalBytes(l)
			if err != nil {
				return err
			}
			args = append(args, jit.HostArg{AVal: l.Aval(), Data: b})
			continue
		}
		v := a.(*trace.Var)
		n := v.Aval().Size() * v.Aval().DType.Size()
		args = append(args, jit.HostArg{AVal: v.Aval(), Data: data[off : off+n : off+n]})
		off += n
	}
	switch e.Prim.Name {
	case "debug_print":
		return host.Print(e, args)
	case "id_tap":
		if err := host.Tap(e, args); err != nil {
			return err
		}
		// The results are the operands, unchanged.
		k := 0
		for i, v := range e.Out {
			if v.Aval().IsToken() {
				continue
			}
			a, err := ex.dest(v)
			if err != nil {
				return err
			}
			if src, ok := e.In[i].(*trace.Var); ok {
				if err := dev.stream.copyDtoD(a, ex.addr[src], v.Aval().Size()*v.Aval().DType.Size()); err != nil {
					return err
				}
			} else if err := dev.stream.copyHtoD(a, args[k].Data); err != nil {
				return err
			}
			k++
		}
		return nil
	case "call":
		res, err := host.Call(e, args)
		if err != nil {
			return err
		}
		k := 0
		for _, v := range e.Out {
			if v.Aval().IsToken() {
				continue
			}
			n := v.Aval().Size() * v.Aval().DType.Size()
			if k >= len(res) || len(res[k]) != n {
				return fmt.Errorf("call: the host returned %d results for %d outputs", len(res), len(e.Out))
			}
			a, err := ex.dest(v)
			if err != nil {
				return err
			}
			if err := dev.stream.copyHtoD(a, res[k]); err != nil {
				return err
			}
			k++
		}
		return nil
	}
	return unsupported("host operation %s", e.Prim.Name)
}
