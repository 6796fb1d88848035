package trace

import (
	"errors"
	"fmt"
	"math"
)

// Verify checks that the jaxpr is well formed: every variable is bound once
// (as a constant, an input or an equation output) before it is used, every
// equation's output avals are what its primitive's shape rule computes from
// its operands and params, its effects are what the primitive says, the
// outputs are bound, the jaxpr's effects are the union of its equations',
// and nested jaxprs in params verify too. Passes run it in tests after every
// transformation.
func (j *Jaxpr) Verify() error {
	if err := j.verify(); err != nil {
		return fmt.Errorf("invalid jaxpr: %w", err)
	}
	return nil
}

func (j *Jaxpr) verify() error {
	if len(j.Consts) != len(j.ConstVars) {
		return fmt.Errorf("%d constvars but %d const values", len(j.ConstVars), len(j.Consts))
	}
	defined := map[*Var]bool{}
	bind := func(v *Var, what string) error {
		switch {
		case v == nil:
			return fmt.Errorf("nil %s", what)
		case defined[v]:
			return fmt.Errorf("%s %s is bound twice", what, v)
		case !v.aval.valid():
			return fmt.Errorf("%s %s has an invalid aval %#v", what, v, v.aval)
		}
		defined[v] = true
		return nil
	}
	for _, v := range j.ConstVars {
		if err := bind(v, "constvar"); err != nil {
			return err
		}
	}
	for _, v := range j.InVars {
		if err := bind(v, "input"); err != nil {
			return err
		}
	}
	var effects Effects
	for i, e := range j.Eqns {
		if e == nil {
			return fmt.Errorf("eqn %d is nil", i)
		}
		if err := j.verifyEqn(e, defined); err != nil {
			return fmt.Errorf("eqn %d (%s): %w", i, j.describeEqn(e), err)
		}
		for _, v := range e.Out {
			if err := bind(v, "output"); err != nil {
				return fmt.Errorf("eqn %d (%s): %w", i, j.describeEqn(e), err)
			}
		}
		effects = effects.Union(e.Effects)
	}
	for i, a := range j.OutVars {
		if err := checkUse(a, defined); err != nil {
			return fmt.Errorf("jaxpr output %d: %w", i, err)
		}
	}
	if !j.Effects.Equal(effects) {
		return fmt.Errorf("effects %s are not the union %s of its equations' effects", j.Effects, effects)
	}
	return nil
}

func checkUse(a Atom, defined map[*Var]bool) error {
	switch x := a.(type) {
	case *Var:
		if x == nil || !defined[x] {
			return fmt.Errorf("variable %v is used before it is bound", x)
		}
	case *Literal:
		if x == nil || !x.valid() {
			return fmt.Errorf("invalid literal %v", x)
		}
	default:
		return fmt.Errorf("operand of type %T", a)
	}
	return nil
}

func (j *Jaxpr) verifyEqn(e *Eqn, defined map[*Var]bool) error {
	if e.Prim == nil || Lookup(e.Prim.Name) != e.Prim {
		return errors.New("primitive is not in the table")
	}
	for i, a := range e.In {
		if err := checkUse(a, defined); err != nil {
			return fmt.Errorf("operand %d: %w", i, err)
		}
	}
	outAvals, effects, err := e.Prim.Infer(atomAvals(e.In), e.Params)
	if err != nil {
		return err
	}
	if len(outAvals) != len(e.Out) {
		return fmt.Errorf("has %d outputs but the shape rule gives %d", len(e.Out), len(outAvals))
	}
	for i, v := range e.Out {
		if v != nil && !v.aval.Equal(outAvals[i]) {
			return fmt.Errorf("output %d is %s%s but the shape rule gives %s%s", i, v.aval, weakMark(v.aval), outAvals[i], weakMark(outAvals[i]))
		}
	}
	if !e.Effects.Equal(effects) {
		return fmt.Errorf("has effects %s but the primitive gives %s", e.Effects, effects)
	}
	for _, name := range e.Params.sortedNames(nil) {
		var subs []*Jaxpr
		switch x := e.Params[name].(type) {
		case *Jaxpr:
			subs = []*Jaxpr{x}
		case []*Jaxpr:
			subs = x
		}
		for _, sub := range subs {
			if err := sub.verify(); err != nil {
				return fmt.Errorf("param %s: %w", name, err)
			}
		}
	}
	return nil
}

// weakMark shows the weak flag in verifier messages, where it can be the
// only difference between two avals.
func weakMark(a AVal) string {
	if a.Weak {
		return " (weak)"
	}
	return ""
}

// describeEqn prints an equation with the names the jaxpr's text gives.
func (j *Jaxpr) describeEqn(e *Eqn) string {
	p := newPrinter(j)
	format(p.toplevel(j), math.MaxInt32)
	return format(p.eqn(e), math.MaxInt32)
}
