package starlark_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jaxsh/jaxsh/cpu"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// testCPUDevices is the number of logical CPU devices every test of this
// package runs with, whatever JAXSH_CPU_DEVICES says, so that
// testdata/devices.star can rely on cpu:0 … cpu:2. The default device stays
// cpu:0, so tests that know nothing of devices are unaffected.
const testCPUDevices = 3

func TestMain(m *testing.M) {
	if err := cpu.Configure(testCPUDevices); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// runWithDefault runs code in a new session whose default device is
// device and returns what it printed.
func runWithDefault(t *testing.T, device, code string) string {
	t.Helper()
	var out bytes.Buffer
	s := newSession(&out, nil)
	if err := s.SetDefaultDevice(device); err != nil {
		t.Fatalf("SetDefaultDevice(%q): %v", device, err)
	}
	if _, err := s.ExecFile(s.NewThread("main"), "test.star", code); err != nil {
		t.Fatalf("default %q: %s", device, FormatError(err))
	}
	return out.String()
}

// A session's default device is where its creation functions, Python
// numbers, device_put(x) and argument-free jitted functions put arrays,
// and what devices() lists by default.
func TestSessionDefaultDevice(t *testing.T) {
	code := `
print(jnp.ones(2).device, jnp.arange(3).device, jnp.array([1, 2]).device, jnp.zeros_like(jnp.ones(2)).device)
print(device_put(1.0).device, device_put(jnp.ones(2)).device, jit(lambda: jnp.ones(2))().device, jit(lambda a: a)(1).device)
print((jnp.ones(2) + device_put(jnp.ones(2))).tolist(), devices())
`
	for _, tc := range []struct{ device, want string }{
		{"", "cpu:0"},
		{"cpu", "cpu:0"},
		{"cpu:2", "cpu:2"},
	} {
		got := runWithDefault(t, tc.device, code)
		want := strings.Repeat(tc.want+" ", 3) + tc.want + "\n" + strings.Repeat(tc.want+" ", 3) + tc.want +
			"\n[2.0, 2.0] [cpu:0, cpu:1, cpu:2]\n"
		if got != want {
			t.Errorf("default %q: got\n%s\nwant\n%s", tc.device, got, want)
		}
	}
	s := newSession(&bytes.Buffer{}, nil)
	for _, bad := range []string{"cpu:3", "cuda", "cpu:-1", "cpu:x"} {
		if err := s.SetDefaultDevice(bad); err == nil {
			t.Errorf("SetDefaultDevice(%q) succeeded", bad)
		}
	}
}

// Sessions running at once keep their own default devices: the setting is
// per thread, not per process.
func TestConcurrentSessionsKeepTheirDefaults(t *testing.T) {
	var wg sync.WaitGroup
	results := make([]string, 3)
	for i := range results {
		wg.Go(func() {
			var out bytes.Buffer
			s := newSession(&out, nil)
			if err := s.SetDefaultDevice(fmt.Sprintf("cpu:%d", i)); err != nil {
				results[i] = err.Error()
				return
			}
			code := "for _ in range(50):\n    d = jnp.ones(4).device\n    if d != devices()[" + fmt.Sprint(i) + "]:\n        fail(str(d))\nprint(d)\n"
			if _, err := s.ExecFile(s.NewThread("main"), "t.star", code); err != nil {
				results[i] = FormatError(err)
				return
			}
			results[i] = strings.TrimSpace(out.String())
		})
	}
	wg.Wait()
	for i, r := range results {
		if want := fmt.Sprintf("cpu:%d", i); r != want {
			t.Errorf("session %d: %s, want %s", i, r, want)
		}
	}
}

// device_put returns an array that is already on the device as it is and
// copies one that is not; either way the values are the original's.
func TestDevicePutCopiesOnlyWhenItMoves(t *testing.T) {
	var out bytes.Buffer
	s := newSession(&out, nil)
	g, err := s.ExecFile(s.NewThread("main"), "t.star", `
x = jnp.array([1.5, -0.0, 3.0])
same = device_put(x, devices()[0])
moved = device_put(x, "cpu:1")
tree = device_put((x, [x]), devices()[0])
`)
	if err != nil {
		t.Fatal(FormatError(err))
	}
	x, same, moved := g["x"].(*Array), g["same"].(*Array), g["moved"].(*Array)
	tree := g["tree"].(starlark.Tuple)
	if same != x || tree[0] != x || tree[1].(*starlark.List).Index(0) != x {
		t.Errorf("device_put to the array's own device made a copy")
	}
	if moved == x || moved.Buf() == x.Buf() || moved.Device().String() != "cpu:1" {
		t.Errorf("device_put to cpu:1 gave %v on %s", moved, moved.Device())
	}
	hx, err := x.HostBytes()
	if err != nil {
		t.Fatal(err)
	}
	hm, err := moved.HostBytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(hx, hm) || moved.AVal().String() != x.AVal().String() || moved.AVal().Weak != x.AVal().Weak {
		t.Errorf("moved %s %v, want %s %v", moved.AVal(), hm, x.AVal(), hx)
	}
}
