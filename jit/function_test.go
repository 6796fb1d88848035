package jit_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jaxsh/jaxsh/cpu" // the backend the programs run on
	"github.com/jaxsh/jaxsh/effects"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// These tests drive a jitted function's whole path from Go, with no
// Starlark: trace once per signature through a caller-supplied function,
// cache, donate, dispatch ordered by the caller's runtime tokens.

// goCaller is a Go thread of control as a jit.Caller: its host ops print
// into prints, and the program whose host gate is set waits for it before
// printing.
type goCaller struct {
	ctx *effects.Context

	mu     sync.Mutex
	prints []string
	unread []*jit.Future
	gates  []chan struct{} // per dispatched program with effects, in order
}

func newGoCaller() *goCaller { return &goCaller{ctx: effects.NewContext()} }

func (c *goCaller) Effects() *effects.Context { return c.ctx }

func (c *goCaller) NewHost(_ jit.Device, hostOps bool) func(*effects.Program) jit.Host {
	if !hostOps {
		return nil
	}
	var gate chan struct{}
	if len(c.gates) > 0 {
		gate, c.gates = c.gates[0], c.gates[1:]
	}
	return func(*effects.Program) jit.Host { return &goHost{c: c, gate: gate} }
}

func (c *goCaller) Unread(f *jit.Future) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unread = append(c.unread, f)
}

type goHost struct {
	c    *goCaller
	gate chan struct{}
}

func (h *goHost) Print(e *trace.Eqn, args []jit.HostArg) error {
	if h.gate != nil {
		<-h.gate
	}
	text := e.Params["fmt"].(string)
	for _, a := range args {
		v := math.Float32frombits(binary.LittleEndian.Uint32(a.Data))
		text = strings.Replace(text, "{}", strconv.FormatFloat(float64(v), 'g', -1, 32), 1)
	}
	h.c.mu.Lock()
	defer h.c.mu.Unlock()
	h.c.prints = append(h.c.prints, text)
	return nil
}

func (h *goHost) Tap(*trace.Eqn, []jit.HostArg) error { return jit.ErrNoHost }
func (h *goHost) Call(*trace.Eqn, []jit.HostArg) ([][]byte, error) {
	return nil, jit.ErrNoHost
}

func cpu0(t *testing.T) jit.Device {
	t.Helper()
	dev, err := jit.LookupDevice("cpu:0")
	if err != nil {
		t.Fatal(err)
	}
	return dev
}

func float32Buffer(t *testing.T, dev jit.Device, vals ...float32) jit.Buffer {
	t.Helper()
	raw := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	buf, err := jit.FromHost(dev, trace.NewAVal(trace.Float32, len(vals)), raw)
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

func float32s(t *testing.T, f *jit.Future, i int) []float32 {
	t.Helper()
	if err := f.Event().Wait(); err != nil {
		t.Fatal(err)
	}
	buf, err := f.Output(i)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := jit.ToHost(buf)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, len(raw)/4)
	for k := range out {
		out[k] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*k:]))
	}
	return out
}

// traceSum is the trace function of f(x, y) = x + y (and, when print is
// set, an ordered debug_print of x first), counting its calls.
func traceSum(calls *int, print bool) func(*jit.Signature) (*jit.Traced, error) {
	return func(sig *jit.Signature) (*jit.Traced, error) {
		*calls++
		b := trace.NewBuilder()
		x := b.Input(sig.Args[0])
		y := b.Input(sig.Args[1])
		if print {
			if _, err := b.Bind("debug_print", []trace.Atom{x}, trace.Params{"fmt": "x={}", "ordered": true}, trace.Pos{}); err != nil {
				return nil, err
			}
		}
		s, err := b.Bind("add", []trace.Atom{x, y}, nil, trace.Pos{})
		if err != nil {
			return nil, err
		}
		j, err := b.Build([]trace.Atom{s[0]})
		if err != nil {
			return nil, err
		}
		return &jit.Traced{Jaxpr: j, Extra: "sum"}, nil
	}
}

func TestFunctionTracesOncePerSignatureAndDispatches(t *testing.T) {
	dev := cpu0(t)
	f := &jit.Function{Name: "sum"}
	calls := 0
	var log bytes.Buffer
	f32x3 := trace.NewAVal(trace.Float32, 3)
	sig := func(n int) *jit.Signature {
		a := trace.NewAVal(trace.Float32, n)
		return &jit.Signature{Args: []trace.AVal{a, a}, Tree: "(*, *)", Device: dev}
	}
	c, err := f.Compile(sig(3), jit.CompileOptions{Log: &log}, traceSum(&calls, false))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := f.Compile(sig(3), jit.CompileOptions{Log: &log}, traceSum(&calls, false)); err != nil || again != c {
		t.Fatalf("second compile of one signature: %v, same entry %v", err, again == c)
	}
	if _, err := f.Compile(sig(4), jit.CompileOptions{Log: &log}, traceSum(&calls, false)); err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("traced %d times for two signatures, want 2", calls)
	}
	wantLog := "jaxsh: compiling sum for (float32[3], float32[3]) on cpu:0: first call\n" +
		"jaxsh: compiling sum for (float32[4], float32[4]) on cpu:0: array argument 0 changed from float32[3] to float32[4]; array argument 1 changed from float32[3] to float32[4]\n"
	if log.String() != wantLog {
		t.Errorf("compile log:\n%s\nwant:\n%s", log.String(), wantLog)
	}
	if got, ok := f.Lookup(&jit.Signature{Args: []trace.AVal{f32x3, f32x3}, Tree: "(*, *)", Device: dev}); !ok || got != c || c.Extra != "sum" {
		t.Errorf("Lookup of a compiled signature: %v %v", ok, got == c)
	}

	caller := newGoCaller()
	x := float32Buffer(t, dev, 1, 2, 3)
	y := float32Buffer(t, dev, 10, 20, 30)
	first, err := c.Call(caller, []jit.Operand{{Buf: x}, {Buf: y}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A result still being computed is an operand too: the second program
	// waits for the first.
	second, err := c.Call(caller, []jit.Operand{{Fut: first, Index: 0}, {Buf: x}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := float32s(t, second, 0); !equalFloats(got, []float32{12, 24, 36}) {
		t.Errorf("(x + y) + x = %v, want [12 24 36]", got)
	}
	if got := float32s(t, first, 0); !equalFloats(got, []float32{11, 22, 33}) {
		t.Errorf("x + y = %v, want [11 22 33]", got)
	}
	if err := caller.ctx.Barrier(); err != nil {
		t.Fatal(err)
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Programs with an ordered effect run in dispatch order although the first
// is held back: the runtime token makes the later ones wait for it.
func TestFunctionOrdersEffectsByRuntimeTokens(t *testing.T) {
	dev := cpu0(t)
	f := &jit.Function{Name: "printing_sum"}
	calls := 0
	a := trace.NewAVal(trace.Float32, 1)
	c, err := f.Compile(&jit.Signature{Args: []trace.AVal{a, a}, Device: dev}, jit.CompileOptions{}, traceSum(&calls, true))
	if err != nil {
		t.Fatal(err)
	}
	caller := newGoCaller()
	gate := make(chan struct{})
	caller.gates = []chan struct{}{gate}
	var futures []*jit.Future
	for i := 1; i <= 3; i++ {
		v := float32Buffer(t, dev, float32(i))
		fut, err := c.Call(caller, []jit.Operand{{Buf: v}, {Buf: v}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		futures = append(futures, fut)
	}
	time.Sleep(20 * time.Millisecond) // time enough for an unordered program to overtake
	close(gate)
	if err := caller.ctx.Barrier(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(caller.prints, " "), "x=1 x=2 x=3"; got != want {
		t.Errorf("prints %q, want %q", got, want)
	}
	for i, fut := range futures {
		if got := float32s(t, fut, 0); got[0] != float32(2*(i+1)) {
			t.Errorf("program %d computed %v", i, got)
		}
	}
}

// A donated argument passed twice is refused before anything runs.
func TestFunctionRefusesADonatedBufferPassedTwice(t *testing.T) {
	dev := cpu0(t)
	f := &jit.Function{Name: "sum"}
	calls := 0
	a := trace.NewAVal(trace.Float32, 2)
	c, err := f.Compile(&jit.Signature{Args: []trace.AVal{a, a}, Device: dev}, jit.CompileOptions{Donate: []bool{true, false}}, traceSum(&calls, false))
	if err != nil {
		t.Fatal(err)
	}
	x := float32Buffer(t, dev, 1, 2)
	_, err = c.Call(newGoCaller(), []jit.Operand{{Buf: x}, {Buf: x}}, nil)
	if err == nil || err.Error() != "jit(sum): argument leaf 0 is donated and also passed as leaf 1" {
		t.Fatalf("donating a buffer passed twice: %v", err)
	}
	// Shared, the donated buffer is copied first: the other holder keeps
	// its values.
	y := float32Buffer(t, dev, 5, 5)
	fut, err := c.Call(newGoCaller(), []jit.Operand{{Buf: x}, {Buf: y}}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	if got := float32s(t, fut, 0); !equalFloats(got, []float32{6, 7}) {
		t.Errorf("x + y = %v", got)
	}
	raw, _ := jit.ToHost(x)
	if math.Float32frombits(binary.LittleEndian.Uint32(raw)) != 1 {
		t.Errorf("a shared donated buffer was written")
	}
}
