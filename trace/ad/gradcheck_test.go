package ad_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
)

// A JAX-style gradient checker over the whole primitive table: at random
// float64 points, each primitive's JVP must match central finite
// differences, its VJP must match its JVP (<ct, J t> = <J^T ct, t>), and
// elementwise primitives are checked again one order up (the JVP jaxpr
// itself checked the same way). Every primitive must have a case here or
// be declared non-differentiable in the table.

// An operand of a case: a float64 input drawn from [lo, hi] (the default
// domain is [-1.5, 1.5]), or fixed values (indices, predicates).
type operand struct {
	aval   trace.AVal
	lo, hi float64
	fixed  []float64
}

func x64(shape ...int) operand { return operand{aval: trace.NewAVal(trace.Float64, shape...)} }

func in(lo, hi float64, shape ...int) operand {
	return operand{aval: trace.NewAVal(trace.Float64, shape...), lo: lo, hi: hi}
}

func fixed(dt trace.DType, shape []int, values ...float64) operand {
	return operand{aval: trace.NewAVal(dt, shape...), fixed: values}
}

// A gradCase applies prim (or body, for cases that need more than one
// equation) to its operands.
type gradCase struct {
	name   string // defaults to prim
	prim   string
	params trace.Params
	ops    []operand
	body   func(e *trace.Emitter, args []trace.Atom) []trace.Atom
	order2 bool   // check the JVP jaxpr too
	noJVP  string // forward mode must fail with this message; VJP is checked against differences
	noVJP  string // reverse mode must fail with this message
	host   bool   // needs a host (taps)
	tol    float64
	covers []string // further primitives this case exercises
}

func (c gradCase) label() string {
	if c.name != "" {
		return c.name
	}
	return c.prim
}

func TestGradCheckCoversTable(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range gradCases() {
		covered[c.prim] = true
		for _, p := range c.covers {
			covered[p] = true
		}
	}
	for _, p := range trace.Primitives() {
		switch {
		case p.NonDifferentiable:
		case p.JVP == nil:
			t.Errorf("%s has no JVP rule and is not declared non-differentiable", p.Name)
		case !covered[p.Name]:
			t.Errorf("%s has a JVP rule but no gradient-check case", p.Name)
		}
	}
}

func TestGradCheck(t *testing.T) {
	for _, c := range gradCases() {
		t.Run(c.label(), func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(len(c.label())) * 7919))
			f := c.jaxpr(t)
			x := c.point(rng)
			checkFunction(t, c, f, x, rng)
			if c.order2 {
				diff := floatInputs(f)
				jv, _, err := ad.JVP(f, diff, nil)
				if err != nil {
					t.Fatal(err)
				}
				args := append([]array(nil), x...)
				for i, d := range diff {
					if d {
						args = append(args, randomLike(rng, x[i]))
					}
				}
				checkFunction(t, c, jv, args, rng)
			}
		})
	}
}

func (c gradCase) jaxpr(t *testing.T) *trace.Jaxpr {
	avals := make([]trace.AVal, len(c.ops))
	for i, o := range c.ops {
		avals[i] = o.aval
	}
	return build(t, avals, func(e *trace.Emitter, args []trace.Atom) []trace.Atom {
		if c.body != nil {
			return c.body(e, args)
		}
		params := c.params
		if params == nil {
			params = trace.Params{}
		}
		return e.Bind(c.prim, args, params)
	})
}

func (c gradCase) point(rng *rand.Rand) []array {
	x := make([]array, len(c.ops))
	for i, o := range c.ops {
		if o.fixed != nil {
			x[i] = array{aval: o.aval, data: o.fixed}
			continue
		}
		lo, hi := o.lo, o.hi
		if lo == 0 && hi == 0 {
			lo, hi = -1.5, 1.5
		}
		data := make([]float64, o.aval.Size())
		for k := range data {
			data[k] = lo + (hi-lo)*rng.Float64()
		}
		x[i] = array{aval: o.aval, data: data}
	}
	return x
}

func floatInputs(j *trace.Jaxpr) []bool {
	diff := make([]bool, len(j.InVars))
	for i, v := range j.InVars {
		diff[i] = trace.HasTangent(v.Aval())
	}
	return diff
}

func randomLike(rng *rand.Rand, a array) array {
	data := make([]float64, len(a.data))
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	return array{aval: a.aval, data: data}
}

// checkFunction checks f's JVP against central differences and its VJP
// against its JVP at x, along a random direction.
func checkFunction(t *testing.T, c gradCase, f *trace.Jaxpr, x []array, rng *rand.Rand) {
	t.Helper()
	tol := c.tol
	if tol == 0 {
		tol = 1e-6
	}
	diff := floatInputs(f)
	if c.noJVP != "" && c.noVJP != "" {
		_, _, err := jvpRun(t, c, f, diff, nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.noJVP) {
			t.Errorf("JVP: got error %v, want one saying %q", err, c.noJVP)
		}
		_, err = ad.VJP(f, diff)
		if err == nil || !strings.Contains(err.Error(), c.noVJP) {
			t.Errorf("VJP: got error %v, want one saying %q", err, c.noVJP)
		}
		return
	}
	var dirs []array
	for i, d := range diff {
		if d {
			dirs = append(dirs, randomLike(rng, x[i]))
		}
	}
	fd := centralDifference(t, c, f, x, diff, dirs)
	var jvpOut []array
	if c.noJVP != "" {
		_, _, err := jvpRun(t, c, f, diff, x, dirs)
		if err == nil || !strings.Contains(err.Error(), c.noJVP) {
			t.Fatalf("JVP: got error %v, want one saying %q", err, c.noJVP)
		}
		jvpOut = fd
	} else {
		_, tangents, err := jvpRun(t, c, f, diff, x, dirs)
		if err != nil {
			t.Fatalf("JVP: %v", err)
		}
		jvpOut = tangents
		for i := range fd {
			for k := range fd[i].data {
				if !close(tangents[i].data[k], fd[i].data[k], tol*100) {
					t.Errorf("JVP output %d[%d] = %.10g, central differences give %.10g\n%s", i, k, tangents[i].data[k], fd[i].data[k], f)
					break
				}
			}
		}
	}
	// VJP: <ct, J t> == <J^T ct, t>.
	v, err := ad.VJP(f, diff)
	if c.noVJP != "" {
		if err == nil || !strings.Contains(err.Error(), c.noVJP) {
			t.Fatalf("VJP: got error %v, want one saying %q", err, c.noVJP)
		}
		return
	}
	if err != nil {
		t.Fatalf("VJP: %v", err)
	}
	fwd := runHost(t, c, v.Forward, x...)
	nOut := len(f.OutVars)
	res := fwd[nOut:]
	var cts []array
	lhs := 0.0
	k := 0
	for i, has := range v.OutTangent {
		if !has {
			continue
		}
		ct := randomLike(rng, fwd[i])
		cts = append(cts, ct)
		lhs += inner(ct, jvpOut[k])
		k++
	}
	back := runHost(t, c, v.Backward, append(append([]array(nil), res...), cts...)...)
	rhs := 0.0
	for i := range back {
		rhs += inner(back[i], dirs[i])
	}
	if !close(lhs, rhs, tol*100) {
		t.Errorf("VJP: <ct, J t> = %.12g but <J^T ct, t> = %.12g\nforward:\n%s\nbackward:\n%s", lhs, rhs, v.Forward, v.Backward)
	}
}

func inner(a, b array) float64 {
	s := 0.0
	for i := range a.data {
		s += a.data[i] * b.data[i]
	}
	return s
}

// jvpRun runs f's JVP at x along dirs; it returns the JVP's error instead
// of failing the test.
func jvpRun(t *testing.T, c gradCase, f *trace.Jaxpr, diff []bool, x, dirs []array) ([]array, []array, error) {
	t.Helper()
	jv, outTangent, err := ad.JVP(f, diff, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := ad.Runnable(jv); err != nil {
		return nil, nil, err
	}
	outs := runHost(t, c, jv, append(append([]array(nil), x...), dirs...)...)
	n := len(f.OutVars)
	var tangents []array
	for i, has := range outTangent {
		if has && trace.HasTangent(f.OutVars[i].Aval()) {
			tangents = append(tangents, outs[n+len(tangents)])
		}
	}
	return outs[:n], tangents, nil
}

// centralDifference estimates the directional derivative of f's inexact
// outputs at x along dirs.
func centralDifference(t *testing.T, c gradCase, f *trace.Jaxpr, x []array, diff []bool, dirs []array) []array {
	t.Helper()
	const eps = 1e-6
	shifted := func(sign float64) []array {
		args := make([]array, len(x))
		k := 0
		for i, a := range x {
			args[i] = a
			if diff[i] {
				data := make([]float64, len(a.data))
				for j := range data {
					data[j] = a.data[j] + sign*eps*dirs[k].data[j]
				}
				args[i] = array{aval: a.aval, data: data}
				k++
			}
		}
		return runHost(t, c, f, args...)
	}
	plus, minus := shifted(1), shifted(-1)
	var out []array
	for i := range plus {
		if !trace.HasTangent(plus[i].aval) {
			continue
		}
		data := make([]float64, len(plus[i].data))
		for j := range data {
			data[j] = (plus[i].data[j] - minus[i].data[j]) / (2 * eps)
		}
		out = append(out, array{aval: plus[i].aval, data: data})
	}
	return out
}

func runHost(t *testing.T, c gradCase, j *trace.Jaxpr, args ...array) []array {
	t.Helper()
	if !c.host {
		return run(t, j, args...)
	}
	return runWith(t, j, &recordingHost{}, args...)
}

// recordingHost runs taps and prints by recording them.
type recordingHost struct{ log []string }

func (h *recordingHost) Print(e *trace.Eqn, args []jit.HostArg) error {
	h.log = append(h.log, "print "+e.Params.Str("fmt"))
	return nil
}

func (h *recordingHost) Tap(e *trace.Eqn, args []jit.HostArg) error {
	h.log = append(h.log, "tap")
	return nil
}

func (h *recordingHost) Call(e *trace.Eqn, args []jit.HostArg) ([][]byte, error) {
	return nil, errors.New("no calls in these tests")
}

type testCallback string

func (c testCallback) CallbackName() string { return string(c) }

var _ = math.Pi
