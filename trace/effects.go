package trace

import (
	"slices"
	"strings"
)

// An Effect is a side effect an equation has beyond computing its outputs.
// Kind names what happens ("print", "call", "tap"); an ordered effect must
// happen in program order relative to other effects of its kind (the compiler
// threads a token through them, the runtime keeps one token per ordered kind),
// an unordered one only must not be removed as dead code.
type Effect struct {
	Kind    string
	Ordered bool
}

// The effects of jaxsh's host operations.
var (
	OrderedPrint   = Effect{Kind: "print", Ordered: true}
	UnorderedPrint = Effect{Kind: "print"}
	OrderedCall    = Effect{Kind: "call", Ordered: true}
	UnorderedCall  = Effect{Kind: "call"}
	TapEffect      = Effect{Kind: "tap"}
)

// String is how the effect appears in jaxpr text: Ordered(print),
// Unordered(tap).
func (e Effect) String() string {
	if e.Ordered {
		return "Ordered(" + e.Kind + ")"
	}
	return "Unordered(" + e.Kind + ")"
}

// Effects is a set of effects, kept sorted (by their text) and without
// repeats so that equal sets compare equal element by element.
type Effects []Effect

// NewEffects makes a set from effects in any order, repeats allowed.
func NewEffects(es ...Effect) Effects {
	var out Effects
	return out.Union(es)
}

// Union returns the set of effects in s or t.
func (s Effects) Union(t Effects) Effects {
	if len(t) == 0 {
		return s
	}
	out := append(slices.Clip(s), t...)
	slices.SortFunc(out, func(a, b Effect) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(out)
}

// Has reports whether e is in s.
func (s Effects) Has(e Effect) bool { return slices.Contains(s, e) }

// Ordered is the subset of ordered effects.
func (s Effects) Ordered() Effects {
	var out Effects
	for _, e := range s {
		if e.Ordered {
			out = append(out, e)
		}
	}
	return out
}

// Equal reports whether s and t hold the same effects.
func (s Effects) Equal(t Effects) bool { return slices.Equal(s, t) }

// String prints the set as jaxprs list it: { Ordered(print), Unordered(tap) }.
func (s Effects) String() string {
	parts := make([]string, len(s))
	for i, e := range s {
		parts[i] = e.String()
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
