package export_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/trace"
)

func TestParseSymbolicShape(t *testing.T) {
	for text, want := range map[string]string{
		"b, 2*h":             "b, 2*h",
		"(n,)":               "n",
		"3, k + 1":           "3, k + 1",
		"b, max(h, 4), w//2": "b, max(h, 4), w//2",
		"2*(a + b), a - 1":   "2*(a + b), a - 1",
		"n % 3":              "n%3",
		"":                   "",
	} {
		s, err := export.ParseSymbolicShape(text)
		if err != nil || s.String() != want {
			t.Errorf("ParseSymbolicShape(%q) = %v, %v; want %s", text, s, err, want)
		}
	}
	for text, want := range map[string]string{
		"b, 2*":   "incomplete dimension expression '2*'",
		"b // h":  "// must be by a constant, got h",
		"b, h)":   `unexpected ")"`,
		"max(b)":  "max needs two arguments",
		"b ? 2":   `unexpected "?"`,
		"w % 0":   "% by 0",
		"(b, 2*h": "missing ) in",
	} {
		if _, err := export.ParseSymbolicShape(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSymbolicShape(%q): %v, want %q", text, err, want)
		}
	}
}

func TestBindDims(t *testing.T) {
	spec := func(s string) export.SymbolicShape {
		out, err := export.ParseSymbolicShape(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cons := func(s string) export.Constraint {
		c, err := export.ParseConstraint(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	env, err := export.BindDims([]export.SymbolicShape{spec("b, 2*h"), spec("h + 1"), nil}, [][]int{{3, 8}, {5}, {7}}, []export.Constraint{cons("b >= 2")})
	if err != nil || fmt.Sprint(env) != "map[b:3 h:4]" {
		t.Fatalf("BindDims = %v, %v", env, err)
	}
	for _, tc := range []struct {
		specs  []string
		shapes [][]int
		cons   []string
		want   string
	}{
		{[]string{"b, 2*h"}, [][]int{{3, 7}}, nil,
			"Division had remainder 1 when computing the value of 'h' from args[0].shape[1] (= 7) and the specification '2*h'"},
		{[]string{"b", "b"}, [][]int{{3}, {4}}, nil,
			"Found inconsistency between dimension size args[1].shape[0] (= 4) and the specification 'b' (= 3), with 'b' = 3 from args[0].shape[0] (= 3)"},
		{[]string{"b, 2*h"}, [][]int{{3, 8, 1}}, nil,
			"Rank mismatch for args[0]: the specification (b, 2*h) has rank 2, the argument's shape (3, 8, 1) rank 3"},
		{[]string{"b + 2"}, [][]int{{2}}, nil,
			"Dimension variable 'b' must have integer value >= 1. Found 0 when solving 'b + 2' = args[0].shape[0] (= 2)"},
		{[]string{"b"}, [][]int{{1}}, []string{"b >= 2"},
			"Input shapes do not match the constraint 'b >= 2': 'b' = 1 from args[0].shape[0] (= 1)"},
		{[]string{"a*b"}, [][]int{{6}}, nil,
			"Cannot solve for the values of the dimension variables 'a', 'b' of args[0].shape[0]: the specification 'a*b' is not linear in one unknown variable"},
	} {
		var specs []export.SymbolicShape
		for _, s := range tc.specs {
			specs = append(specs, spec(s))
		}
		var cs []export.Constraint
		for _, c := range tc.cons {
			cs = append(cs, cons(c))
		}
		_, err := export.BindDims(specs, tc.shapes, cs)
		if err == nil || err.Error() != tc.want {
			t.Errorf("BindDims(%v, %v): %v\nwant: %s", tc.specs, tc.shapes, err, tc.want)
		}
	}
}

// A polymorphic export traces once per binding, prints symbolic in_avals,
// and refuses to serialize.
func TestPolymorphicExport(t *testing.T) {
	spec, _ := export.ParseSymbolicShape("b, 2*h")
	traced := 0
	traceFor := func(shapes [][]int) (*export.Exported, error) {
		traced++
		j := newJB(t)
		x := j.in(trace.Float32, shapes[0]...)
		return export.New("f", j.build(j.one("sin", nil, x)), nil, nil, "cpu", export.Options{})
	}
	poly := &export.Polymorphism{Specs: []export.SymbolicShape{spec}, Trace: traceFor}
	sample, err := traceFor([][]int{{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := export.NewPolymorphic(sample, poly)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.InAvalsText(), "(ShapedArray(float32[b,2*h]),)"; got != want {
		t.Errorf("in_avals = %s, want %s", got, want)
	}
	for _, shape := range [][]int{{3, 4}, {5, 8}, {3, 4}} {
		s, env, err := poly.Specialize([][]int{shape})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.InAvals[0].Shape; !got.Equal(trace.Shape(shape)) {
			t.Errorf("specialized to %v for %v (env %v)", got, shape, env)
		}
	}
	if traced != 3 { // the sample, then (3, 4) and (5, 8) once each
		t.Errorf("traced %d times, want 3", traced)
	}
	if _, err := e.Serialize(0); !errors.Is(err, export.ErrPolymorphicSerialize) {
		t.Errorf("Serialize: %v", err)
	}
}
