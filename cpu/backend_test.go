package cpu

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

func TestParseDeviceCount(t *testing.T) {
	for _, s := range []string{"1", "3", " 8 ", "1024"} {
		n, err := ParseDeviceCount(s)
		if err != nil || fmt.Sprint(n) != strings.TrimSpace(s) {
			t.Errorf("ParseDeviceCount(%q) = %d, %v", s, n, err)
		}
	}
	for _, s := range []string{"", "0", "-1", "1025", "two", "3.0", "0x3"} {
		if n, err := ParseDeviceCount(s); err == nil {
			t.Errorf("ParseDeviceCount(%q) = %d, want an error", s, n)
		}
	}
}

// The count is fixed at first use: asking again for the same count is
// fine, another count is an error, and no preference (0) never conflicts.
func TestConfigureAfterFirstUse(t *testing.T) {
	t.Setenv(DevicesEnv, "")
	n := len(jit.Devices("cpu"))
	if n < 1 {
		t.Fatal("no cpu devices")
	}
	if err := Configure(n); err != nil {
		t.Errorf("Configure(%d) with %d devices in use: %v", n, n, err)
	}
	if err := Configure(0); err != nil {
		t.Errorf("Configure(0): %v", err)
	}
	err := Configure(n + 1)
	if err == nil || !strings.Contains(err.Error(), "fixed when they were first used") {
		t.Errorf("Configure(%d) with %d devices in use: %v, want an error", n+1, n, err)
	}
	for _, bad := range []int{-1, MaxDevices + 1} {
		if err := Configure(bad); err == nil {
			t.Errorf("Configure(%d) succeeded", bad)
		}
	}
	t.Setenv(DevicesEnv, "lots")
	if err := Configure(0); err == nil || !strings.Contains(err.Error(), DevicesEnv) {
		t.Errorf("Configure(0) with %s=lots: %v, want an error naming the variable", DevicesEnv, err)
	}
}

// childEnv marks a run of this test binary as the child of
// TestDeviceCountInAFreshProcess: only a fresh process can show how the
// count is chosen at first use.
const childEnv = "JAXSH_CPU_TEST_CHILD"

func TestDeviceCountInAFreshProcess(t *testing.T) {
	if mode := os.Getenv(childEnv); mode != "" {
		reportDeviceCount(mode)
		return
	}
	for _, tc := range []struct{ mode, env, want string }{
		{"lazy", "", "cpu:0"},
		{"lazy", "3", "cpu:0 cpu:1 cpu:2"},
		{"lazy", "junk", "cpu:0"}, // no error can be returned here; Configure(0) reports it
		{"configure4", "3", "cpu:0 cpu:1 cpu:2 cpu:3"},
		{"configure0", "2", "cpu:0 cpu:1"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDeviceCountInAFreshProcess$")
		cmd.Env = append(os.Environ(), childEnv+"="+tc.mode, DevicesEnv+"="+tc.env)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s with %s=%q: %v\n%s", tc.mode, DevicesEnv, tc.env, err, out)
		}
		if got := strings.SplitN(string(out), "\n", 2)[0]; got != tc.want {
			t.Errorf("%s with %s=%q: devices %q, want %q", tc.mode, DevicesEnv, tc.env, got, tc.want)
		}
	}
}

// reportDeviceCount configures as mode says, then prints the devices and
// checks that the last one computes: neg of an array placed there stays
// there.
func reportDeviceCount(mode string) {
	switch mode {
	case "configure4":
		if err := Configure(4); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
	case "configure0":
		if err := Configure(0); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
	}
	devs := jit.Devices("cpu")
	names := make([]string, len(devs))
	for i, d := range devs {
		names[i] = d.String()
	}
	fmt.Println(strings.Join(names, " "))
	last := devs[len(devs)-1]
	aval := trace.AVal{Shape: trace.Shape{2}, DType: trace.Int8}
	buf, err := jit.FromHost(last, aval, []byte{3, 4})
	var outs []jit.Buffer
	if err == nil {
		outs, err = jit.ApplyPrimitive(last, trace.Lookup("neg"), trace.Params{}, []jit.Buffer{buf})
	}
	var data []byte
	if err == nil {
		data, err = jit.ToHost(outs[0])
	}
	if err == nil && (outs[0].Device() != last || int8(data[0]) != -3 || int8(data[1]) != -4) {
		err = fmt.Errorf("neg of [3 4] on %s gave %v on %s", last, data, outs[0].Device())
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
}
