package cpu

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A kernelFunc computes one equation. in holds one buffer per operand
// (literals already materialised), out one buffer per result: where the
// program's buffer plan puts it, a view into the temporary arena or a result
// buffer. Kernels listed in writesEveryElement get it as it is (a reused
// arena holds stale bytes); every other kernel gets it zeroed. Operand
// shapes and dtypes have passed the primitive's shape rule, so a kernel only
// reports what the rule cannot know (none so far).
type kernelFunc func(e *trace.Eqn, in, out []*Buffer, stop stopSignal) error

// kernels maps a primitive name to its kernel.
var kernels = map[string]kernelFunc{}

// A hostKernelFunc runs a host operation (debug_print, id_tap, call): it
// hands its operands to the Host the program was executed with.
type hostKernelFunc func(e *trace.Eqn, in, out []*Buffer, host jit.Host) error

// hostKernels maps a host primitive's name to its kernel.
var hostKernels = map[string]hostKernelFunc{}

func registerHostKernel(name string, fn hostKernelFunc) {
	if _, dup := hostKernels[name]; dup {
		panic("cpu: host kernel registered twice: " + name)
	}
	hostKernels[name] = fn
}

func registerKernel(name string, fn kernelFunc) {
	if _, dup := kernels[name]; dup {
		panic("cpu: kernel registered twice: " + name)
	}
	kernels[name] = fn
}

// HasKernel reports whether the CPU backend can run a primitive.
func HasKernel(prim string) bool {
	_, ok := kernels[prim]
	_, host := hostKernels[prim]
	return ok || host
}

// executable runs a Program's kernels in order over a slot table: slot i
// holds the buffer of one variable for the duration of one Execute.
// OpaqueKernels run their equation's kernel; LoopKernels and
// ReductionKernels run as fused kernels compiled here, once.
//
// Memory follows the program's buffer plan (Program.Slices): per Execute,
// one arena of Program.TempSize bytes holds every temporary at its planned
// offset, one buffer per distinct result holds the values the plan puts in
// it, and arguments (donated ones written in place) and embedded constants
// are the caller's and the compiler's buffers. Nothing else is allocated
// for values; execAllocHook sees what is.
type executable struct {
	dev      *Device
	nslots   int
	args     []int // slot of each of Program.Args
	embedded []embeddedValue
	steps    []step
	outputs  []output
	nRefs    int // operands and results of all steps
	// The plan: where each slot lives (placeFresh for a program made by
	// hand, whose values get buffers of their own).
	place    []placement
	tempSize int
	nOutBufs int // distinct result buffers
	outAvals []trace.AVal
	// plan is the bytes one Execute allocates; planLargest the largest
	// array among them (limits.go).
	plan        int64
	planLargest trace.AVal
	scratch     sync.Pool // *execScratch
	arenas      sync.Pool // *[]uint64 of tempSize bytes
	// direct is set for one elementwise equation on the arguments, which
	// Execute runs without the step machinery (exec_elementwise.go).
	direct *directElementwise
}

// A placement is where a slot's value lives during an Execute.
type placement struct {
	kind   uint8 // placeFresh, placeArg, placeConst, placeOutput, placeTemp
	index  int   // output buffer index (placeOutput), Args index (placeGiven; -1: a constant)
	offset int   // arena offset (placeTemp)
	aval   trace.AVal
}

const (
	placeFresh uint8 = iota // its own buffer, allocated when written
	placeGiven              // an argument or embedded constant: already in its slot
	placeOutput
	placeTemp
)

// An output is one result of the program: a slot, or a literal or embedded
// constant copied into a result buffer of its own (index buf).
type output struct {
	slot int
	copy *Buffer // the constant to copy (nil: read the slot)
	buf  int     // result buffer index, for a copied constant
}

// execScratch is one Execute's slot tables, pooled per executable.
type execScratch struct {
	slots []*Buffer
	refs  []*Buffer
	views []Buffer // the slots' temporary views
	outs  []*Buffer
	// outZero marks result buffers allocated by this run and not yet
	// written: Go zeroed them, so a kernel that needs zeros need not
	// clear them again.
	outZero []bool
	// outRecyclable marks result buffers this run made whose storage may
	// be recycled (recycle.go).
	outRecyclable []bool
}

// execAllocHook, when set (by tests, before any Execute runs), is called
// once per Execute with the bytes it took for values: the arena (from the
// executable's pool or new) and the buffers it allocated.
var execAllocHook func(x *executable, bytes int)

// A step is one equation run by its kernel, or one fused kernel.
type step struct {
	eqn   *trace.Eqn // the equation (opaque steps)
	fn    kernelFunc
	host  hostKernelFunc // set instead of fn for a host operation
	fused fusedRunner
	// kernel is the fused step's kernel (compiled loops look at it).
	kernel *jit.Kernel
	ctrl   *controlRunner // set for a ControlKernel
	zero   bool           // the kernel needs zeroed destinations
	// overwrites: the kernel writes every element of its results, so a
	// fresh result buffer need not be zeroed for it.
	overwrites bool
	// block, when set, is the elementwise equation's block kernel, found at
	// compile time: the step runs it directly.
	block *blockKernel
	in    []operand
	out   []int
	avals []trace.AVal // of the results
}

// writesEveryElement lists the opaque kernels known to write every element
// of their results, so a destination in a reused arena need not be zeroed:
// the elementwise kernels (one store per element). Fused kernels write
// every element of their outputs. The others (dot_general, reductions,
// gather and scatter, sort, structural kernels) have not been audited for
// it and get zeroed destinations.
var writesEveryElement = map[string]bool{}

func init() {
	for _, name := range elementwisePrimitives {
		writesEveryElement[name] = true
	}
}

// An embeddedValue is a constant the compiler folded, materialised once.
type embeddedValue struct {
	slot int
	buf  *Buffer
}

// Capabilities tells jit that this backend runs LoopKernels and
// ReductionKernels (fused*.go), so programs compiled for it are fused.
func (b *backend) Capabilities() jit.Capabilities {
	return jit.Capabilities{FusedKernels: true}
}

// An operand is read from a slot, or is a literal materialised at compile
// time.
type operand struct {
	slot    int
	literal *Buffer
}

func (b *backend) Compile(p *jit.Program, d jit.Device) (jit.Executable, error) {
	dev, err := b.device(d)
	if err != nil {
		return nil, err
	}
	x := &executable{dev: dev, tempSize: p.TempSize}
	slots := map[*trace.Var]int{}
	slotOf := func(v *trace.Var) int {
		s, ok := slots[v]
		if !ok {
			s = x.nslots
			slots[v] = s
			x.nslots++
			pl := placement{kind: placeFresh, aval: v.Aval()}
			if sl, ok := p.Slices[v]; ok {
				switch sl.Kind {
				case jit.ArgSlice:
					pl.kind, pl.index = placeGiven, sl.Index
				case jit.ConstSlice:
					pl.kind, pl.index = placeGiven, -1
				case jit.OutputSlice:
					pl.kind, pl.index = placeOutput, sl.Index
				case jit.TempSlice:
					pl.kind, pl.offset = placeTemp, sl.Offset
				}
			}
			x.place = append(x.place, pl)
		}
		return s
	}
	operandOf := func(a trace.Atom) (operand, error) {
		switch a := a.(type) {
		case *trace.Var:
			return operand{slot: slotOf(a)}, nil
		case *trace.Literal:
			lit, err := literalBuffer(dev, a)
			return operand{literal: lit}, err
		}
		return operand{}, fmt.Errorf("cpu: unknown atom %T", a)
	}
	addStep := func(st step, in []trace.Atom, out []*trace.Var) error {
		for _, a := range in {
			o, err := operandOf(a)
			if err != nil {
				return err
			}
			st.in = append(st.in, o)
		}
		for _, v := range out {
			st.out = append(st.out, slotOf(v))
			st.avals = append(st.avals, v.Aval())
		}
		x.steps = append(x.steps, st)
		x.nRefs += len(st.in) + len(st.out)
		return nil
	}
	args := p.Args
	if args == nil && len(p.Embedded) == 0 { // a Program made by hand
		args = append(append(args, p.Jaxpr.ConstVars...), p.Jaxpr.InVars...)
	}
	for _, v := range args {
		x.args = append(x.args, slotOf(v))
	}
	for _, e := range p.Embedded {
		buf := newBuffer(dev, e.Value.AVal)
		copy(buf.data, e.Value.Data)
		x.embedded = append(x.embedded, embeddedValue{slot: slotOf(e.Var), buf: buf})
	}
	for _, k := range p.Kernels {
		if k.Kind == jit.ControlKernel {
			cr, err := b.compileControl(k, d)
			if err != nil {
				return nil, err
			}
			if err := addStep(step{eqn: k.Eqns[0], ctrl: cr}, k.Eqns[0].In, k.Eqns[0].Out); err != nil {
				return nil, err
			}
			continue
		}
		if k.Kind != jit.OpaqueKernel {
			// A kernel the fused compiler cannot take (none is known)
			// still runs correctly, equation by equation.
			if fk, err := compileFused(k); err == nil {
				in := make([]trace.Atom, len(k.In))
				for i, v := range k.In {
					in[i] = v
				}
				// A loop kernel computes every element of its outputs.
				if err := addStep(step{fused: fk, kernel: k, overwrites: k.Kind == jit.LoopKernel}, in, k.Out); err != nil {
					return nil, err
				}
				continue
			}
		}
		for _, e := range k.Eqns {
			fn, ok := kernels[e.Prim.Name]
			hostFn, isHost := hostKernels[e.Prim.Name]
			if !ok && !isHost {
				return nil, fmt.Errorf("cpu: no kernel for primitive %s", e.Prim.Name)
			}
			st := step{eqn: e, fn: fn, host: hostFn, zero: !writesEveryElement[e.Prim.Name]}
			if r, k := eagerNative(e); r != nil {
				st.fused, st.kernel, st.overwrites = r, k, true
			} else if k, ok := preparedElementwise(e); ok {
				st.block = &k
			}
			if err := addStep(st, e.In, e.Out); err != nil {
				return nil, err
			}
		}
	}
	// Result buffers: one per output index the plan uses.
	x.outAvals = make([]trace.AVal, len(p.Jaxpr.OutVars))
	for i, a := range p.Jaxpr.OutVars {
		x.outAvals[i] = a.Aval()
	}
	x.nOutBufs = len(p.Jaxpr.OutVars)
	first := map[*trace.Var]int{}
	for i, a := range p.Jaxpr.OutVars {
		o, err := operandOf(a)
		if err != nil {
			return nil, err
		}
		out := output{slot: o.slot, copy: o.literal, buf: i}
		if v, ok := a.(*trace.Var); ok {
			if f, seen := first[v]; seen {
				out.buf = f
			} else {
				first[v] = i
			}
			// An argument is returned as it is (an alias); an embedded
			// constant is copied into a result buffer, so that a result
			// never shares the program's own memory.
			if pl := x.place[o.slot]; pl.kind == placeGiven && pl.index < 0 {
				for _, e := range x.embedded {
					if e.slot == o.slot {
						out.copy = e.buf
					}
				}
			}
		}
		x.outputs = append(x.outputs, out)
	}
	x.plan, x.planLargest = x.planBytes()
	x.direct = x.directPlan()
	return x, nil
}

func (x *executable) getScratch() *execScratch {
	if s, ok := x.scratch.Get().(*execScratch); ok {
		return s
	}
	return &execScratch{
		slots:   make([]*Buffer, x.nslots),
		refs:    make([]*Buffer, x.nRefs),
		views:   make([]Buffer, x.nslots),
		outs:    make([]*Buffer, x.nOutBufs),
		outZero: make([]bool, x.nOutBufs),

		outRecyclable: make([]bool, x.nOutBufs),
	}
}

func (x *executable) putScratch(s *execScratch) {
	clear(s.slots)
	clear(s.refs)
	clear(s.views)
	clear(s.outs)
	clear(s.outZero)
	clear(s.outRecyclable)
	x.scratch.Put(s)
}

// getArena returns a temporary arena of tempSize bytes, 8-byte aligned,
// holding whatever an earlier Execute left in it.
func (x *executable) getArena() *[]uint64 {
	if a, ok := x.arenas.Get().(*[]uint64); ok {
		return a
	}
	a := make([]uint64, (x.tempSize+7)/8)
	return &a
}

func (x *executable) Execute(args []jit.Buffer, host jit.Host) ([]jit.Buffer, error) {
	if len(args) != len(x.args) {
		return nil, fmt.Errorf("cpu: program takes %d buffers, got %d", len(x.args), len(args))
	}
	if host == nil {
		// A caller with no thread for callbacks: host ops fail with
		// ErrNoHost rather than dereference nothing.
		host = jit.NoHost
	}
	if x.direct != nil {
		b, err := x.executeDirect(args, host)
		if err != nil {
			return nil, err
		}
		return []jit.Buffer{b}, nil
	}
	sc := x.getScratch()
	defer x.putScratch(sc)
	bufs := make([]*Buffer, len(args))
	for i, a := range args {
		buf, ok := a.(*Buffer)
		if !ok || buf.dev != x.dev {
			return nil, fmt.Errorf("cpu: argument %d is not a buffer on %s", i, x.dev)
		}
		bufs[i] = buf
	}
	charged, err := x.chargePlan(host)
	if err != nil {
		return nil, err
	}
	allocated := 0
	var arena []byte
	if x.tempSize > 0 {
		a := x.getArena()
		defer x.arenas.Put(a)
		arena = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(*a))), x.tempSize)
		allocated += x.tempSize
	}
	out := make([]*Buffer, len(x.outputs))
	n, err := x.run(sc, bufs, nil, arena, host, out)
	if err != nil {
		charged.release(charged.bytes)
		return nil, err
	}
	charged.hold(out, bufs, sc.recyclable)
	allocated += n
	if execAllocHook != nil {
		execAllocHook(x, allocated)
	}
	res := make([]jit.Buffer, len(out))
	for i, b := range out {
		res[i] = b
	}
	return res, nil
}

// run executes the program over the scratch sc with the given arguments
// and arena (of tempSize bytes), writing results into res. into, when not
// nil, gives the result buffers to write into (by result buffer index)
// instead of allocating them: a loop runs its body that way, with nothing
// allocated per iteration. It returns the bytes it allocated.
func (x *executable) run(sc *execScratch, args []*Buffer, into []*Buffer, arena []byte, host jit.Host, res []*Buffer) (allocatedTotal int, err error) {
	slots := sc.slots
	for i, buf := range args {
		slots[x.args[i]] = buf
	}
	for _, e := range x.embedded {
		slots[e.slot] = e.buf
	}
	allocated := 0
	// outBuf is result buffer i; overwritten says that its first writer
	// writes every byte of it, so Go need not zero it first.
	outBuf := func(i int, overwritten bool) *Buffer {
		if sc.outs[i] == nil {
			if into != nil && into[i] != nil {
				sc.outs[i] = into[i]
			} else if overwritten {
				sc.outs[i], sc.outRecyclable[i] = newUninitializedBuffer(x.dev, x.outAvals[i])
				allocated += len(sc.outs[i].data)
			} else {
				sc.outs[i], sc.outZero[i], sc.outRecyclable[i] = newResultBuffer(x.dev, x.outAvals[i])
				allocated += len(sc.outs[i].data)
			}
		}
		return sc.outs[i]
	}
	// dest is where a step writes slot s (fresh: whether it is zeroed);
	// writesAll says that the step writes every element of it.
	dest := func(s int, aval trace.AVal, writesAll bool) (*Buffer, bool) {
		switch pl := &x.place[s]; pl.kind {
		case placeOutput:
			whole := writesAll && aval.Size()*aval.DType.Size() == x.outAvals[pl.index].Size()*x.outAvals[pl.index].DType.Size()
			ob := outBuf(pl.index, whole)
			zeroed := sc.outZero[pl.index]
			sc.outZero[pl.index] = false // a later writer finds this one's values
			if ob.aval.Equal(aval) {
				return ob, zeroed
			}
			v := &sc.views[s]
			*v = Buffer{aval: aval, dev: x.dev, data: ob.data[:aval.Size()*aval.DType.Size()]}
			return v, zeroed
		case placeTemp:
			v := &sc.views[s]
			*v = Buffer{aval: aval, dev: x.dev, data: arena[pl.offset : pl.offset+aval.Size()*aval.DType.Size()]}
			return v, false
		case placeGiven: // a donated argument, written in place
			ab := slots[x.args[pl.index]]
			if ab.aval.Equal(aval) {
				return ab, false
			}
			v := &sc.views[s]
			*v = Buffer{aval: aval, dev: x.dev, data: ab.data[:aval.Size()*aval.DType.Size()]}
			return v, false
		}
		if writesAll {
			b, _ := newUninitializedBuffer(x.dev, aval)
			allocated += len(b.data)
			return b, false
		}
		b := newBuffer(x.dev, aval)
		allocated += len(b.data)
		return b, true
	}
	read := func(o operand) *Buffer {
		if o.literal != nil {
			return o.literal
		}
		return slots[o.slot]
	}
	refs := sc.refs
	done := doneOf(host)
	stop := stopSignal(done)
	if done != nil {
		// A kernel that saw the stop (parallelFor) unwinds to here.
		defer func() {
			if r := recover(); r != nil {
				if r != errStopped {
					panic(r)
				}
				allocatedTotal, err = allocated, cancelled(done, host)
			}
		}()
	}
	for _, st := range x.steps {
		if done != nil {
			if err := cancelled(done, host); err != nil {
				return allocated, err
			}
		}
		in, out := refs[:len(st.in)], refs[len(st.in):len(st.in)+len(st.out)]
		refs = refs[len(st.in)+len(st.out):]
		for i, o := range st.in {
			in[i] = read(o)
		}
		for i, a := range st.avals {
			b, fresh := dest(st.out[i], a, st.overwrites)
			if st.zero && !fresh {
				clear(b.data)
			}
			out[i] = b
		}
		if st.fused != nil {
			st.fused.run(in, out, stop)
		} else if st.block != nil {
			runElementwise(*st.block, in, out, stop)
		} else if st.host != nil {
			if err := st.host(st.eqn, in, out, host); err != nil {
				// A callback that gave up because the program was cancelled
				// (its context's error): the program's error is the
				// cancellation itself.
				if cerr := cancelled(done, host); cerr != nil {
					return allocated, cerr
				}
				return allocated, err
			}
		} else if st.ctrl != nil {
			n, err := st.ctrl.run(in, out, arena, host)
			allocated += n
			if err != nil {
				return allocated, err
			}
		} else if err := st.fn(st.eqn, in, out, stop); err != nil {
			return allocated, fmt.Errorf("%s: %s: %w", st.eqn.Pos, st.eqn.Prim.Name, err)
		}
		for i, s := range st.out {
			slots[s] = out[i]
		}
	}
	for i, o := range x.outputs {
		switch {
		case o.copy != nil:
			b := outBuf(o.buf, false)
			copy(b.data, o.copy.data)
			res[i] = b
		default:
			b := slots[o.slot]
			if x.place[o.slot].kind == placeTemp {
				// Only a hand-made plan leaves a result in the arena.
				c := newBuffer(x.dev, b.aval)
				copy(c.data, b.data)
				allocated += len(c.data)
				b = c
			} else if v := &sc.views[o.slot]; b == v {
				// A view of its own result buffer with another aval.
				c := *v
				b = &c
			}
			res[i] = b
		}
	}
	return allocated, nil
}
