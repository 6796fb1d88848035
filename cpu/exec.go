package cpu

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A kernelFunc computes one equation. in holds one buffer per operand
// (literals already materialised), out one freshly allocated, zeroed buffer
// per result. Operand shapes and dtypes have passed the primitive's shape
// rule, so a kernel only reports what the rule cannot know (none so far).
type kernelFunc func(e *trace.Eqn, in, out []*Buffer) error

// kernels maps a primitive name to its kernel.
var kernels = map[string]kernelFunc{}

func registerKernel(name string, fn kernelFunc) {
	if _, dup := kernels[name]; dup {
		panic("cpu: kernel registered twice: " + name)
	}
	kernels[name] = fn
}

// HasKernel reports whether the CPU backend can run a primitive.
func HasKernel(prim string) bool { _, ok := kernels[prim]; return ok }

// executable runs a Program's kernels in order over a slot table: slot i
// holds the buffer of one variable for the duration of one Execute.
// OpaqueKernels run their equation's kernel; LoopKernels and
// ReductionKernels run as fused kernels compiled here, once.
type executable struct {
	dev      *Device
	nslots   int
	args     []int // slot of each of Program.Args
	embedded []embeddedValue
	steps    []step
	outputs  []operand
	nRefs    int // operands and results of all steps: one allocation per Execute
}

// A step is one equation run by its kernel, or one fused kernel.
type step struct {
	eqn   *trace.Eqn // the equation (opaque steps)
	fn    kernelFunc
	fused fusedRunner
	in    []operand
	out   []int
	avals []trace.AVal // of the results
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
	x := &executable{dev: dev}
	slots := map[*trace.Var]int{}
	slotOf := func(v *trace.Var) int {
		s, ok := slots[v]
		if !ok {
			s = x.nslots
			slots[v] = s
			x.nslots++
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
		if k.Kind != jit.OpaqueKernel {
			// A kernel the fused compiler cannot take (none is known)
			// still runs correctly, equation by equation.
			if fk, err := compileFused(k); err == nil {
				in := make([]trace.Atom, len(k.In))
				for i, v := range k.In {
					in[i] = v
				}
				if err := addStep(step{fused: fk}, in, k.Out); err != nil {
					return nil, err
				}
				continue
			}
		}
		for _, e := range k.Eqns {
			fn, ok := kernels[e.Prim.Name]
			if !ok {
				return nil, fmt.Errorf("cpu: no kernel for primitive %s", e.Prim.Name)
			}
			if err := addStep(step{eqn: e, fn: fn}, e.In, e.Out); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range p.Jaxpr.OutVars {
		o, err := operandOf(a)
		if err != nil {
			return nil, err
		}
		x.outputs = append(x.outputs, o)
	}
	return x, nil
}

func (x *executable) Execute(args []jit.Buffer) ([]jit.Buffer, error) {
	if len(args) != len(x.args) {
		return nil, fmt.Errorf("cpu: program takes %d buffers, got %d", len(x.args), len(args))
	}
	slots := make([]*Buffer, x.nslots)
	for i, a := range args {
		buf, ok := a.(*Buffer)
		if !ok || buf.dev != x.dev {
			return nil, fmt.Errorf("cpu: argument %d is not a buffer on %s", i, x.dev)
		}
		slots[x.args[i]] = buf
	}
	for _, e := range x.embedded {
		slots[e.slot] = e.buf
	}
	read := func(o operand) *Buffer {
		if o.literal != nil {
			return o.literal
		}
		return slots[o.slot]
	}
	refs := make([]*Buffer, x.nRefs)
	for _, st := range x.steps {
		in, out := refs[:len(st.in)], refs[len(st.in):len(st.in)+len(st.out)]
		refs = refs[len(st.in)+len(st.out):]
		for i, o := range st.in {
			in[i] = read(o)
		}
		for i, a := range st.avals {
			out[i] = newBuffer(x.dev, a)
		}
		if st.fused != nil {
			st.fused.run(in, out)
		} else if err := st.fn(st.eqn, in, out); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", st.eqn.Pos, st.eqn.Prim.Name, err)
		}
		for i, s := range st.out {
			slots[s] = out[i]
		}
	}
	res := make([]jit.Buffer, len(x.outputs))
	for i, o := range x.outputs {
		res[i] = read(o)
	}
	return res, nil
}
