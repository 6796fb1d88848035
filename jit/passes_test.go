package jit

import (
	"errors"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// The dump hooks receive the IR after every pass that ran, in pipeline
// order, and the final kernel program.
func TestDumpHooks(t *testing.T) {
	b := newJB(t)
	x := b.in(f32, 8)
	j := b.build(b.op("mul", nil, b.op("sin", nil, x), lit(t, 1.0, f32, true)))
	var passes, kernels strings.Builder
	p := compileFused(t, j, Options{DumpPasses: &passes, DumpKernels: &kernels, Evaluator: &testEvaluator{}})
	var ran []string
	for _, line := range strings.Split(passes.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "=== after "); ok {
			ran = append(ran, strings.TrimSuffix(name, " ==="))
		}
	}
	want := "inline control simplify fold cse simplify-after-cse dce tokens fuse bodies schedule assign-buffers"
	if got := strings.Join(ran, " "); got != want {
		t.Errorf("dumped passes %q, want %q", got, want)
	}
	if !strings.Contains(passes.String(), "=== after simplify ===\n{ lambda ; a:f32[8]. let b:f32[8] = sin a in (b,) }") {
		t.Errorf("the dump after simplify does not show x*1 gone:\n%s", passes.String())
	}
	if kernels.String() != "=== kernels ===\n"+p.String() {
		t.Errorf("kernel dump:\n%s\nwant the program text", kernels.String())
	}
}

// Without an evaluator there is no fold pass; without Optimize only the
// lowering passes run.
func TestPipelineOptions(t *testing.T) {
	b := newJB(t)
	x := b.in(f32, 8)
	j := b.build(b.op("mul", nil, x, lit(t, 1.0, f32, true)))
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Optimize: true}, "inline control simplify cse simplify-after-cse dce tokens fuse bodies schedule assign-buffers"},
		{Options{}, "inline control tokens fuse bodies schedule assign-buffers"},
	} {
		var dump strings.Builder
		tc.opts.DumpPasses = &dump
		if _, err := CompileWith(j, tc.opts); err != nil {
			t.Fatal(err)
		}
		var ran []string
		for _, line := range strings.Split(dump.String(), "\n") {
			if name, ok := strings.CutPrefix(line, "=== after "); ok {
				ran = append(ran, strings.TrimSuffix(name, " ==="))
			}
		}
		if got := strings.Join(ran, " "); got != tc.want {
			t.Errorf("%+v ran %q, want %q", tc.opts, got, tc.want)
		}
	}
	if _, err := CompileWith(j, Options{Donate: []bool{true, false}}); err == nil {
		t.Error("two donation flags for one input were accepted")
	}
}

// A pass that breaks the jaxpr is caught by the check between passes.
func TestVerifyBetweenPassesCatchesABrokenPass(t *testing.T) {
	saved := pipeline
	defer func() { pipeline = saved }()
	broken := func(c *compilation, j *trace.Jaxpr) (*trace.Jaxpr, error) {
		out := *j
		out.Eqns = nil // leaves the outputs unbound
		return &out, nil
	}
	pipeline = append([]pass{{name: "broken", jaxpr: broken}}, saved...)
	b := newJB(t)
	j := b.build(b.op("sin", nil, b.in(f32, 8)))
	_, err := CompileWith(j, Options{Verify: true})
	if err == nil || !strings.Contains(err.Error(), "after pass broken") {
		t.Errorf("error %v, want the verifier to name the broken pass", err)
	}
}

// fusingBackend is a backend that says it runs fused kernels; it records
// the programs it is given.
type fusingBackend struct {
	fakeBackend
	caps Capabilities
	got  *Program
}

func (f *fusingBackend) Platform() string           { return "fusing" }
func (f *fusingBackend) Capabilities() Capabilities { return f.caps }
func (f *fusingBackend) Devices() []Device          { return []Device{fusingDevice{}} }
func (f *fusingBackend) Compile(p *Program, _ Device) (Executable, error) {
	f.got = p
	return nil, errors.New("not running")
}

type fusingDevice struct{}

func (fusingDevice) Platform() string { return "fusing" }
func (fusingDevice) ID() int          { return 0 }
func (fusingDevice) Kind() string     { return "fusing" }
func (fusingDevice) String() string   { return "fusing:0" }

var fusing = &fusingBackend{caps: Capabilities{FusedKernels: true, EmbeddedConstants: true}}

func init() { RegisterBackend(fusing) }

// OptionsFor turns fusion on exactly for backends that say they run fused
// kernels; CompileOn hands the backend the program compiled that way.
func TestFusionCapabilityHandshake(t *testing.T) {
	if o := OptionsFor(fusing.Devices()[0]); !o.Fuse || !o.EmbedConstants || !o.Optimize || o.Evaluator == nil {
		t.Errorf("a fusing backend gets %+v", o)
	}
	if o := OptionsFor(fake.devs[0]); o.Fuse || o.EmbedConstants || !o.Optimize {
		t.Errorf("a backend without FusionCapable gets %+v", o)
	}
	b := newJB(t)
	x := b.in(f32, 8)
	j := b.build(b.op("exp", nil, b.op("sin", nil, x)))
	CompileOn(fusing.Devices()[0], j)
	if fusing.got == nil || summary(fusing.got) != "loop [sin exp] in 1 out 1\n" {
		t.Errorf("the fusing backend got\n%v", fusing.got)
	}
}
