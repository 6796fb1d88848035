package trace

import (
	"math"
	"strconv"
	"strings"
)

// The jaxpr printer reproduces JAX's core.pp_toplevel_jaxpr (SPEC §4):
//
//	{ lambda a:f32[1000] ; b:f32[3] c:f32[]. let
//	    d:f32[3] = sin b
//	    _:tok = debug_print[fmt='x: {}' ordered=True] d
//	  in (d,) } : { Ordered(print) }
//
// Variables are named a..z, ba, bb, ... in order of appearance (constvars,
// inputs, then equation by equation), with names shared across nested
// jaxprs; outputs of the top-level jaxpr's equations that nothing uses print
// as _; a nested jaxpr used more than once, or holding more than ten
// equations, is printed once before the jaxpr as `let name = { ... } in`.
// Lines break where JAX's pretty printer breaks them at 80 columns.
//
// Where SPEC §4 and JAX differ, SPEC wins: effects follow the closing brace
// (JAX puts them before it, and only on request), the semicolon after
// constvars is spaced, and a string param is quoted (fmt='x: {}'; a name is
// an Ident and prints bare, as JAX prints jit[name=f]). Operand-less
// equations end without JAX's trailing space.

// printWidth is the line width JAX formats jaxprs to.
const printWidth = 80

// String prints the jaxpr in SPEC §4's format.
func (j *Jaxpr) String() string {
	p := newPrinter(j)
	return format(p.toplevel(j), printWidth)
}

type printer struct {
	names       map[*Var]string
	next        int
	sharedNames map[string]bool
	shared      map[*Jaxpr]string
}

func newPrinter(top *Jaxpr) *printer {
	return &printer{names: unusedOutputs(top), sharedNames: map[string]bool{}, shared: map[*Jaxpr]string{}}
}

// String prints the equation on its own, its variables named in order of
// appearance: "c:f32[3] = add a b". Within a jaxpr, use the jaxpr's text,
// whose names are consistent across equations.
func (e *Eqn) String() string {
	p := newPrinter(&Jaxpr{})
	for _, a := range e.In {
		if v, ok := a.(*Var); ok {
			p.name(v)
		}
	}
	return format(p.eqn(e), math.MaxInt32)
}

// unusedOutputs maps every output of an equation of j that neither a later
// equation nor j's outputs use to "_".
func unusedOutputs(j *Jaxpr) map[*Var]string {
	names := map[*Var]string{}
	used := map[*Var]bool{}
	for _, a := range j.OutVars {
		if v, ok := a.(*Var); ok {
			used[v] = true
		}
	}
	for i := len(j.Eqns) - 1; i >= 0; i-- {
		e := j.Eqns[i]
		if e == nil {
			continue
		}
		for _, v := range e.Out {
			if !used[v] {
				names[v] = "_"
			}
		}
		for _, a := range e.In {
			if v, ok := a.(*Var); ok {
				used[v] = true
			}
		}
	}
	return names
}

// alphabetic is JAX's _encode_digits_alphabetic: 0 -> a, 25 -> z, 26 -> ba.
func alphabetic(n int) string {
	var s []byte
	for len(s) == 0 || n > 0 {
		s = append([]byte{byte('a' + n%26)}, s...)
		n /= 26
	}
	return string(s)
}

func (p *printer) name(v *Var) string {
	if name, ok := p.names[v]; ok {
		return name
	}
	for {
		name := alphabetic(p.next)
		p.next++
		if !p.sharedNames[name] {
			p.names[v] = name
			return name
		}
	}
}

func (p *printer) atom(a Atom) string {
	switch x := a.(type) {
	case *Var:
		return p.name(x)
	case *Literal:
		return x.String()
	}
	return "?"
}

// subJaxprs lists the jaxprs held in params, in param-name order.
func subJaxprs(params Params) []*Jaxpr {
	var out []*Jaxpr
	for _, name := range params.sortedNames(nil) {
		switch x := params[name].(type) {
		case *Jaxpr:
			out = append(out, x)
		case []*Jaxpr:
			out = append(out, x...)
		}
	}
	return out
}

// findShared picks the nested jaxprs printed once up front: those that occur
// more than once, and those with more than ten equations. Each is named after
// the name param of an equation that holds it ("jaxpr" otherwise), made
// unique with a counter: f, f1, ...
func (p *printer) findShared(top *Jaxpr) []*Jaxpr {
	counts := map[*Jaxpr]int{}
	var order []*Jaxpr
	names := map[*Jaxpr]string{}
	queue := []*Jaxpr{top}
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		if counts[j] == 0 {
			order = append(order, j)
		}
		counts[j]++
		if j != top && len(j.Eqns) > 10 {
			counts[j]++
		}
		for _, e := range j.Eqns {
			if e == nil {
				continue
			}
			subs := subJaxprs(e.Params)
			queue = append(queue, subs...)
			if name, ok := eqnName(e.Params); ok {
				for _, s := range subs {
					if _, done := names[s]; !done {
						names[s] = strings.Trim(name, "<>")
					}
				}
			}
		}
	}
	nameCounts := map[string]int{}
	var shared []*Jaxpr
	for _, j := range order {
		if counts[j] == 1 {
			continue
		}
		name, ok := names[j]
		if !ok {
			name = "jaxpr"
		}
		if c := nameCounts[name]; c > 0 {
			nameCounts[name]++
			name += strconv.Itoa(c)
		}
		nameCounts[name]++
		p.sharedNames[name] = true
		p.shared[j] = name
		shared = append(shared, j)
	}
	return shared
}

func eqnName(params Params) (string, bool) {
	switch x := params["name"].(type) {
	case Ident:
		return string(x), true
	case string:
		return x, true
	}
	return "", false
}

func (p *printer) toplevel(top *Jaxpr) doc {
	var docs ppConcat
	for _, j := range p.findShared(top) {
		docs = append(docs, ppText("let "), ppText(p.shared[j]), ppText(" = "), p.skeleton(j), ppText(" in"), ppBreak(" "))
	}
	return append(docs, p.jaxpr(top))
}

func (p *printer) jaxpr(j *Jaxpr) doc {
	if name, ok := p.shared[j]; ok {
		return ppText(name)
	}
	return p.skeleton(j)
}

func (p *printer) skeleton(j *Jaxpr) doc {
	constvars := p.binders(j.ConstVars)
	invars := p.binders(j.InVars)
	eqns := make([]doc, len(j.Eqns))
	for i, e := range j.Eqns {
		eqns[i] = p.eqn(e)
	}
	eqnsDoc := ppJoin(ppBreak("; "), eqns)
	outs := make([]string, len(j.OutVars))
	for i, a := range j.OutVars {
		outs[i] = p.atom(a)
	}
	closing := ")"
	if len(outs) == 1 {
		closing = ",)"
	}
	outvars := ppConcat{ppText("("), p.list(outs, ","), ppText(closing)}
	// SPEC §4 spaces the semicolon after constvars (`lambda c:f32[1000] ;`),
	// where JAX writes `lambda c:f32[1000];`.
	semicolon := ppText("; ")
	if len(j.ConstVars) > 0 {
		semicolon = " ; "
	}
	body := ppGroup{ppNest{2, ppConcat{
		ppText("{ "), ppText("lambda "), constvars, semicolon, invars, ppText(". "), ppText("let"),
		ppNest{2, ppConcat{ppBreak(" "), eqnsDoc}}, ppBreak(" "),
		ppText("in "), outvars,
	}}}
	out := ppConcat{body, ppText(" }")}
	if len(j.Effects) > 0 {
		out = append(out, ppText(" : "+j.Effects.String()))
	}
	return out
}

// binders prints variables being bound, with their avals: a:f32[3] b:i32[].
func (p *printer) binders(vs []*Var) doc {
	items := make([]string, len(vs))
	for i, v := range vs {
		items[i] = p.name(v) + ":" + v.aval.String()
	}
	return p.list(items, "")
}

// list is JAX's pp_vars layout: items joined by sep and a break that wraps
// only when the line is full.
func (p *printer) list(items []string, sep string) doc {
	docs := make([]doc, len(items))
	for i, s := range items {
		docs[i] = ppText(s)
	}
	return ppNest{2, ppGroup{ppJoin(ppConcat{ppText(sep), ppGroup{ppBreak(" ")}}, docs)}}
}

func (p *printer) eqn(e *Eqn) doc {
	if e == nil || e.Prim == nil { // only malformed jaxprs, printed in verifier errors
		return ppText("<malformed equation>")
	}
	if e.Prim.NamesLike != "" {
		if inner := e.Params.Jaxpr(e.Prim.NamesLike); inner != nil && p.shared[inner] == "" {
			ins := make([]Atom, len(inner.InVars))
			for i, v := range inner.InVars {
				ins[i] = v
			}
			outs := make([]Atom, len(e.Out))
			for i, v := range e.Out {
				outs[i] = v
			}
			p.suggestNames(ins, e.In)
			p.suggestNames(inner.OutVars, outs)
		}
	}
	var lhs doc
	if len(e.Out) > 0 {
		lhs = p.binders(e.Out)
	}
	ins := make([]string, len(e.In))
	rhs := ppConcat{ppText(e.Prim.Name), p.params(e)}
	for i, a := range e.In {
		ins[i] = p.atom(a)
	}
	if len(ins) > 0 { // JAX leaves a trailing space after an operand-less equation; we do not
		rhs = append(rhs, ppConcat{ppText(" "), p.list(ins, "")})
	}
	if lhs == nil {
		return rhs
	}
	return ppConcat{lhs, ppText(" = "), rhs}
}

// suggestNames gives unnamed variables of a nested jaxpr the names of the
// atoms they stand for (JAX's suggest_same_var_names): a jit's body reads
// with its caller's names.
func (p *printer) suggestNames(vars, like []Atom) {
	if len(vars) != len(like) {
		return
	}
	usedLike := map[*Var]bool{}
	for i, a := range vars {
		v, ok1 := a.(*Var)
		l, ok2 := like[i].(*Var)
		if !ok1 || !ok2 || usedLike[l] {
			continue
		}
		if _, named := p.names[v]; named {
			continue
		}
		usedLike[l] = true
		p.names[v] = p.name(l)
	}
}

func (p *printer) params(e *Eqn) doc {
	if len(e.Params) == 0 {
		return ppConcat{}
	}
	names := e.Params.sortedNames(e.Prim.ParamOrder)
	kvs := make([]doc, len(names))
	for i, name := range names {
		var value doc
		switch x := e.Params[name].(type) {
		case *Jaxpr:
			value = p.jaxpr(x)
		case []*Jaxpr:
			js := make([]doc, len(x))
			for k, j := range x {
				js[k] = p.jaxpr(j)
			}
			value = ppGroup{ppConcat{
				ppNest{2, ppConcat{ppText("("), ppBreak(""), ppJoin(ppBreak(" "), js)}},
				ppBreak(""), ppText(")"),
			}}
		default:
			value = ppText(paramRepr(x))
		}
		kvs[i] = ppConcat{ppText(name + "="), value}
	}
	return ppGroup{ppConcat{
		ppNest{2, ppConcat{ppText("["), ppBreak(""), ppJoin(ppBreak(" "), kvs)}},
		ppBreak(""), ppText("]"),
	}}
}
