package trace

import (
	"testing"
)

// tracer wraps a Builder for tests: every step must succeed, and every jaxpr
// built must verify.
type tracer struct {
	t *testing.T
	b *Builder
}

func newTracer(t *testing.T) *tracer {
	t.Helper()
	return &tracer{t: t, b: NewBuilder()}
}

func (tr *tracer) in(dt DType, shape ...int) *Var { return tr.b.Input(NewAVal(dt, shape...)) }

func (tr *tracer) bind(prim string, params Params, ins ...Atom) []*Var {
	tr.t.Helper()
	outs, err := tr.b.Bind(prim, ins, params, Pos{File: "test.star", Line: 1, Col: 1})
	if err != nil {
		tr.t.Fatalf("bind %s: %v", prim, err)
	}
	return outs
}

func (tr *tracer) bind1(prim string, params Params, ins ...Atom) *Var {
	tr.t.Helper()
	outs := tr.bind(prim, params, ins...)
	if len(outs) != 1 {
		tr.t.Fatalf("bind %s: %d outputs", prim, len(outs))
	}
	return outs[0]
}

func (tr *tracer) build(outs ...Atom) *Jaxpr {
	tr.t.Helper()
	j, err := tr.b.Build(outs)
	if err != nil {
		tr.t.Fatalf("build: %v", err)
	}
	if err := j.Verify(); err != nil {
		tr.t.Fatalf("built jaxpr does not verify: %v\n%s", err, j)
	}
	return j
}

func lit(t *testing.T, v any, dt DType, weak bool) *Literal {
	t.Helper()
	l, err := NewLiteral(v, dt, weak)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func atoms[V Atom](vs ...V) []Atom {
	out := make([]Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// namedCallback is a Callback for tests.
type namedCallback string

func (c namedCallback) CallbackName() string { return string(c) }
