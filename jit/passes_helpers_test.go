package jit

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Every compilation in this package's tests verifies the jaxpr and the
// program after each pass.
func init() { forceVerify = true }

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// A jb builds test jaxprs with trace.Builder, failing the test on errors.
type jb struct {
	t testing.TB
	b *trace.Builder
}

func newJB(t testing.TB) *jb { return &jb{t: t, b: trace.NewBuilder()} }

func (j *jb) in(dt trace.DType, shape ...int) *trace.Var {
	return j.b.Input(trace.NewAVal(dt, shape...))
}

func (j *jb) constant(payload any, dt trace.DType, shape ...int) *trace.Var {
	return j.b.Const(payload, trace.NewAVal(dt, shape...))
}

// op binds a one-result primitive.
func (j *jb) op(prim string, params trace.Params, in ...trace.Atom) *trace.Var {
	j.t.Helper()
	return j.ops(prim, params, in...)[0]
}

func (j *jb) ops(prim string, params trace.Params, in ...trace.Atom) []*trace.Var {
	j.t.Helper()
	out, err := j.b.Bind(prim, in, params, trace.Pos{})
	if err != nil {
		j.t.Fatalf("bind %s: %v", prim, err)
	}
	return out
}

func (j *jb) build(outs ...trace.Atom) *trace.Jaxpr {
	j.t.Helper()
	jx, err := j.b.Build(outs)
	if err != nil {
		j.t.Fatal(err)
	}
	return jx
}

// lit makes a literal; weak is how Python scalars enter jaxprs.
func lit(t testing.TB, v any, dt trace.DType, weak bool) *trace.Literal {
	t.Helper()
	l, err := trace.NewLiteral(v, dt, weak)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Shorthands for params.
func axesP(a ...int) trace.Params { return trace.Params{"axes": a} }

func bcastP(shape []int, dims ...int) trace.Params {
	if dims == nil {
		dims = []int{}
	}
	return trace.Params{"shape": shape, "broadcast_dimensions": dims}
}

func iotaP(dt trace.DType, shape []int, dim int) trace.Params {
	return trace.Params{"dtype": dt, "shape": shape, "dimension": dim}
}

func convertP(dt trace.DType) trace.Params {
	return trace.Params{"new_dtype": dt, "weak_type": false}
}

func reshapeP(sizes ...int) trace.Params { return trace.Params{"new_sizes": sizes} }

func sliceP(start, limit []int) trace.Params {
	return trace.Params{"start_indices": start, "limit_indices": limit, "strides": nil}
}

func dimsP(d ...int) trace.Params { return trace.Params{"dimensions": d} }

// runJaxprPass runs one jaxpr pass with opts and checks the result
// verifies and the input is unchanged.
func runJaxprPass(t *testing.T, ps func(*compilation, *trace.Jaxpr) (*trace.Jaxpr, error), j *trace.Jaxpr, opts Options) *trace.Jaxpr {
	t.Helper()
	before := j.String()
	c := &compilation{opts: &opts, numCapturedConsts: len(j.ConstVars)}
	out, err := ps(c, j)
	if err != nil {
		t.Fatal(err)
	}
	if err := out.Verify(); err != nil {
		t.Fatalf("result does not verify: %v\n%s", err, out)
	}
	if j.String() != before {
		t.Fatalf("the pass modified its input:\n%s\nwas\n%s", j, before)
	}
	return out
}

// compileFused compiles with every pass and fusion on.
func compileFused(t testing.TB, j *trace.Jaxpr, opts Options) *Program {
	t.Helper()
	opts.Optimize, opts.Fuse = true, true
	p, err := CompileWith(j, opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, j)
	}
	return p
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, diffLines(string(want), got))
	}
}

// diffLines shows the first differing line of two texts, then all of got.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s\n--- got ---\n%s", i+1, a, b, got)
		}
	}
	return ""
}
func itoa(i int) string { return fmt.Sprint(i) }
