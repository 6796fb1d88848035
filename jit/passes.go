package jit

import (
	"fmt"
	"io"

	"github.com/jaxsh/jaxsh/trace"
)

// Options control the compiler pipeline.
type Options struct {
	// Optimize runs the optimising jaxpr passes: simplification, constant
	// folding, common-subexpression and dead-code elimination. Without it
	// the jaxpr is only lowered (nested jits inlined, barriers resolved).
	Optimize bool
	// Fuse groups equations into LoopKernels and ReductionKernels
	// (fusion.go); without it every equation is an OpaqueKernel. Set it
	// only for a backend whose Capabilities have FusedKernels.
	Fuse bool
	// EmbedConstants lets folding produce array constants
	// (Program.Embedded); without it folds stay scalars and splats. Set it
	// only for a backend whose Capabilities have EmbeddedConstants.
	EmbedConstants bool
	// Evaluator computes the equations constant folding folds; nil
	// disables folding.
	Evaluator Evaluator
	// FoldLimit is the largest result, in bytes, a fold may produce; 0
	// means DefaultFoldLimit. Larger folds are refused and reported.
	FoldLimit int
	// OnRefusedFold, if set, is told of every fold refused for size
	// (--log-compiles prints them).
	OnRefusedFold func(RefusedFold)
	// Donate marks, per InVar of the compiled jaxpr, an argument whose
	// buffer the caller gives up; outputs may be written into it.
	Donate []bool
	// Verify checks the jaxpr (trace.Verify) after every jaxpr pass and the
	// program (VerifyProgram) after every program pass. Tests turn it on.
	Verify bool
	// DumpPasses, if set, receives the IR after every pass; DumpKernels the
	// final kernel program (JAXSH_DUMP=passes,kernels).
	DumpPasses, DumpKernels io.Writer
	// ShuffleSeed, when not zero, makes the scheduler pick among ready
	// kernels at random (seeded) instead of by memory: tests use it to
	// show that order comes from dependencies, not luck.
	ShuffleSeed int64
}

// DefaultOptions are what Compile uses: every jaxpr pass that needs nothing
// from the backend, no fusion.
func DefaultOptions() Options { return Options{Optimize: true} }

// Capabilities are what a backend runs beyond one OpaqueKernel per
// equation.
type Capabilities struct {
	// FusedKernels: runs LoopKernel and ReductionKernel as fusion.go
	// defines them, including equations that appear in several kernels.
	FusedKernels bool
	// EmbeddedConstants: materialises Program.Embedded when compiling.
	EmbeddedConstants bool
}

// FusionCapable is the optional interface of a Backend that runs more than
// OpaqueKernels. A backend without it gets unfused programs, which every
// backend runs; a backend grows it when its executor is ready, and from
// then on OptionsFor(dev) turns fusion on for its devices.
type FusionCapable interface {
	Capabilities() Capabilities
}

// OptionsFor returns the options to compile for dev: DefaultOptions, plus
// what the device's backend says it can run, and folding evaluated on dev.
func OptionsFor(dev Device) Options {
	opts := DefaultOptions()
	b, err := backendOf(dev)
	if err != nil {
		return opts
	}
	if fc, ok := b.(FusionCapable); ok {
		caps := fc.Capabilities()
		opts.Fuse = caps.FusedKernels
		opts.EmbedConstants = caps.EmbeddedConstants
	}
	opts.Evaluator = DeviceEvaluator(dev)
	return opts
}

// forceVerify turns Options.Verify on for every compilation (set by this
// package's tests).
var forceVerify bool

// A pass is one step of the pipeline: a rewrite of the jaxpr, or a step
// that builds or refines the Program. enabled, when set, decides from the
// options whether the pass runs.
type pass struct {
	name    string
	enabled func(*Options) bool
	jaxpr   func(*compilation, *trace.Jaxpr) (*trace.Jaxpr, error)
	program func(*compilation, *Program) error
}

// pipeline is the compiler, in order. Jaxpr passes never modify their input:
// they return a new jaxpr that shares unchanged equations. "fuse" builds the
// Program from the final jaxpr; the passes after it refine the Program.
var pipeline = []pass{
	{name: "inline", jaxpr: inlineCalls},
	{name: "control", jaxpr: lowerControlFlow},
	{name: "simplify", enabled: optimizing, jaxpr: simplify},
	{name: "fold", enabled: folding, jaxpr: foldConstants},
	{name: "cse", enabled: optimizing, jaxpr: eliminateCommonSubexpressions},
	{name: "simplify-after-cse", enabled: optimizing, jaxpr: simplify},
	{name: "dce", enabled: optimizing, jaxpr: eliminateDeadCode},
	{name: "tokens", jaxpr: threadTokens},
	{name: "fuse", program: fuse},
	{name: "bodies", program: compileBodies},
	{name: "schedule", program: schedule},
	{name: "assign-buffers", program: assignBuffers},
}

func optimizing(o *Options) bool { return o.Optimize }
func folding(o *Options) bool    { return o.Optimize && o.Evaluator != nil }

// A compilation carries one run of the pipeline: the options, the compiled
// jaxpr's calling convention, and facts passes hand to later passes.
type compilation struct {
	opts *Options
	// args are the compiled jaxpr's ConstVars then InVars.
	args []*trace.Var
	// numCapturedConsts is how many leading ConstVars of the working jaxpr
	// are the caller's; the rest are embedded constants made by folding.
	numCapturedConsts int
}

func runPipeline(j *trace.Jaxpr, opts *Options) (*Program, error) {
	if forceVerify {
		opts.Verify = true
	}
	if opts.Donate != nil && len(opts.Donate) != len(j.InVars) {
		return nil, fmt.Errorf("jit: %d donation flags for %d inputs", len(opts.Donate), len(j.InVars))
	}
	c := &compilation{opts: opts, numCapturedConsts: len(j.ConstVars)}
	c.args = append(append(c.args, j.ConstVars...), j.InVars...)
	var p *Program
	for _, ps := range pipeline {
		if ps.enabled != nil && !ps.enabled(opts) {
			continue
		}
		var err error
		switch {
		case ps.jaxpr != nil:
			if j, err = ps.jaxpr(c, j); err != nil {
				return nil, fmt.Errorf("jit: pass %s: %w", ps.name, err)
			}
			if opts.Verify {
				if err := j.Verify(); err != nil {
					return nil, fmt.Errorf("jit: after pass %s: %w", ps.name, err)
				}
			}
			if opts.DumpPasses != nil {
				c.dump(ps.name, j.String())
			}
		default:
			if p == nil {
				p = c.newProgram(j)
			}
			if err = ps.program(c, p); err != nil {
				return nil, fmt.Errorf("jit: pass %s: %w", ps.name, err)
			}
			if opts.Verify {
				if err := VerifyProgram(p); err != nil {
					return nil, fmt.Errorf("jit: after pass %s: %w", ps.name, err)
				}
			}
			if opts.DumpPasses != nil {
				c.dump(ps.name, p.String())
			}
		}
	}
	if opts.DumpKernels != nil {
		fmt.Fprintf(opts.DumpKernels, "=== kernels ===\n%s", p.String())
	}
	return p, nil
}

// newProgram starts the Program of the final jaxpr: its calling convention
// and embedded constants; "fuse" cuts the kernels.
func (c *compilation) newProgram(j *trace.Jaxpr) *Program {
	p := &Program{Jaxpr: j, Args: c.args, Donated: make([]bool, len(c.args))}
	if c.opts.Donate != nil {
		copy(p.Donated[c.numCapturedConsts:], c.opts.Donate)
	}
	for i, v := range j.ConstVars[c.numCapturedConsts:] {
		p.Embedded = append(p.Embedded, Embedded{Var: v, Value: j.Consts[c.numCapturedConsts+i].(*Constant)})
	}
	return p
}

func (c *compilation) dump(pass, text string) {
	if w := c.opts.DumpPasses; w != nil {
		fmt.Fprintf(w, "=== after %s ===\n%s\n", pass, text)
	}
}
