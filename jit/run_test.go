package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// A function called twice is inlined twice, each copy with its own
// variables, and results flow to the equations that used the calls.
func TestInlineCallsGivesEachCopyFreshVariables(t *testing.T) {
	ib := trace.NewBuilder()
	x := ib.Input(trace.NewAVal(trace.Float32, 3))
	s, _ := ib.Bind("sin", []trace.Atom{x}, nil, trace.Pos{})
	inner, err := ib.Build([]trace.Atom{s[0]})
	if err != nil {
		t.Fatal(err)
	}
	ob := trace.NewBuilder()
	a := ob.Input(trace.NewAVal(trace.Float32, 3))
	params := trace.Params{"name": trace.Ident("inner"), "jaxpr": inner}
	c1, err := ob.Bind("jit", []trace.Atom{a}, params, trace.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := ob.Bind("jit", []trace.Atom{c1[0]}, params, trace.Pos{})
	m, _ := ob.Bind("mul", []trace.Atom{c1[0], c2[0]}, nil, trace.Pos{})
	outer, err := ob.Build([]trace.Atom{m[0], c2[0]})
	if err != nil {
		t.Fatal(err)
	}
	flat, err := inlineCalls(&compilation{opts: &Options{}}, outer)
	if err != nil {
		t.Fatal(err)
	}
	if err := flat.Verify(); err != nil {
		t.Fatalf("inlined jaxpr does not verify: %v\n%s", err, flat)
	}
	want := "{ lambda ; a:f32[3]. let\n    b:f32[3] = sin a\n    c:f32[3] = sin b\n    d:f32[3] = mul b c\n  in (d, c) }"
	if got := flat.String(); got != want {
		t.Errorf("inlined:\n%s\nwant\n%s", got, want)
	}
}
