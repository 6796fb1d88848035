package cpu

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Every reduction and cumulative primitive in the trace table, and
// dot_general and sort, has a CPU kernel.
func TestReductionKernelsCoverTraceTable(t *testing.T) {
	want := []string{"dot_general", "sort"}
	for _, p := range trace.Primitives() {
		if p.Has(trace.Reduction) || p.Has(trace.Cumulative) {
			want = append(want, p.Name)
		}
	}
	if len(want) < 2+6+2+4 {
		t.Fatalf("the trace table lists only %v", want)
	}
	for _, name := range want {
		if !HasKernel(name) {
			t.Errorf("no CPU kernel for %s", name)
		}
	}
}
