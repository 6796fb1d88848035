package jit

import (
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func studyProgram(t *testing.T, name string) *Program {
	t.Helper()
	for _, sc := range studyCases {
		if sc.name == name {
			return compileFused(t, sc.build(t, newJB(t)), Options{})
		}
	}
	t.Fatalf("no study case %s", name)
	return nil
}

// The kernel program text (compile().as_text()) and DOT output are
// deterministic; golden files pin them (go test -update rewrites them).
func TestProgramTextGolden(t *testing.T) {
	for _, name := range []string{"f_sum_jax", "optimization_barrier", "f_cse"} {
		p := studyProgram(t, name)
		golden(t, name+".txt", p.String())
		if again := studyProgram(t, name).String(); again != p.String() {
			t.Errorf("%s: two compilations print differently", name)
		}
	}
	golden(t, "optimization_barrier.dot", studyProgram(t, "optimization_barrier").AsDot())
	golden(t, "f_cse.dot", studyProgram(t, "f_cse").AsDot())
}

// A program with everything the text shows: a donated argument, a captured
// constant, an embedded constant, an opaque kernel, a literal result.
func TestProgramTextShowsThePlan(t *testing.T) {
	b := newJB(t)
	c := b.constant("device array", f32, 4)
	x := b.in(f32, 4)
	k := b.op("mul", nil, b.op("iota", iotaP(f32, []int{4}, 0)), lit(t, 3.0, f32, false))
	s := b.op("sort", trace.Params{"dimension": 0, "is_stable": true, "num_keys": 1}, b.op("add", nil, x, c))
	p := compileFused(t, b.build(b.op("mul", nil, s, k), lit(t, 1.0, f32, false)),
		Options{Donate: []bool{true}, Evaluator: &testEvaluator{}, EmbedConstants: true})
	golden(t, "plan.txt", p.String())
	m := p.MemoryAnalysis()
	if m.EmbeddedConstantSizeInBytes != 16 || m.GeneratedCodeSizeInBytes != len(p.String())+16 {
		t.Errorf("constants %d bytes, code %d bytes; want 16 and the text plus 16", m.EmbeddedConstantSizeInBytes, m.GeneratedCodeSizeInBytes)
	}
}

func TestCostAnalysis(t *testing.T) {
	p := studyProgram(t, "f_cse")
	c := p.CostAnalysis()
	n := float64(2 * studyN)
	// Each of the two kernels computes pow and sin per element
	// (transcendentals), the row sums, adds; the loop adds b.
	if c.Transcendentals != 4*n {
		t.Errorf("transcendentals %v, want %v (pow and sin in both kernels)", c.Transcendentals, 4*n)
	}
	// Reads x (4n bytes) in both kernels and the 4-byte sum once; writes
	// the sum and the 4n-byte result.
	if want := 3*4*n + 8; c.BytesAccessed != want {
		t.Errorf("bytes accessed %v, want %v", c.BytesAccessed, want)
	}
	if c.Flops <= 0 {
		t.Errorf("flops %v", c.Flops)
	}
	d := compileFused(t, twoBranches(t), Options{}).CostAnalysis()
	if want := 2.0 * (2*64*64*64 + 64*64); d.Flops != want {
		t.Errorf("two 64³ products and their sums: %v flops, want %v", d.Flops, want)
	}
}
