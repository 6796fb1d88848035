package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Every primitive with the Structural property has a CPU kernel, and so do
// the structural family's members without it: iota (it computes its
// values), the combining scatters (they do arithmetic), and those the brief
// names explicitly. None is left out.
func TestEveryStructuralPrimitiveHasAKernel(t *testing.T) {
	names := []string{"iota", "dynamic_update_slice", "pad", "concatenate", "gather",
		"scatter", "scatter-add", "scatter-mul", "scatter-min", "scatter-max"}
	structural := 0
	for _, p := range trace.Primitives() {
		if p.Has(trace.Structural) {
			names = append(names, p.Name)
			structural++
		}
	}
	if structural < 12 {
		t.Fatalf("only %d primitives have the Structural property; the table changed?", structural)
	}
	for _, name := range names {
		if trace.Lookup(name) == nil {
			t.Errorf("%s is not in the primitive table", name)
		}
		if !HasKernel(name) {
			t.Errorf("no CPU kernel for structural primitive %s", name)
		}
	}
}
