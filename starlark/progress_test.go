package starlark_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// stepRecorder is a Progress that records the steps it hears of.
type stepRecorder struct {
	mu    sync.Mutex
	steps []string
}

func (r *stepRecorder) Begin(what string) func() {
	r.mu.Lock()
	r.steps = append(r.steps, "begin "+what)
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.steps = append(r.steps, "end "+what)
		r.mu.Unlock()
	}
}

// A session's Progress hears of each compilation, once per cache miss,
// begun and ended around it.
func TestProgressHearsOfCompilations(t *testing.T) {
	var out strings.Builder
	s := newSession(&out, nil)
	rec := &stepRecorder{}
	s.SetProgress(rec)
	th := s.NewThread("main")
	src := `
def double(x):
    return x * 2
f = jit(double)
print(f(jnp.ones(2)), f(jnp.ones(2)))
`
	if _, err := s.ExecFile(th, "progress.star", src); err != nil {
		t.Fatal(err)
	}
	if out.String() != "[2. 2.] [2. 2.]\n" {
		t.Errorf("output %q", out.String())
	}
	var compiles []string
	for _, step := range rec.steps {
		if strings.Contains(step, "compiling") {
			compiles = append(compiles, step)
		}
	}
	if want := []string{"begin compiling double", "end compiling double"}; !slices.Equal(compiles, want) {
		t.Errorf("steps %q, want the compilation steps %q", rec.steps, want)
	}
}
