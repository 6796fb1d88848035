package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runJaxshProcess runs jaxsh as a process of its own: the number of CPU
// devices is fixed per process, so each configuration needs a fresh one.
// env is JAXSH_CPU_DEVICES ("" unsets it).
func runJaxshProcess(t *testing.T, env, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAXSH_CPU_DEVICES=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, asCommandEnv+"=1")
	if env != "" {
		cmd.Env = append(cmd.Env, "JAXSH_CPU_DEVICES="+env)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

func TestDeviceFlags(t *testing.T) {
	roundTrip := `
x = jnp.arange(4.0) / 4
y = device_put(x, "cpu:1")
z = device_put(y, devices()[0])
print(y.device, z.device, z.tolist() == x.tolist(), (y * 2).device)
f = jit(lambda a: a + 1, device = devices()[1])
print(f(x).device, f(x).tolist())
`
	for _, tc := range []struct {
		name, env, stdin string
		args             []string
		stdout           string
	}{
		{name: "three devices", args: []string{"--cpu-devices", "3", "-c", "print(devices())"},
			stdout: "[cpu:0, cpu:1, cpu:2]\n"},
		{name: "one by default", args: []string{"-c", "print(devices(), jnp.ones(1).device)"},
			stdout: "[cpu:0] cpu:0\n"},
		{name: "from the environment", env: "2", args: []string{"-c", "print(devices())"},
			stdout: "[cpu:0, cpu:1]\n"},
		{name: "the flag wins", env: "2", args: []string{"--cpu-devices", "4", "-c", "print(len(devices()))"},
			stdout: "4\n"},
		{name: "default device", args: []string{"--cpu-devices", "2", "--device", "cpu:1", "-c",
			"print(jnp.ones(2).device, device_put(3).device, jnp.arange(3).sum().device)"},
			stdout: "cpu:1 cpu:1 cpu:1\n"},
		{name: "bare platform", env: "2", args: []string{"--device", "cpu", "-c", "print(jnp.ones(2).device)"},
			stdout: "cpu:0\n"},
		{name: "device_put and jit", args: []string{"--cpu-devices", "2", "-c", roundTrip},
			stdout: "cpu:1 cpu:0 True cpu:1\ncpu:1 [1.0, 1.25, 1.5, 1.75]\n"},
		{name: "REPL", stdin: "jnp.zeros(1).device\nprint(jnp.zeros(1).device)\n", args: []string{"--cpu-devices", "3", "--device", "cpu:2"},
			stdout: "CpuDevice(id=2)\ncpu:2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runJaxshProcess(t, tc.env, tc.stdin, tc.args...)
			if code != 0 || stdout != tc.stdout {
				t.Errorf("jaxsh %q: exit %d, stdout %q, want %q; stderr:\n%s", tc.args, code, stdout, tc.stdout, stderr)
			}
		})
	}
}

func TestBadDeviceFlagsAreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		env    string
		args   []string
		stderr string
	}{
		{args: []string{"--cpu-devices", "0"}, stderr: "jaxsh: --cpu-devices 0: want at least 1 device\n"},
		{args: []string{"--cpu-devices", "-2"}, stderr: "jaxsh: --cpu-devices -2: want at least 1 device\n"},
		{args: []string{"--cpu-devices", "2000"}, stderr: "jaxsh: bad number of CPU devices 2000: want an integer from 1 to 1024\n"},
		{args: []string{"--cpu-devices", "two"}, stderr: `jaxsh: invalid value "two" for flag -cpu-devices: parse error`},
		{env: "zero", stderr: `jaxsh: JAXSH_CPU_DEVICES: bad number of CPU devices "zero": want an integer from 1 to 1024` + "\n"},
		// (followed by the reason: no driver, no device)
		{args: []string{"--device", "cuda"}, stderr: `jaxsh: default device: no cuda devices available (device "cuda")`},
		{args: []string{"--device", "cuda:0"}, stderr: `jaxsh: default device: no cuda devices available (device "cuda:0")`},
		{args: []string{"--cpu-devices", "2", "--device", "cpu:2"}, stderr: "jaxsh: default device: no device cpu:2: cpu has 2 device(s)\n"},
		{args: []string{"--device", "cpu:one"}, stderr: `jaxsh: default device: bad device name "cpu:one": want PLATFORM or PLATFORM:N` + "\n"},
		{args: []string{"--device", ""}, stderr: "jaxsh: --device: want cpu, cpu:N, cuda or cuda:N\n"},
	} {
		args := append(tc.args, "-c", "print('ran')")
		code, stdout, stderr := runJaxshProcess(t, tc.env, "", args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tc.stderr) {
			t.Errorf("jaxsh %q (JAXSH_CPU_DEVICES=%q): exit %d, stdout %q, stderr %q; want exit 2 and stderr %q",
				tc.args, tc.env, code, stdout, stderr, tc.stderr)
		}
	}
	// A bad value is a usage error for the REPL too, before any statement.
	code, stdout, stderr := runJaxshProcess(t, "", "print('ran')\n", "--device", "cuda")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "no cuda devices available") {
		t.Errorf("REPL with --device cuda: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// Without an NVIDIA driver the same binary lists only CPU devices, and
// asking for a CUDA device says why there is none (SPEC §6, issue 8).
func TestNoCUDADriverRunsOnCPU(t *testing.T) {
	code, out, errOut := runJaxshProcess(t, "", "", "-c", "print(devices())")
	if strings.Contains(out, "cuda") {
		t.Skipf("a CUDA device is present: %s", out)
	}
	if code != 0 || out != "[cpu:0]\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runJaxshProcess(t, "", "", "-c", "devices('cuda')")
	if code != 1 || !strings.Contains(errOut, "no cuda devices available: no CUDA") {
		t.Errorf("devices('cuda'): exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runJaxshProcess(t, "", "", "--device", "cuda", "-c", "print(1)")
	if code != 2 || !strings.Contains(errOut, "no CUDA") {
		t.Errorf("--device cuda: exit %d, stderr %q", code, errOut)
	}
}
