// Package batching is vmap's interpreter: it turns a jaxpr of one element
// into a jaxpr of a whole batch, as JAX's batching.py does. Every value
// either has a batch axis somewhere or is the same for the whole batch; an
// equation whose operands are all unbatched is copied, any other is
// rewritten by its primitive's batching rule (the Batch column of the
// primitive table, beside each primitive in package trace). Rules never
// unroll the batch, so a batched jaxpr has about the size of the
// unbatched one.
package batching

import (
	"errors"
	"fmt"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
)

// Jaxpr batches j over a batch of size elements. inDims[i] is the axis of
// input i (of the batched input's shape, canonical: non-negative) that
// indexes the batch, or trace.NotBatched for an input shared by the whole
// batch. outDims[i] is where output i's batch axis goes (canonical), or
// trace.NotBatched for an output that must not depend on the batch. The
// batched jaxpr keeps j's constants.
func Jaxpr(j *trace.Jaxpr, size int, inDims, outDims []int) (*trace.Jaxpr, error) {
	if len(inDims) != len(j.InVars) {
		return nil, fmt.Errorf("vmap: %d in_axes for %d inputs", len(inDims), len(j.InVars))
	}
	if len(outDims) != len(j.OutVars) {
		return nil, fmt.Errorf("vmap: %d out_axes for %d outputs", len(outDims), len(j.OutVars))
	}
	if size < 0 {
		return nil, fmt.Errorf("vmap: negative batch size %d", size)
	}
	b := trace.NewBuilder()
	in := make([]trace.Atom, len(j.InVars))
	for i, v := range j.InVars {
		a := v.Aval()
		d := inDims[i]
		if d != trace.NotBatched {
			if d < 0 || d > a.Rank() {
				return nil, fmt.Errorf("vmap: in axis %d out of range for input %d of rank %d", d, i, a.Rank()+1)
			}
			a = a.WithShape(slices.Insert(slices.Clone(a.Shape), d, size))
		}
		in[i] = b.Input(a)
	}
	bt := &batcher{size: size, b: b}
	outs, dims, err := bt.run(j, in, inDims)
	if err != nil {
		return nil, err
	}
	for i, want := range outDims {
		switch {
		case want == trace.NotBatched && dims[i] != trace.NotBatched:
			return nil, fmt.Errorf("vmap has mapped output (output %d) but out_axes is None", i)
		case want == trace.NotBatched:
		case want < 0 || want > j.OutVars[i].Aval().Rank():
			return nil, fmt.Errorf("vmap: out axis %d out of range for output %d of rank %d", want, i, j.OutVars[i].Aval().Rank()+1)
		default:
			if outs[i], err = trace.BatchAtFront(bt, outs[i], dims[i]); err == nil {
				outs[i], err = trace.MoveAxis(bt, outs[i], 0, want)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return b.Build(outs)
}

// batcher implements trace.Batcher for one jaxpr being batched.
type batcher struct {
	size int
	b    *trace.Builder
	pos  trace.Pos
}

func (bt *batcher) Size() int               { return bt.size }
func (bt *batcher) Builder() *trace.Builder { return bt.b }
func (bt *batcher) Pos() trace.Pos          { return bt.pos }

// BatchJaxpr batches a nested jaxpr into a jaxpr of its own, with every
// batch axis first.
func (bt *batcher) BatchJaxpr(j *trace.Jaxpr, inBatched, instantiate []bool) (*trace.Jaxpr, []bool, error) {
	if len(inBatched) != len(j.InVars) || len(instantiate) != len(j.OutVars) {
		return nil, nil, fmt.Errorf("batching: nested jaxpr with %d inputs and %d outputs given %d and %d flags",
			len(j.InVars), len(j.OutVars), len(inBatched), len(instantiate))
	}
	inner := &batcher{size: bt.size, b: trace.NewBuilder(), pos: bt.pos}
	in := make([]trace.Atom, len(j.InVars))
	dims := make([]int, len(j.InVars))
	for i, v := range j.InVars {
		a := v.Aval()
		dims[i] = trace.NotBatched
		if inBatched[i] {
			a = a.WithShape(append([]int{bt.size}, a.Shape...))
			dims[i] = 0
		}
		in[i] = inner.b.Input(a)
	}
	outs, outDims, err := inner.run(j, in, dims)
	if err != nil {
		return nil, nil, err
	}
	batched := make([]bool, len(outs))
	for i, x := range outs {
		if outDims[i] == trace.NotBatched && !instantiate[i] {
			continue
		}
		if outs[i], err = trace.BatchAtFront(inner, x, outDims[i]); err != nil {
			return nil, nil, err
		}
		batched[i] = true
	}
	out, err := inner.b.Build(outs)
	return out, batched, err
}

// run evaluates j over batched values: in[i] with its batch axis at
// dims[i]. It returns the outputs and their batch axes.
func (bt *batcher) run(j *trace.Jaxpr, in []trace.Atom, dims []int) ([]trace.Atom, []int, error) {
	type value struct {
		atom trace.Atom
		dim  int
	}
	env := make(map[*trace.Var]value, len(j.ConstVars)+len(j.InVars)+len(j.Eqns))
	for i, v := range j.ConstVars {
		env[v] = value{bt.b.Const(j.Consts[i], v.Aval()), trace.NotBatched}
	}
	for i, v := range j.InVars {
		env[v] = value{in[i], dims[i]}
	}
	read := func(a trace.Atom) value {
		if v, ok := a.(*trace.Var); ok {
			return env[v]
		}
		return value{a, trace.NotBatched}
	}
	for _, e := range j.Eqns {
		ins := make([]trace.Atom, len(e.In))
		inDims := make([]int, len(e.In))
		batched := false
		for i, a := range e.In {
			v := read(a)
			if v.atom == nil {
				return nil, nil, fmt.Errorf("batching: %s reads a variable defined nowhere before it", e.Prim.Name)
			}
			ins[i], inDims[i] = v.atom, v.dim
			batched = batched || v.dim != trace.NotBatched
		}
		bt.pos = e.Pos
		var outs []trace.Atom
		var outDims []int
		if !batched {
			vs, err := bt.b.Bind(e.Prim.Name, ins, e.Params, e.Pos)
			if err != nil {
				return nil, nil, err
			}
			for _, v := range vs {
				outs, outDims = append(outs, v), append(outDims, trace.NotBatched)
			}
		} else {
			if e.Prim.Batch == nil {
				return nil, nil, &NoRuleError{Prim: e.Prim.Name}
			}
			var err error
			if outs, outDims, err = e.Prim.Batch(bt, ins, inDims, e.Params); err != nil {
				return nil, nil, fmt.Errorf("vmap of %s: %w", e.Prim.Name, err)
			}
			if err := bt.checkRule(e, outs, outDims); err != nil {
				return nil, nil, err
			}
		}
		for i, v := range e.Out {
			env[v] = value{outs[i], outDims[i]}
		}
	}
	outs := make([]trace.Atom, len(j.OutVars))
	outDims := make([]int, len(j.OutVars))
	for i, a := range j.OutVars {
		v := read(a)
		outs[i], outDims[i] = v.atom, v.dim
	}
	return outs, outDims, nil
}

// checkRule holds a rule to its contract: each result is the equation's
// result with a batch axis of the batch size inserted where the rule says.
func (bt *batcher) checkRule(e *trace.Eqn, outs []trace.Atom, dims []int) error {
	if len(outs) != len(e.Out) || len(dims) != len(e.Out) {
		return fmt.Errorf("batching rule of %s returned %d results and %d axes for %d outputs", e.Prim.Name, len(outs), len(dims), len(e.Out))
	}
	for i, v := range e.Out {
		want := v.Aval()
		if dims[i] != trace.NotBatched {
			if dims[i] < 0 || dims[i] > want.Rank() {
				return fmt.Errorf("batching rule of %s put output %d's batch axis at %d, beyond rank %d", e.Prim.Name, i, dims[i], want.Rank()+1)
			}
			want = want.WithShape(slices.Insert(slices.Clone(want.Shape), dims[i], bt.size))
		}
		if got := outs[i].Aval(); !got.SameType(want) {
			return fmt.Errorf("batching rule of %s gave output %d as %s with batch axis %d, want %s", e.Prim.Name, i, got, dims[i], want)
		}
	}
	return nil
}

// A NoRuleError is batching a primitive that has no batching rule.
type NoRuleError struct{ Prim string }

func (e *NoRuleError) Error() string {
	return fmt.Sprintf("vmap: primitive %s has no batching rule", e.Prim)
}

// IsNoRule reports whether err comes from a primitive without a rule.
func IsNoRule(err error) bool {
	var nr *NoRuleError
	return errors.As(err, &nr)
}
