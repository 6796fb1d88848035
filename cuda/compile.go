package cuda

import (
	"fmt"
	"strings"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Compiling a Program: one PTX module with a kernel per device step, and
// the steps in program order. This part needs no GPU; exec.go loads the
// module and runs the steps.

type stepKind uint8

const (
	stepKernel stepKind = iota // a generated kernel
	stepHost                   // debug_print, id_tap, call: on the host
	stepNone                   // writes nothing (create_token)
)

// A step is one launch or one host operation.
type step struct {
	kind   stepKind
	kernel string       // the .entry's name
	eqn    *trace.Eqn   // host steps; the equation, for messages
	in     []*trace.Var // kernel parameters, in order: inputs...
	out    []*trace.Var // ...then outputs
	// Launch geometry, filled in for a device by geometry().
	shape launchShape
}

// launchShape says how a kernel is launched, before the device's size is
// known: grid-stride kernels over n work items, or fixed grids.
type launchShape struct {
	items      int       // grid-stride: items to cover (threads or blocks)
	perBlock   bool      // grid-stride over blocks (one item per block)
	grid       [3]uint32 // fixed grid (items == 0)
	block      [3]uint32
	sharedSize uint32
}

// A compiled program, ready for a device.
type compiled struct {
	ptx   string
	steps []step
}

// compileProgram generates the PTX of every kernel of p.
func compileProgram(p *jit.Program) (*compiled, error) {
	c := &compiled{}
	var kernels []string
	for i, k := range p.Kernels {
		name := fmt.Sprintf("k%d", i)
		st, text, err := compileKernel(name, k)
		if err != nil {
			return nil, err
		}
		if text != "" {
			kernels = append(kernels, text)
		}
		c.steps = append(c.steps, st)
	}
	c.ptx = module(kernels)
	return c, nil
}

// varsOf lists the distinct vars among atoms (literals are inlined).
func varsOf(atoms []trace.Atom) []*trace.Var {
	var vs []*trace.Var
	seen := map[*trace.Var]bool{}
	for _, a := range atoms {
		if v, ok := a.(*trace.Var); ok && !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	}
	return vs
}

func compileKernel(name string, k *jit.Kernel) (step, string, error) {
	st := step{kind: stepKernel, kernel: name, in: k.In, out: k.Out}
	wrap := func(err error) error {
		if err == nil {
			return nil
		}
		var prims []string
		for _, e := range k.Eqns {
			prims = append(prims, e.Prim.Name)
		}
		if len(k.Eqns) > 0 && k.Eqns[0].Pos != (trace.Pos{}) {
			return fmt.Errorf("%s: %s kernel (%s): %w", k.Eqns[0].Pos, k.Kind, strings.Join(prims, ", "), err)
		}
		return fmt.Errorf("%s kernel (%s): %w", k.Kind, strings.Join(prims, ", "), err)
	}
	switch k.Kind {
	case jit.LoopKernel:
		if t, ok := simpleTranspose(k); ok {
			return transposeStep(name, st, t)
		}
		text, err := loopKernel(name, k)
		st.shape = loopShape(k)
		return st, text, wrap(err)
	case jit.ReductionKernel:
		text, geo, err := reductionKernel(name, k)
		st.shape = reductionShape(geo)
		return st, text, wrap(err)
	}
	if len(k.Eqns) != 1 {
		return st, "", fmt.Errorf("cuda: opaque kernel of %d equations", len(k.Eqns))
	}
	e := k.Eqns[0]
	st.in, st.out = varsOf(e.In), e.Out
	if e.Prim.Has(trace.HostOp) {
		st.kind, st.eqn = stepHost, e
		return st, "", nil
	}
	switch e.Prim.Name {
	case "create_token":
		st.kind = stepNone
		return st, "", nil
	case "dot_general":
		if outer, ok := outerProductKernel(e); ok {
			text, err := loopKernel(name, outer)
			st.shape = loopShape(outer)
			return st, text, wrap(err)
		}
		text, geo, err := dotKernel(name, e)
		st.in = []*trace.Var{}
		for _, a := range e.In {
			v, ok := a.(*trace.Var)
			if !ok {
				return st, "", wrap(unsupported("dot_general of a literal"))
			}
			st.in = append(st.in, v)
		}
		st.shape = launchShape{
			grid:  [3]uint32{uint32(ceilDiv(geo.n, dotTile)), uint32(ceilDiv(geo.m, dotTile)), 1},
			block: [3]uint32{dotThreads, 1, 1},
		}
		return st, text, wrap(err)
	case "transpose":
		if x, ok := e.In[0].(*trace.Var); ok && x.Aval().Rank() == 2 {
			return transposeStep(name, st, x)
		}
	}
	// An elementwise, index-map or reduction equation alone: a loop or
	// reduction kernel of one equation.
	one := &jit.Kernel{Eqns: []*trace.Eqn{e}, In: st.in, Out: e.Out}
	switch jit.FusionClassOf(e.Prim) {
	case jit.FuseElementwise, jit.FuseIndexMap:
		one.Kind, one.Shape = jit.LoopKernel, e.Out[0].Aval().Shape
		text, err := loopKernel(name, one)
		st.shape = loopShape(one)
		return st, text, wrap(err)
	case jit.FuseReduce:
		one.Kind, one.Shape = jit.ReductionKernel, e.In[0].Aval().Shape
		text, geo, err := reductionKernel(name, one)
		st.shape = reductionShape(geo)
		return st, text, wrap(err)
	}
	return st, "", wrap(unsupported("%s (no GPU kernel for this primitive)", e.Prim.Name))
}

// simpleTranspose recognises a loop kernel that only transposes a matrix
// it reads.
func simpleTranspose(k *jit.Kernel) (*trace.Var, bool) {
	if len(k.Eqns) != 1 || len(k.In) != 1 || len(k.Out) != 1 {
		return nil, false
	}
	e := k.Eqns[0]
	if e.Prim.Name != "transpose" || e.In[0] != trace.Atom(k.In[0]) || k.In[0].Aval().Rank() != 2 {
		return nil, false
	}
	return k.In[0], true
}

func transposeStep(name string, st step, x *trace.Var) (step, string, error) {
	text, geo, err := transposeKernel(name, x.Aval())
	st.in = []*trace.Var{x}
	st.shape = launchShape{
		grid:  [3]uint32{uint32(ceilDiv(geo.cols, transposeTile)), uint32(ceilDiv(geo.rows, transposeTile)), 1},
		block: [3]uint32{transposeTile, 8, 1},
	}
	return st, text, err
}

const loopThreads = 256

func loopShape(k *jit.Kernel) launchShape {
	n := k.Shape.Size()
	if k.Shape == nil && len(k.Out) > 0 {
		n = k.Out[0].Aval().Size()
	}
	return launchShape{items: n, block: [3]uint32{loopThreads, 1, 1}}
}

func reductionShape(g reduceGeometry) launchShape {
	if g.perBlock {
		return launchShape{items: g.outputs, perBlock: true, block: [3]uint32{reduceThreads, 1, 1}}
	}
	return launchShape{items: g.outputs, block: [3]uint32{reduceThreads, 1, 1}}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// launchFor turns a launch shape into a launch on a device with sms
// multiprocessors: grid-stride kernels get enough blocks to fill the GPU
// a few times over, and no more than the work needs.
func (s launchShape) launchFor(sms int) (launch, bool) {
	l := launch{grid: s.grid, block: s.block, shared: s.sharedSize}
	if s.items == 0 && s.grid[0] == 0 {
		return l, false // nothing to do
	}
	if s.grid[0] != 0 {
		return l, s.grid[0] > 0 && s.grid[1] > 0
	}
	blocks := s.items
	if !s.perBlock {
		blocks = ceilDiv(s.items, int(s.block[0]))
	}
	limit := max(sms, 1) * 32
	l.grid = [3]uint32{uint32(min(blocks, limit)), 1, 1}
	return l, true
}
