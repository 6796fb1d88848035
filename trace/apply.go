package trace

import "fmt"

// Apply binds j's equations in b with j's inputs standing for args, and
// returns the atoms of j's outputs; j's constants become b's. It inlines a
// jaxpr into another trace.
func (b *Builder) Apply(j *Jaxpr, args []Atom) ([]Atom, error) {
	if len(args) != len(j.InVars) {
		return nil, fmt.Errorf("apply: a jaxpr of %d inputs given %d values", len(j.InVars), len(args))
	}
	env := map[*Var]Atom{}
	for i, v := range j.ConstVars {
		env[v] = b.Const(j.Consts[i], v.aval)
	}
	for i, v := range j.InVars {
		env[v] = args[i]
	}
	value := func(a Atom) Atom {
		if v, ok := a.(*Var); ok {
			return env[v]
		}
		return a
	}
	for _, e := range j.Eqns {
		in := make([]Atom, len(e.In))
		for i, a := range e.In {
			in[i] = value(a)
		}
		outs, err := b.Bind(e.Prim.Name, in, e.Params, e.Pos)
		if err != nil {
			return nil, err
		}
		for i, v := range e.Out {
			env[v] = outs[i]
		}
	}
	out := make([]Atom, len(j.OutVars))
	for i, a := range j.OutVars {
		out[i] = value(a)
	}
	return out, nil
}
