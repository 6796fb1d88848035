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
type executable struct {
	dev     *Device
	nslots  int
	args    []int // slot of each ConstVar then each InVar
	steps   []step
	outputs []operand
}

type step struct {
	eqn *trace.Eqn
	fn  kernelFunc
	in  []operand
	out []int
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
	for _, v := range p.Jaxpr.ConstVars {
		x.args = append(x.args, slotOf(v))
	}
	for _, v := range p.Jaxpr.InVars {
		x.args = append(x.args, slotOf(v))
	}
	for _, k := range p.Kernels {
		for _, e := range k.Eqns {
			fn, ok := kernels[e.Prim.Name]
			if !ok {
				return nil, fmt.Errorf("cpu: no kernel for primitive %s", e.Prim.Name)
			}
			st := step{eqn: e, fn: fn}
			for _, a := range e.In {
				o, err := operandOf(a)
				if err != nil {
					return nil, err
				}
				st.in = append(st.in, o)
			}
			for _, v := range e.Out {
				st.out = append(st.out, slotOf(v))
			}
			x.steps = append(x.steps, st)
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
	read := func(o operand) *Buffer {
		if o.literal != nil {
			return o.literal
		}
		return slots[o.slot]
	}
	for _, st := range x.steps {
		in := make([]*Buffer, len(st.in))
		for i, o := range st.in {
			in[i] = read(o)
		}
		out := make([]*Buffer, len(st.out))
		for i, v := range st.eqn.Out {
			out[i] = newBuffer(x.dev, v.Aval())
		}
		if err := st.fn(st.eqn, in, out); err != nil {
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
