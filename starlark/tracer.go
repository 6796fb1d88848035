package starlark

import (
	"fmt"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Tracing. While jit (or make_jaxpr) traces a function, the function's
// array arguments are traced Arrays: they hold a variable of the trace
// instead of a buffer, and every primitive applied to them is recorded as
// an equation (bind, in bind.go). As in JAX since "omnistaging", every
// primitive bound on the tracing thread is recorded, even one whose
// operands are all concrete: jnp.ones(3) inside jit is staged, not
// computed at trace time. Concrete arrays that meet traced ones become
// inputs of the trace: 0-d ones as literals, others as constants passed as
// device buffers (never folded into the program).

// Trace is one function being traced.
type Trace struct {
	b      *trace.Builder
	Thread *starlark.Thread
	name   string // the traced function's name, for messages
	Device jit.Device
	done   bool // set when the trace is finished: its tracers are dead
	parent *Trace
}

// tracer is the traced side of an Array.
type tracer struct {
	ts   *Trace
	atom trace.Atom
}

// activeTraces counts traces in progress in the whole process, so that
// eager binds skip looking for the current trace when there are none.
var activeTraces atomic.Int64

const currentTraceKey = "jaxsh.trace"

// currentTrace returns the trace active on the goroutine's running thread,
// or nil.
func currentTrace() *Trace {
	if activeTraces.Load() == 0 {
		return nil
	}
	th, ok := runningThreads.Load(goroutineID())
	if !ok {
		return nil
	}
	ts, _ := th.(*starlark.Thread).Local(currentTraceKey).(*Trace)
	return ts
}

// withTrace runs fn with ts as the thread's current trace.
func withTrace[T any](ts *Trace, fn func() (T, error)) (T, error) {
	prev := ts.Thread.Local(currentTraceKey)
	ts.Thread.SetLocal(currentTraceKey, ts)
	activeTraces.Add(1)
	defer func() {
		activeTraces.Add(-1)
		ts.Thread.SetLocal(currentTraceKey, prev)
	}()
	return runThread(ts.Thread, fn)
}

// NewTracedArray is the array that stands for atom in ts: how a
// transformation's results, computed as equations of ts, reach the script.
func NewTracedArray(ts *Trace, atom trace.Atom) *Array {
	return &Array{aval: atom.Aval(), tr: &tracer{ts: ts, atom: atom}}
}

// Builder is the builder ts records into, for code that emits equations
// itself (trace/ad's Emitter, inlining a transformed jaxpr).
func (ts *Trace) Builder() *trace.Builder { return ts.b }

// Trace is the trace a traced array belongs to, or nil for a concrete one.
func (a *Array) Trace() *Trace {
	if a.tr == nil {
		return nil
	}
	return a.tr.ts
}

// Traced reports whether the array is a tracer.
func (a *Array) Traced() bool { return a.tr != nil }

// Position is the source position of the innermost Starlark frame of the
// tracing thread: where the user's code applied the operation.
func (ts *Trace) Position() trace.Pos {
	for i := 0; i < ts.Thread.CallStackDepth(); i++ {
		pos := ts.Thread.CallFrame(i).Pos
		if f := pos.Filename(); f != "<builtin>" && f != "" {
			return trace.Pos{File: f, Line: int(pos.Line), Col: int(pos.Col)}
		}
	}
	return trace.Pos{}
}

// AtomOf turns an operand into an atom of ts: its own tracers as they are,
// concrete 0-d arrays as literals, other concrete arrays as constants.
func (ts *Trace) AtomOf(a *Array) (trace.Atom, error) {
	if a.tr != nil {
		switch {
		case a.tr.ts == ts:
			return a.tr.atom, nil
		case ts.within(a.tr.ts):
			// A value of an enclosing trace, closed over by a nested jit: it
			// becomes an input of the nested jaxpr (see callNested).
			return ts.b.Const(a, a.aval), nil
		}
		return nil, leakedTracerError(a)
	}
	// Complex and float0 scalars have no literal form: a constant.
	if a.NDim() == 0 && !a.DType().IsComplex() && a.DType() != trace.Float0 {
		v, err := a.ScalarValue(0)
		if err != nil {
			return nil, err
		}
		var lit any
		switch x := v.(type) {
		case starlark.Bool:
			lit = bool(x)
		case starlark.Int:
			n, _ := x.Int64()
			lit = n
		case starlark.Float:
			lit = float64(x)
		}
		if lit != nil {
			return trace.NewLiteral(lit, a.DType(), a.aval.Weak)
		}
	}
	if err := a.live(); err != nil {
		return nil, err
	}
	buf, err := a.buffer()
	if err != nil {
		return nil, err
	}
	a.shared = true // a compiled program may return it as a result
	return ts.b.Const(buf, a.aval), nil
}

// within reports whether outer is ts or encloses it, and is still open.
func (ts *Trace) within(outer *Trace) bool {
	for t := ts; t != nil; t = t.parent {
		if t == outer {
			return !outer.done
		}
	}
	return false
}

// leakedTracerError explains a tracer used outside the trace that made it.
func leakedTracerError(a *Array) error {
	state := "after its trace ended"
	if !a.tr.ts.done {
		state = "inside another trace"
	}
	return fmt.Errorf("UnexpectedTracerError: a traced value %s from the trace of %s was used %s; "+
		"return it from the traced function instead of storing it in a global or a closure",
		a.aval.LongString(), a.tr.ts.name, state)
}

// concretizationError is the error for reading a traced value on the host.
func concretizationError(a *Array, what string) error {
	return fmt.Errorf("ConcretizationError: %s needs a concrete value, but got the traced value %s "+
		"(inside the trace of %s); its value is only known when the compiled function runs",
		what, a.aval.LongString(), a.tr.ts.name)
}

// BindTraced records prim applied to args as an equation of ts.
func BindTraced(ts *Trace, prim string, params trace.Params, args ...*Array) ([]*Array, error) {
	if ts.done {
		return nil, fmt.Errorf("internal error: binding %s into the finished trace of %s", prim, ts.name)
	}
	atoms := make([]trace.Atom, len(args))
	for i, a := range args {
		at, err := ts.AtomOf(a)
		if err != nil {
			return nil, err
		}
		atoms[i] = at
	}
	outs, err := ts.b.Bind(prim, atoms, params, ts.Position())
	if err != nil {
		return nil, err
	}
	res := make([]*Array, len(outs))
	for i, v := range outs {
		res[i] = NewTracedArray(ts, v)
	}
	return res, nil
}

// TraceOf is the trace an operation on args records into: the running
// thread's current trace, else the one the traced operands belong to, or
// nil for an eager operation. A tracer of a finished trace, or of one the
// current trace is not within, is an error (a leaked tracer).
func TraceOf(args []*Array) (*Trace, error) { return traceOf(args) }

// traceOf returns the trace the operands belong to, or the thread's
// current trace, or nil for an eager operation.
func traceOf(args []*Array) (*Trace, error) {
	var ts *Trace
	for _, a := range args {
		if a.tr == nil {
			continue
		}
		if a.tr.ts.done {
			return nil, leakedTracerError(a)
		}
		if ts == nil {
			ts = a.tr.ts
		}
	}
	// The current trace lives on the tracing thread. When an operand is a
	// tracer, its trace's thread is the one running (traces are not shared
	// between threads), so its current trace is read from there; finding
	// the thread by goroutine costs a stack parse per equation otherwise.
	var cur *Trace
	if ts != nil {
		cur, _ = ts.Thread.Local(currentTraceKey).(*Trace)
	}
	if cur == nil {
		cur = currentTrace()
	}
	if cur != nil {
		for _, a := range args {
			if a.tr != nil && !cur.within(a.tr.ts) {
				return nil, leakedTracerError(a)
			}
		}
		return cur, nil
	}
	return ts, nil
}
