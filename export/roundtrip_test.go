package export_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	_ "github.com/jaxsh/jaxsh/cpu"
	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// recordingHost runs host ops by writing what they saw to a log, so that
// two runs can be compared event for event; calls return a fixed pattern.
type recordingHost struct{ log strings.Builder }

func (h *recordingHost) Print(e *trace.Eqn, args []jit.HostArg) error {
	fmt.Fprintf(&h.log, "print %q", e.Params.Str("fmt"))
	h.args(args)
	return nil
}

func (h *recordingHost) Tap(e *trace.Eqn, args []jit.HostArg) error {
	fmt.Fprintf(&h.log, "tap %s", e.Params["callback"].(trace.Callback).CallbackName())
	h.args(args)
	return nil
}

func (h *recordingHost) Call(e *trace.Eqn, args []jit.HostArg) ([][]byte, error) {
	fmt.Fprintf(&h.log, "call %s", e.Params["callback"].(trace.Callback).CallbackName())
	h.args(args)
	results, _ := trace.ParamAs[[]trace.AVal](e.Params, "result_avals")
	out := make([][]byte, len(results))
	for i, a := range results {
		out[i] = make([]byte, a.Size()*a.DType.Size())
		for k := range out[i] {
			out[i][k] = byte(k + i)
		}
	}
	return out, nil
}

func (h *recordingHost) args(args []jit.HostArg) {
	for _, a := range args {
		fmt.Fprintf(&h.log, " %s:%x", a.AVal, a.Data)
	}
	h.log.WriteString("\n")
}

// inputsFor makes deterministic inputs for j's inputs: small values that
// are valid indices and harmless to transcendental functions.
func inputsFor(t *testing.T, dev jit.Device, avals []trace.AVal, seed uint64) []jit.Buffer {
	rng := rand.New(rand.NewPCG(seed, 7))
	var bufs []jit.Buffer
	for _, a := range avals {
		data := make([]byte, a.Size()*a.DType.Size())
		w := a.DType.Size()
		for i := 0; i < a.Size(); i++ {
			el := data[i*w : (i+1)*w]
			switch {
			case a.DType == trace.Float32:
				binary.LittleEndian.PutUint32(el, math.Float32bits(float32(rng.Float64()*1.5+0.1)))
			case a.DType == trace.Complex64:
				binary.LittleEndian.PutUint32(el, math.Float32bits(float32(rng.Float64())))
				binary.LittleEndian.PutUint32(el[4:], math.Float32bits(float32(rng.Float64())))
			case a.DType == trace.Float64:
				binary.LittleEndian.PutUint64(el, math.Float64bits(rng.Float64()))
			case a.DType == trace.Bool:
				el[0] = byte(rng.IntN(2))
			case a.DType.IsInteger():
				el[0] = byte(rng.IntN(3))
			default:
				t.Fatalf("no input generator for %s", a)
			}
		}
		b, err := jit.FromHost(dev, a, data)
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, b)
	}
	return bufs
}

// runBoth runs the original jaxpr and the loaded artifact on the same
// inputs and requires the same output bytes and the same host events.
func runBoth(t *testing.T, orig *trace.Jaxpr, loaded *export.Exported) {
	t.Helper()
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	args := inputsFor(t, dev, orig.InAvals(), 1)
	_, exe, err := jit.CompileOn(dev, orig)
	if err != nil {
		t.Fatal(err)
	}
	consts, err := export.ConstBuffers(orig, dev)
	if err != nil {
		t.Fatal(err)
	}
	var h1, h2 recordingHost
	want, err := exe.Execute(append(consts, args...), &h1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := loaded.Run(dev, args, &h2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d outputs, want %d", len(got), len(want))
	}
	for i := range want {
		w, _ := jit.ToHost(want[i])
		g, _ := jit.ToHost(got[i])
		if !bytes.Equal(w, g) {
			t.Errorf("output %d: %x, want %x", i, g, w)
		}
	}
	if h1.log.String() != h2.log.String() {
		t.Errorf("host events:\n%s\nwant:\n%s", h2.log.String(), h1.log.String())
	}
}

func roundTrip(t *testing.T, e *export.Exported) *export.Exported {
	t.Helper()
	data, err := e.Serialize(0)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := export.Deserialize(data, callbackBindings(e))
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}

// Every corpus program survives serialization: the same jaxpr text, the
// same metadata, the same results and host events when run.
func TestRoundTripCorpus(t *testing.T) {
	progs := corpus(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range progs {
			if !yield(n) {
				return
			}
		}
	})
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			j := progs[name]
			e := mustExport(t, name, j)
			loaded := roundTrip(t, e)
			if got, want := loaded.Jaxpr.String(), j.String(); got != want {
				t.Fatalf("jaxpr text after the round trip:\n%s\nwant:\n%s", got, want)
			}
			if got, want := loaded.String(), e.String(); got != want {
				t.Errorf("metadata after the round trip:\n%s\nwant:\n%s", got, want)
			}
			if name != "custom_lin" { // it only exists to be transposed; it cannot run
				runBoth(t, j, loaded)
			}
		})
	}
}

// Every primitive of the table has an example in the corpus, and every
// param kind a primitive declares can be stored: a primitive added to
// trace without a way to serialize it fails here first.
func TestCorpusCoversPrimitiveTable(t *testing.T) {
	progs := corpus(t)
	used := map[string]bool{}
	var walk func(j *trace.Jaxpr)
	walk = func(j *trace.Jaxpr) {
		for _, e := range j.Eqns {
			used[e.Prim.Name] = true
			for _, v := range e.Params {
				switch x := v.(type) {
				case *trace.Jaxpr:
					walk(x)
				case []*trace.Jaxpr:
					for _, s := range x {
						walk(s)
					}
				}
			}
		}
	}
	for _, j := range progs {
		walk(j)
	}
	var uncovered []string
	for _, p := range trace.Primitives() {
		for _, s := range p.Params {
			if !export.StorableParamKind(s.Kind) {
				t.Errorf("%s: param %s of kind %s cannot be stored", p.Name, s.Name, s.Kind)
			}
		}
		if !used[p.Name] {
			uncovered = append(uncovered, p.Name)
		}
	}
	sort.Strings(uncovered)
	if len(uncovered) > 0 {
		// A new primitive may land before its example here; the param-kind
		// check above is what keeps it storable meanwhile.
		t.Logf("primitives without a round-trip example in corpus_test.go: %s", strings.Join(uncovered, ", "))
	}
}

// The seed's example: 7*x^3 serialized with three levels of VJP; each
// level's derivative at 0.1 and no fourth.
func TestVJPOrder(t *testing.T) {
	j := newJB(t)
	x := j.in(trace.Float32)
	y := j.one("mul", nil, j.one("mul", nil, j.one("mul", nil, lit(t, 7.0, trace.Float32, true), x), x), x)
	e := mustExport(t, "f", j.build(y))
	data, err := e.Serialize(3)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := export.Deserialize(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(loaded.String(), "vjp_order: 3") {
		t.Errorf("inspect does not show the VJP order:\n%s", loaded)
	}
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	scalar := func(v float32) jit.Buffer {
		b, err := jit.FromHost(dev, trace.NewAVal(trace.Float32), binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Level k+1 takes level k's inputs and a cotangent per output of level
	// k: 1 for the first, 0 for the others, so its first output is the
	// (k+1)-th derivative at x.
	want := []float32{0.007, 0.21, 4.2, 42}
	level := loaded
	args := []jit.Buffer{scalar(0.1)}
	for k := 0; k < 4; k++ {
		outs, err := level.Run(dev, args, jit.NoHost)
		if err != nil {
			t.Fatalf("level %d: %v", k, err)
		}
		raw, _ := jit.ToHost(outs[0])
		got := math.Float32frombits(binary.LittleEndian.Uint32(raw))
		if math.Abs(float64(got-want[k])) > 1e-5*math.Max(1, float64(want[k])) {
			t.Errorf("level %d: %v, want %v", k, got, want[k])
		}
		if k == 3 {
			break
		}
		if level, err = level.VJP(); err != nil {
			t.Fatalf("level %d: %v", k, err)
		}
		for i := range len(level.InAvals) - len(args) {
			args = append(args, scalar(map[bool]float32{true: 1}[i == 0]))
		}
	}
	if _, err := level.VJP(); err == nil || err.Error() != "No VJP is available" {
		t.Errorf("a fourth VJP: %v, want No VJP is available", err)
	}
}
