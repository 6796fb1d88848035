package jit

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// fakeBackend runs only "neg" on float64 host slices and counts compiles, so
// the tests see the cache and the device plumbing without a real backend.
type fakeBackend struct {
	devs     []Device
	compiles atomic.Int64
}

type fakeDevice struct{ id int }

func (d fakeDevice) Platform() string { return "fake" }
func (d fakeDevice) ID() int          { return d.id }
func (d fakeDevice) Kind() string     { return "fake" }
func (d fakeDevice) String() string   { return "fake:" + string(rune('0'+d.id)) }

type fakeBuffer struct {
	aval trace.AVal
	dev  Device
	data []byte
}

func (b *fakeBuffer) AVal() trace.AVal { return b.aval }
func (b *fakeBuffer) Device() Device   { return b.dev }

func (f *fakeBackend) Platform() string  { return "fake" }
func (f *fakeBackend) Devices() []Device { return f.devs }
func (f *fakeBackend) FromHost(dev Device, aval trace.AVal, data []byte) (Buffer, error) {
	return &fakeBuffer{aval: aval, dev: dev, data: append([]byte(nil), data...)}, nil
}
func (f *fakeBackend) ToHost(b Buffer) ([]byte, error) { return b.(*fakeBuffer).data, nil }

type fakeExe struct{ out trace.AVal }

func (x fakeExe) Execute(args []Buffer, _ Host) ([]Buffer, error) {
	in := args[0].(*fakeBuffer)
	out := &fakeBuffer{aval: x.out, dev: in.dev, data: make([]byte, len(in.data))}
	for i := range in.data {
		out.data[i] = in.data[i]
		if i%8 == 7 {
			out.data[i] ^= 0x80 // flip each float64's sign bit: neg
		}
	}
	return []Buffer{out}, nil
}

func (f *fakeBackend) Compile(p *Program, dev Device) (Executable, error) {
	f.compiles.Add(1)
	if len(p.Kernels) != 1 || p.Kernels[0].Eqns[0].Prim.Name != "neg" {
		return nil, errors.New("fake backend runs only neg")
	}
	return fakeExe{out: p.Jaxpr.OutAvals()[0]}, nil
}

var fake = &fakeBackend{devs: []Device{fakeDevice{0}, fakeDevice{1}}}

func init() { RegisterBackend(fake) }

func TestLookupDevice(t *testing.T) {
	for name, want := range map[string]string{"fake": "fake:0", "fake:1": "fake:1"} {
		d, err := LookupDevice(name)
		if err != nil || d.String() != want {
			t.Errorf("LookupDevice(%q) = %v, %v; want %s", name, d, err, want)
		}
	}
	for name, want := range map[string]string{
		"fake:2":   "no device fake:2: fake has 2 device(s)",
		"fake:x":   `bad device name "fake:x"`,
		"fake:01":  `bad device name "fake:01"`,
		"quantum":  "no quantum devices available",
		"quantum:": `bad device name "quantum:"`,
	} {
		if _, err := LookupDevice(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LookupDevice(%q) error = %v, want %q", name, err, want)
		}
	}
	if got := Devices("fake"); len(got) != 2 || got[1].ID() != 1 {
		t.Errorf("Devices(fake) = %v", got)
	}
}

func TestApplyPrimitiveCompilesOncePerSignature(t *testing.T) {
	dev := fake.devs[0]
	neg := trace.Lookup("neg")
	aval := trace.NewAVal(trace.Float64, 2)
	in, err := FromHost(dev, aval, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40})
	if err != nil {
		t.Fatal(err)
	}
	// The cache is the process's: start from an empty one, so that an
	// earlier run of this test (-count=2) has not compiled these already.
	eagerCache.Lock()
	clear(eagerCache.m)
	eagerCache.Unlock()
	for i := range recentEager {
		recentEager[i].Store(nil)
	}
	before := fake.compiles.Load()
	for i := 0; i < 3; i++ {
		out, err := ApplyPrimitive(dev, neg, nil, []Buffer{in})
		if err != nil {
			t.Fatal(err)
		}
		host, _ := ToHost(out[0])
		if host[7] != 0xbf || host[15] != 0xc0 || !out[0].AVal().Equal(aval) {
			t.Fatalf("neg gave %x, aval %s", host, out[0].AVal())
		}
	}
	if n := fake.compiles.Load() - before; n != 1 {
		t.Errorf("compiled %d times for one signature, want 1", n)
	}
	// A new shape is a new signature.
	in3, _ := FromHost(dev, trace.NewAVal(trace.Float64, 1), make([]byte, 8))
	if _, err := ApplyPrimitive(dev, neg, nil, []Buffer{in3}); err != nil {
		t.Fatal(err)
	}
	if n := fake.compiles.Load() - before; n != 2 {
		t.Errorf("compiled %d times for two signatures, want 2", n)
	}
}

func TestApplyPrimitiveErrors(t *testing.T) {
	dev := fake.devs[0]
	f64, _ := FromHost(dev, trace.NewAVal(trace.Float64, 2), make([]byte, 16))
	i32, _ := FromHost(dev, trace.NewAVal(trace.Int32, 2), make([]byte, 8))
	other, _ := FromHost(fake.devs[1], trace.NewAVal(trace.Float64, 2), make([]byte, 16))
	_, err := ApplyPrimitive(dev, trace.Lookup("add"), nil, []Buffer{f64, i32})
	var te *trace.TypeError
	if !errors.As(err, &te) || te.Prim != "add" {
		t.Errorf("add f64+i32: error %v, want a *trace.TypeError for add", err)
	}
	if _, err := ApplyPrimitive(dev, trace.Lookup("neg"), nil, []Buffer{other}); err == nil || !strings.Contains(err.Error(), "is on fake:1, not fake:0") {
		t.Errorf("cross-device operand: error %v", err)
	}
	if _, err := FromHost(dev, trace.NewAVal(trace.Float64, 2), make([]byte, 3)); err == nil {
		t.Error("FromHost accepted 3 bytes for f64[2]")
	}
}

func TestCompileCutsOneKernelPerEquation(t *testing.T) {
	b := trace.NewBuilder()
	x := b.Input(trace.NewAVal(trace.Float32, 3))
	s, err := b.Bind("sin", []trace.Atom{x}, nil, trace.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := b.Bind("mul", []trace.Atom{s[0], x}, nil, trace.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := b.Build([]trace.Atom{m[0]})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Kernels) != 2 || p.Kernels[0].Eqns[0].Prim.Name != "sin" || p.Kernels[1].Eqns[0].Prim.Name != "mul" {
		t.Errorf("program:\n%s\nwant a sin kernel then a mul kernel", p)
	}
	if len(p.Kernels[1].In) != 2 || p.Kernels[1].In[0] != s[0] || p.Kernels[1].In[1] != x {
		t.Errorf("kernel 1 inputs = %v", p.Kernels[1].In)
	}
}
