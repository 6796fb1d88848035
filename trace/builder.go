package trace

import (
	"fmt"
	"reflect"
)

// A Builder records a traced function as a jaxpr: inputs and captured
// constants become variables, each Bind checks a primitive application with
// its shape rule and appends an equation, and Build closes the jaxpr.
//
// A Builder is not safe for concurrent use; each trace has its own.
type Builder struct {
	constVars []*Var
	consts    []any
	constOf   map[any]*Var
	inVars    []*Var
	eqns      []*Eqn
	defined   map[*Var]bool
}

// NewBuilder starts an empty trace.
func NewBuilder() *Builder {
	return &Builder{constOf: map[any]*Var{}, defined: map[*Var]bool{}}
}

// Input adds an input of the given aval, in order, and returns its variable.
func (b *Builder) Input(aval AVal) *Var {
	v := NewVar(aval)
	b.inVars = append(b.inVars, v)
	b.defined[v] = true
	return v
}

// Const captures a concrete value (an opaque payload, typically a device
// array) as a constant input of the jaxpr. It is never folded into the
// program: the compiler passes it as a buffer. Capturing the same comparable
// payload (a pointer, say) again returns the same variable.
func (b *Builder) Const(payload any, aval AVal) *Var {
	comparable := payload != nil && reflect.ValueOf(payload).Comparable()
	if comparable {
		if v, ok := b.constOf[payload]; ok && v.aval.Equal(aval) {
			return v
		}
	}
	v := NewVar(aval)
	b.constVars = append(b.constVars, v)
	b.consts = append(b.consts, payload)
	b.defined[v] = true
	if comparable {
		b.constOf[payload] = v
	}
	return v
}

// Bind applies the named primitive to inputs, which must be literals or
// variables of this trace, and appends the equation. It returns the output
// variables; errors are *TypeError for bad operands or params.
func (b *Builder) Bind(prim string, inputs []Atom, params Params, pos Pos) ([]*Var, error) {
	p := Lookup(prim)
	if p == nil {
		return nil, fmt.Errorf("bind: unknown primitive %q", prim)
	}
	for i, a := range inputs {
		if err := b.checkAtom(a); err != nil {
			return nil, fmt.Errorf("bind %s: operand %d: %w", prim, i, err)
		}
	}
	if params == nil {
		params = Params{}
	}
	outAvals, effects, err := p.Infer(atomAvals(inputs), params)
	if err != nil {
		return nil, err
	}
	outs := make([]*Var, len(outAvals))
	for i, a := range outAvals {
		outs[i] = NewVar(a)
		b.defined[outs[i]] = true
	}
	b.eqns = append(b.eqns, &Eqn{
		Prim: p, In: append([]Atom(nil), inputs...), Out: outs,
		Params: params, Pos: pos, Effects: effects,
	})
	return outs, nil
}

func (b *Builder) checkAtom(a Atom) error {
	switch x := a.(type) {
	case *Var:
		if x == nil || !b.defined[x] {
			return fmt.Errorf("variable %v does not belong to this trace", x)
		}
	case *Literal:
		if x == nil {
			return fmt.Errorf("nil literal")
		}
	default:
		return fmt.Errorf("atom of type %T", a)
	}
	return nil
}

// Build finishes the trace with the given outputs. The jaxpr's effects are
// the union of its equations'. The builder may go on to build more.
func (b *Builder) Build(outs []Atom) (*Jaxpr, error) {
	for i, a := range outs {
		if err := b.checkAtom(a); err != nil {
			return nil, fmt.Errorf("build: output %d: %w", i, err)
		}
	}
	var effects Effects
	for _, e := range b.eqns {
		effects = effects.Union(e.Effects)
	}
	return &Jaxpr{
		ConstVars: append([]*Var(nil), b.constVars...),
		Consts:    append([]any(nil), b.consts...),
		InVars:    append([]*Var(nil), b.inVars...),
		OutVars:   append([]Atom(nil), outs...),
		Eqns:      append([]*Eqn(nil), b.eqns...),
		Effects:   effects,
	}, nil
}
