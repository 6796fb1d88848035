package jit

import "github.com/jaxsh/jaxsh/trace"

// CompileOn compiles a traced function for one device: nested jit calls
// inlined, the compiler pipeline, then the device's backend. The executable takes one buffer per
// ConstVar of j (its Consts, which must be Buffers on dev) followed by one
// per InVar.
func CompileOn(dev Device, j *trace.Jaxpr) (*Program, Executable, error) {
	b, err := backendOf(dev)
	if err != nil {
		return nil, nil, err
	}
	p, err := Compile(inlineCalls(j))
	if err != nil {
		return nil, nil, err
	}
	exe, err := b.Compile(p, dev)
	if err != nil {
		return nil, nil, err
	}
	return p, exe, nil
}

// inlineCalls replaces every `jit` equation (a nested jit kept as a call
// while tracing) by the equations of its jaxpr, recursively, so that the
// program is one flat jaxpr the passes and backends see whole. Each inlined
// copy gets fresh variables: a function called twice is inlined twice.
func inlineCalls(j *trace.Jaxpr) *trace.Jaxpr {
	has := false
	for _, e := range j.Eqns {
		has = has || e.Prim.Name == "jit"
	}
	if !has {
		return j
	}
	var eqns []*trace.Eqn
	// emit appends e with its operands renamed through env; fresh says
	// whether its results need new variables (it is inside an inlined body).
	var emit func(e *trace.Eqn, env map[*trace.Var]trace.Atom, fresh bool)
	emit = func(e *trace.Eqn, env map[*trace.Var]trace.Atom, fresh bool) {
		in := make([]trace.Atom, len(e.In))
		for i, a := range e.In {
			in[i] = renamed(a, env)
		}
		if e.Prim.Name != "jit" {
			c := *e
			c.In = in
			if fresh {
				c.Out = make([]*trace.Var, len(e.Out))
				for i, v := range e.Out {
					c.Out[i] = trace.NewVar(v.Aval())
					env[v] = c.Out[i]
				}
			}
			eqns = append(eqns, &c)
			return
		}
		inner := e.Params.Jaxpr("jaxpr")
		innerEnv := map[*trace.Var]trace.Atom{}
		for i, v := range inner.InVars {
			innerEnv[v] = in[i]
		}
		for _, ie := range inner.Eqns {
			emit(ie, innerEnv, true)
		}
		for i, o := range inner.OutVars {
			env[e.Out[i]] = renamed(o, innerEnv)
		}
	}
	top := map[*trace.Var]trace.Atom{}
	for _, e := range j.Eqns {
		emit(e, top, false)
	}
	out := *j
	out.Eqns = eqns
	out.OutVars = make([]trace.Atom, len(j.OutVars))
	for i, a := range j.OutVars {
		out.OutVars[i] = renamed(a, top)
	}
	return &out
}

func renamed(a trace.Atom, env map[*trace.Var]trace.Atom) trace.Atom {
	if v, ok := a.(*trace.Var); ok {
		if r, ok := env[v]; ok {
			return r
		}
	}
	return a
}
