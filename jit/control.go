package jit

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// Control flow in the Program. A cond, while or scan equation is a
// ControlKernel of its own: the kernel runs its bodies, each compiled by
// the same pipeline into a Program of its own (fused, scheduled, with a
// buffer plan), as many times as the equation says. The bodies are
// separate scopes: nothing fuses or is shared across their boundary, so a
// value the body recomputes from a closed-over input is recomputed in every
// iteration (the study's f_cse_loop_impl) and a value computed outside and
// closed over is a loop-invariant input read from memory.
//
// Memory. A loop's carries live in the kernel's result buffers: the kernel
// copies the initial values there once, then each iteration runs the body
// with the current carries as donated arguments. A body whose plan updates
// a carry in place (its result aliases its own argument: x*x + 1 on a
// carry) needs nothing more; any other carry gets a spare buffer that the
// body writes its next value into, and the two swap. Scan ys are written by
// the body straight into their rows of the stacked results; cond branches
// write straight into the kernel's results. The bodies' arenas and the
// spares are the kernel's scratch, part of the enclosing program's arena
// while the kernel runs: an iteration allocates nothing.

// Control is a ControlKernel's compiled bodies and its scratch memory.
type Control struct {
	// Eqn is the control-flow equation the kernel runs.
	Eqn *trace.Eqn
	// Bodies are the compiled sub-jaxprs: a cond's branches in order; a
	// while's cond_jaxpr then body_jaxpr; a scan's jaxpr.
	Bodies []*Program
	// Scratch is the number of bytes of the enclosing program's arena the
	// kernel uses while it runs, at ScratchOffset (set with the plan).
	Scratch, ScratchOffset int
	// Arena is the size of the region at the start of the scratch that
	// every body uses as its own arena (the bodies never run at once).
	Arena int
	// Outs gives, per body and per body result, the offset in the scratch
	// of the buffer the body writes that result into, or -1 when it goes
	// elsewhere: a carry updated in place, a scan's ys row, a cond's result.
	Outs [][]int
}

// The layout of each kind's operands and bodies.

// controlShape describes the operands of a control-flow equation: whether it
// carries a token, and how its operands split.
type controlShape struct {
	token bool
	// while: cconsts, bconsts; scan: consts (in bconsts), carry (with the
	// token), xs.
	cconsts, bconsts, carry, xs int
}

func shapeOf(e *trace.Eqn) controlShape {
	s := controlShape{}
	n := len(e.In)
	if n > 0 && e.In[0].Aval().IsToken() {
		s.token = true
		n--
	}
	tok := 0
	if s.token {
		tok = 1
	}
	switch e.Prim.Name {
	case "while":
		s.cconsts, s.bconsts = e.Params.Int("cond_nconsts"), e.Params.Int("body_nconsts")
		s.carry = n - s.cconsts - s.bconsts + tok
	case "scan":
		s.bconsts, s.carry = e.Params.Int("num_consts"), e.Params.Int("num_carry")+tok
		s.xs = n - s.bconsts - e.Params.Int("num_carry")
	}
	return s
}

// bodiesOf lists an equation's sub-jaxprs in Control.Bodies order.
func bodiesOf(e *trace.Eqn) []*trace.Jaxpr {
	switch e.Prim.Name {
	case "cond":
		return e.Params["branches"].([]*trace.Jaxpr)
	case "while":
		return []*trace.Jaxpr{e.Params.Jaxpr("cond_jaxpr"), e.Params.Jaxpr("body_jaxpr")}
	case "scan":
		return []*trace.Jaxpr{e.Params.Jaxpr("jaxpr")}
	}
	return nil
}

// compileBodies is the pipeline pass that turns each control-flow
// equation's kernel into a ControlKernel with compiled bodies.
func compileBodies(c *compilation, p *Program) error {
	for _, k := range p.Kernels {
		if len(k.Eqns) != 1 || !trace.IsControlFlow(k.Eqns[0].Prim) {
			continue
		}
		ctl, err := compileControl(c, k.Eqns[0])
		if err != nil {
			return err
		}
		k.Kind, k.Control = ControlKernel, ctl
	}
	return nil
}

func compileControl(c *compilation, e *trace.Eqn) (*Control, error) {
	ctl := &Control{Eqn: e}
	s := shapeOf(e)
	bodies := bodiesOf(e)
	for bi, j := range bodies {
		var donate []bool
		loopBody := (e.Prim.Name == "while" && bi == 1) || e.Prim.Name == "scan"
		if loopBody {
			donate = make([]bool, len(j.InVars))
			for i := s.bconsts; i < s.bconsts+s.carry; i++ {
				donate[i] = true
			}
		}
		bp, err := compileBody(c, j, donate)
		if err != nil {
			return nil, fmt.Errorf("%s: %s body %d: %w", e.Pos, e.Prim.Name, bi, err)
		}
		ctl.Bodies = append(ctl.Bodies, bp)
		ctl.Arena = max(ctl.Arena, bp.TempSize)
	}
	off := alignUp(ctl.Arena)
	for bi, bp := range ctl.Bodies {
		outs := make([]int, len(bp.Jaxpr.OutVars))
		for i, a := range bp.Jaxpr.OutVars {
			outs[i] = -1
			own := false
			switch {
			case e.Prim.Name == "cond":
				continue
			case e.Prim.Name == "while" && bi == 0:
			case i < s.carry: // a loop carry
				own = bp.OutAliases[i] == s.bconsts+i
			default: // a scan's ys
				continue
			}
			if own {
				continue
			}
			outs[i] = off
			off += alignUp(bytesOf(a.Aval()))
		}
		ctl.Outs = append(ctl.Outs, outs)
	}
	ctl.Scratch = off
	return ctl, nil
}

// bodyPipeline is pipeline, which bodies are compiled with (set by init:
// pipeline refers to compileBodies).
var bodyPipeline []pass

func init() { bodyPipeline = pipeline }

// compileBody compiles a sub-jaxpr with the enclosing compilation's options.
// Its carries may be donated. Tokens are not threaded again: the enclosing
// jaxpr's tokens pass already threaded them through the body.
func compileBody(c *compilation, j *trace.Jaxpr, donate []bool) (*Program, error) {
	opts := *c.opts
	opts.Donate = donate
	opts.DumpPasses, opts.DumpKernels = nil, nil
	if opts.Verify {
		if err := j.Verify(); err != nil {
			return nil, err
		}
	}
	bc := &compilation{opts: &opts, numCapturedConsts: len(j.ConstVars)}
	bc.args = append(append(bc.args, j.ConstVars...), j.InVars...)
	var p *Program
	for _, ps := range bodyPipeline {
		if ps.name == "tokens" || (ps.enabled != nil && !ps.enabled(&opts)) {
			continue
		}
		var err error
		if ps.jaxpr != nil {
			if j, err = ps.jaxpr(bc, j); err != nil {
				return nil, fmt.Errorf("pass %s: %w", ps.name, err)
			}
			if opts.Verify {
				if err := j.Verify(); err != nil {
					return nil, fmt.Errorf("after pass %s: %w", ps.name, err)
				}
			}
			continue
		}
		if p == nil {
			p = bc.newProgram(j)
		}
		if err := ps.program(bc, p); err != nil {
			return nil, fmt.Errorf("pass %s: %w", ps.name, err)
		}
		if opts.Verify {
			if err := VerifyProgram(p); err != nil {
				return nil, fmt.Errorf("after pass %s: %w", ps.name, err)
			}
		}
	}
	return p, nil
}

// controlScratch adds a temporary chain for the scratch of each
// ControlKernel, live while the kernel runs; placeControlScratch records
// where packing put them.
func (a *assignment) controlScratch() map[*Kernel]*chain {
	var out map[*Kernel]*chain
	for t, k := range a.p.Kernels {
		if k.Control == nil || k.Control.Scratch == 0 {
			continue
		}
		ch := &chain{kind: TempSlice, size: k.Control.Scratch, start: t, end: t}
		a.chains = append(a.chains, ch)
		if out == nil {
			out = map[*Kernel]*chain{}
		}
		out[k] = ch
	}
	return out
}

func placeControlScratch(scratch map[*Kernel]*chain) {
	for k, ch := range scratch {
		k.Control.ScratchOffset = ch.offset
	}
}

// verifyControl checks a ControlKernel: one control-flow equation whose
// results it writes, and bodies that verify and match the equation's.
func verifyControl(k *Kernel) error {
	if len(k.Eqns) != 1 || !trace.IsControlFlow(k.Eqns[0].Prim) || k.Control == nil || k.Control.Eqn != k.Eqns[0] {
		return errors.New("a control kernel runs exactly one control-flow equation")
	}
	e, ctl := k.Eqns[0], k.Control
	for i, v := range e.Out {
		if i >= len(k.Out) || k.Out[i] != v {
			return errors.New("a control kernel writes all its equation's results")
		}
	}
	bodies := bodiesOf(e)
	if len(ctl.Bodies) != len(bodies) || len(ctl.Outs) != len(bodies) {
		return fmt.Errorf("%d bodies compiled for %d", len(ctl.Bodies), len(bodies))
	}
	for i, bp := range ctl.Bodies {
		if err := verifyProgram(bp); err != nil {
			return fmt.Errorf("body %d: %w", i, err)
		}
		if len(bp.Args) != len(bodies[i].InVars) || len(bp.Jaxpr.OutVars) != len(bodies[i].OutVars) || len(ctl.Outs[i]) != len(bp.Jaxpr.OutVars) {
			return fmt.Errorf("body %d does not have its jaxpr's inputs and outputs", i)
		}
		if bp.TempSize > ctl.Arena {
			return fmt.Errorf("body %d needs a %d-byte arena, over the kernel's %d", i, bp.TempSize, ctl.Arena)
		}
		for o, off := range ctl.Outs[i] {
			if off >= 0 && (off < ctl.Arena || off+bytesOf(bp.Jaxpr.OutVars[o].Aval()) > ctl.Scratch) {
				return fmt.Errorf("body %d result %d at scratch offset %d is outside the scratch", i, o, off)
			}
		}
	}
	return nil
}

// write prints the bodies under their kernel, indented.
func (ctl *Control) write(b *strings.Builder, n *namer) {
	fmt.Fprintf(b, "  scratch %s", byteSize(ctl.Scratch))
	if ctl.Scratch > 0 {
		fmt.Fprintf(b, " @%d", ctl.ScratchOffset)
	}
	b.WriteByte('\n')
	names := bodyNames(ctl.Eqn)
	for i, bp := range ctl.Bodies {
		fmt.Fprintf(b, "  %s: ", names[i])
		text := bp.text(n)
		b.WriteString(strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n    "))
		b.WriteByte('\n')
	}
}

func bodyNames(e *trace.Eqn) []string {
	switch e.Prim.Name {
	case "while":
		return []string{"cond_jaxpr", "body_jaxpr"}
	case "scan":
		return []string{"jaxpr"}
	}
	var out []string
	for i := range bodiesOf(e) {
		out = append(out, fmt.Sprintf("branch %d", i))
	}
	return out
}

// controlCost is the work of one execution of a control kernel's bodies:
// a scan's body length times, a while's cond and body once each (the trip
// count is not known), a cond's dearest branch.
func (ctl *Control) cost() CostAnalysis {
	var c CostAnalysis
	for _, bp := range ctl.Bodies {
		bc := bp.CostAnalysis()
		if ctl.Eqn.Prim.Name == "cond" {
			c.Flops = max(c.Flops, bc.Flops)
			c.Transcendentals = max(c.Transcendentals, bc.Transcendentals)
			c.BytesAccessed = max(c.BytesAccessed, bc.BytesAccessed)
			continue
		}
		n := 1.0
		if ctl.Eqn.Prim.Name == "scan" {
			n = float64(ctl.Eqn.Params.Int("length"))
		}
		c.Flops += n * bc.Flops
		c.Transcendentals += n * bc.Transcendentals
		c.BytesAccessed += n * bc.BytesAccessed
	}
	return c
}

// controlCarryInit returns the variable a control kernel's result o starts
// from when o is a loop carry (not the token) whose initial value is a
// variable the loop reads only as that initial value; else nil. Such a
// carry may take its initial value's memory (controlHost).
func controlCarryInit(k *Kernel, o *trace.Var) *trace.Var {
	e := k.Eqns[0]
	if e.Prim.Name == "cond" {
		return nil
	}
	s := shapeOf(e)
	idx := slices.Index(e.Out, o)
	if idx < 0 || idx >= s.carry || (s.token && idx == 0) {
		return nil
	}
	op := s.cconsts + s.bconsts + idx // the token, when there is one, is operand 0 and carry 0
	in, ok := e.In[op].(*trace.Var)
	if !ok {
		return nil
	}
	for i, a := range e.In {
		if i != op && a == trace.Atom(in) {
			return nil
		}
	}
	return in
}

// controlHost returns the chain of a loop carry's initial value when the
// carry's result o may take its memory: the value dies at the loop and the
// loop reads it only as the initial carry, so the loop starts in place,
// without copying it.
func (a *assignment) controlHost(k *Kernel, o *trace.Var, t int, taken map[*trace.Var]bool) *chain {
	in := controlCarryInit(k, o)
	if in == nil || taken[in] || !a.canHost(in, o, t) {
		return nil
	}
	taken[in] = true
	return a.chainOf[in]
}
