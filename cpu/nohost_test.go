package cpu

import (
	"errors"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A program with a host op run without a Host fails with ErrNoHost: the
// embedding API and tests may run programs with a nil Host.
func TestHostOpWithoutHost(t *testing.T) {
	b := trace.NewBuilder()
	x := b.Input(trace.AVal{Shape: trace.Shape{2}, DType: trace.Float32})
	if _, err := b.Bind("debug_print", []trace.Atom{x}, trace.Params{"fmt": "x {}\n", "ordered": false}, trace.Pos{}); err != nil {
		t.Fatal(err)
	}
	j, err := b.Build([]trace.Atom{x})
	if err != nil {
		t.Fatal(err)
	}
	_, exe, err := jit.CompileOn(testDevice(), j)
	if err != nil {
		t.Fatal(err)
	}
	_, err = exe.Execute([]jit.Buffer{bufferOf(t, trace.Float32, []int{2}, 1.0, 2.0)}, nil)
	if !errors.Is(err, jit.ErrNoHost) {
		t.Fatalf("got %v, want ErrNoHost", err)
	}
}
