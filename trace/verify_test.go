package trace

import (
	"strings"
	"testing"
)

// validJaxpr builds the jaxpr TestVerifyAcceptsValidJaxpr prints: a
// constvar, an input, four equations (one effectful, one with a nested
// jaxpr) and two outputs.
func validJaxpr(t *testing.T) *Jaxpr {
	inner := newTracer(t)
	x := inner.in(Float32, 3)
	innerJ := inner.build(inner.bind1("neg", nil, x))

	tr := newTracer(t)
	a := tr.b.Const("payload", NewAVal(Float32, 3))
	b := tr.in(Float32, 3)
	c := tr.bind1("add", nil, b, a)
	d := tr.bind1("reduce_sum", Params{"axes": []int{0}}, c)
	tr.bind("debug_print", Params{"fmt": "{}", "ordered": true}, d)
	e := tr.jitCall("inner", innerJ, c)[0]
	return tr.build(e, d)
}

func TestVerifyAcceptsValidJaxpr(t *testing.T) {
	j := validJaxpr(t)
	if err := j.Verify(); err != nil {
		t.Fatal(err)
	}
	want := `{ lambda a:f32[3] ; b:f32[3]. let
    c:f32[3] = add b a
    d:f32[] = reduce_sum[axes=(0,)] c
    _:tok = debug_print[fmt='{}' ordered=True] d
    e:f32[3] = jit[
      name=inner
      jaxpr={ lambda ; c:f32[3]. let e:f32[3] = neg c in (e,) }
    ] c
  in (e, d) } : { Ordered(print) }`
	if got := j.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestEqnString(t *testing.T) {
	j := validJaxpr(t)
	if got := j.Eqns[0].String(); got != "c:f32[3] = add a b" {
		t.Errorf("got %q", got)
	}
	if got := j.Eqns[3].String(); got != "b:f32[3] = jit[name=inner jaxpr={ lambda ; a:f32[3]. let b:f32[3] = neg a in (b,) }] a" {
		t.Errorf("got %q", got)
	}
}

func TestVerifyCatchesViolations(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(t *testing.T, j *Jaxpr)
		want   string
	}{
		{"use before definition", func(t *testing.T, j *Jaxpr) {
			j.Eqns[0].In[0] = j.Eqns[1].Out[0]
		}, "eqn 0 (c:f32[3] = add d a): operand 0: variable %"},
		{"undefined variable", func(t *testing.T, j *Jaxpr) {
			j.Eqns[1].In[0] = NewVar(NewAVal(Float32, 3))
		}, "is used before it is bound"},
		{"variable bound twice by equations", func(t *testing.T, j *Jaxpr) {
			j.Eqns[3].Out[0] = j.Eqns[0].Out[0]
		}, "is bound twice"},
		{"input bound twice", func(t *testing.T, j *Jaxpr) {
			j.InVars = append(j.InVars, j.InVars[0])
		}, "input %"},
		{"output aval disagrees with the shape rule", func(t *testing.T, j *Jaxpr) {
			j.Eqns[1].Out[0] = NewVar(NewAVal(Float32, 1))
			j.OutVars[1] = j.Eqns[1].Out[0]
			j.Eqns[2].In[0] = j.Eqns[1].Out[0]
		}, "output 0 is f32[1] but the shape rule gives f32[]"},
		{"weak flag disagrees with the shape rule", func(t *testing.T, j *Jaxpr) {
			weak := NewVar(AVal{Shape: Shape{3}, DType: Float32, Weak: true})
			j.Eqns[0].Out[0] = weak
			for _, e := range j.Eqns[1:] {
				for k, a := range e.In {
					if a == Atom(j.Eqns[0].Out[0]) {
						e.In[k] = weak
					}
				}
			}
		}, "output 0 is f32[3] (weak) but the shape rule gives f32[3]"},
		{"wrong number of outputs", func(t *testing.T, j *Jaxpr) {
			j.Eqns[2].Out = nil
		}, "has 0 outputs but the shape rule gives 1"},
		{"equation effects wrong", func(t *testing.T, j *Jaxpr) {
			j.Eqns[2].Effects = Effects{UnorderedPrint}
		}, "has effects { Unordered(print) } but the primitive gives { Ordered(print) }"},
		{"jaxpr effects are not the union", func(t *testing.T, j *Jaxpr) {
			j.Effects = nil
		}, "effects {  } are not the union { Ordered(print) } of its equations' effects"},
		{"output not bound", func(t *testing.T, j *Jaxpr) {
			j.OutVars[0] = NewVar(NewAVal(Float32, 3))
		}, "jaxpr output 0: variable %"},
		{"constvar without a value", func(t *testing.T, j *Jaxpr) {
			j.Consts = nil
		}, "1 constvars but 0 const values"},
		{"primitive not in the table", func(t *testing.T, j *Jaxpr) {
			fake := *j.Eqns[0].Prim
			j.Eqns[0].Prim = &fake
		}, "primitive is not in the table"},
		{"params the rule rejects", func(t *testing.T, j *Jaxpr) {
			j.Eqns[1].Params = Params{"axes": []int{3}}
		}, "reduce_sum(f32[3]): axes (3,) out of range for rank 1"},
		{"invalid nested jaxpr", func(t *testing.T, j *Jaxpr) {
			inner := j.Eqns[3].Params.Jaxpr("jaxpr")
			inner.Eqns[0].In[0] = NewVar(NewAVal(Float32, 3))
		}, "param jaxpr: eqn 0"},
		{"nil equation", func(t *testing.T, j *Jaxpr) {
			j.Eqns[1] = nil
		}, "eqn 1 is nil"},
		{"literal inconsistent with its aval", func(t *testing.T, j *Jaxpr) {
			j.Eqns[0].In[1] = &Literal{value: 2.5, aval: NewAVal(Int32)}
		}, "invalid literal"},
		{"non-scalar literal", func(t *testing.T, j *Jaxpr) {
			j.Eqns[0].In[1] = &Literal{value: 2.5, aval: NewAVal(Float32, 3)}
		}, "invalid literal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := validJaxpr(t)
			tt.mutate(t, j)
			err := j.Verify()
			if err == nil {
				t.Fatalf("Verify accepted:\n%s", j)
			}
			if !strings.HasPrefix(err.Error(), "invalid jaxpr: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestBuilder(t *testing.T) {
	t.Run("unknown primitive", func(t *testing.T) {
		b := NewBuilder()
		x := b.Input(NewAVal(Float32))
		if _, err := b.Bind("frobnicate", []Atom{x}, nil, Pos{}); err == nil || !strings.Contains(err.Error(), `unknown primitive "frobnicate"`) {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("variable of another trace", func(t *testing.T) {
		other := NewBuilder().Input(NewAVal(Float32))
		b := NewBuilder()
		if _, err := b.Bind("neg", []Atom{other}, nil, Pos{}); err == nil || !strings.Contains(err.Error(), "does not belong to this trace") {
			t.Errorf("bind error = %v", err)
		}
		if _, err := b.Build([]Atom{other}); err == nil {
			t.Error("Build accepted a foreign output")
		}
		if _, err := b.Bind("neg", []Atom{nil}, nil, Pos{}); err == nil {
			t.Error("Bind accepted a nil operand")
		}
	})
	t.Run("shape errors are TypeErrors and record nothing", func(t *testing.T) {
		b := NewBuilder()
		x, y := b.Input(NewAVal(Float32, 3)), b.Input(NewAVal(Float32, 4))
		_, err := b.Bind("add", []Atom{x, y}, nil, Pos{})
		if _, ok := err.(*TypeError); !ok {
			t.Fatalf("error %v is not a *TypeError", err)
		}
		j, _ := b.Build(nil)
		if len(j.Eqns) != 0 {
			t.Errorf("a failed bind left %d equations", len(j.Eqns))
		}
	})
	t.Run("constants", func(t *testing.T) {
		b := NewBuilder()
		arr := &struct{ data []float32 }{}
		c1 := b.Const(arr, NewAVal(Float32, 2))
		c2 := b.Const(arr, NewAVal(Float32, 2))
		c3 := b.Const(&struct{ data []float32 }{}, NewAVal(Float32, 2))
		s1 := b.Const([]float32{1, 2}, NewAVal(Float32, 2)) // not comparable: never merged
		s2 := b.Const([]float32{1, 2}, NewAVal(Float32, 2))
		// A comparable type holding an uncomparable value must not panic.
		b.Const(struct{ x any }{[]int{1}}, NewAVal(Float32, 2))
		if c1 != c2 || c1 == c3 || s1 == s2 {
			t.Error("the same comparable payload must give one constvar, others their own")
		}
		j, err := b.Build([]Atom{c1, s2})
		if err != nil {
			t.Fatal(err)
		}
		if len(j.ConstVars) != 5 || j.Consts[0] != any(arr) || len(j.InVars) != 0 {
			t.Errorf("constvars %v consts %v", j.ConstVars, j.Consts)
		}
		if err := j.Verify(); err != nil {
			t.Error(err)
		}
	})
	t.Run("equations record operands, params, position and effects", func(t *testing.T) {
		b := NewBuilder()
		x := b.Input(NewAVal(Float32, 3))
		pos := Pos{File: "f.star", Line: 3, Col: 7}
		ins := []Atom{x}
		outs, err := b.Bind("debug_print", ins, Params{"fmt": "{}", "ordered": false}, pos)
		if err != nil {
			t.Fatal(err)
		}
		ins[0] = nil // the builder keeps its own copy
		j, _ := b.Build([]Atom{x})
		e := j.Eqns[0]
		if e.Prim != Lookup("debug_print") || e.In[0] != Atom(x) || e.Out[0] != outs[0] || e.Pos != pos || e.Pos.String() != "f.star:3:7" {
			t.Errorf("eqn %+v", e)
		}
		if !e.Effects.Equal(Effects{UnorderedPrint}) || !j.Effects.Equal(Effects{UnorderedPrint}) {
			t.Errorf("effects %v / %v", e.Effects, j.Effects)
		}
		if err := j.Verify(); err != nil {
			t.Error(err)
		}
	})
	t.Run("avals of inputs and outputs", func(t *testing.T) {
		tr := newTracer(t)
		x, y := tr.in(Int32, 2), tr.in(Float32)
		j := tr.build(x, lit(t, 1.5, Float32, true), y)
		if got := avalList(j.InAvals()); got != "i32[2], f32[]" {
			t.Errorf("InAvals = %s", got)
		}
		if got := avalList(j.OutAvals()); got != "i32[2], f32[], f32[]" {
			t.Errorf("OutAvals = %s", got)
		}
	})
}
