package jaxsh_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/jit"
)

// The CPU device count belongs to the process: interpreters that agree
// with it (or state no preference) run, one that asks for another fails
// with an error that says why, before running anything.
func TestOptionsCPUDevicesAreFixedAtFirstUse(t *testing.T) {
	t.Setenv("JAXSH_CPU_DEVICES", "")
	run := func(opts jaxsh.Options, code string) (string, error) {
		var out bytes.Buffer
		opts.Stdout = &out
		_, err := jaxsh.New(opts).RunString(context.Background(), "t.star", code, nil)
		return out.String(), err
	}
	if _, err := run(jaxsh.Options{}, "jnp.ones(1)"); err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	n := len(jit.Devices("cpu"))
	out, err := run(jaxsh.Options{CPUDevices: n}, "print(len(devices()))")
	if err != nil || out != fmt.Sprintf("%d\n", n) {
		t.Errorf("CPUDevices: %d (the count in use): %q, %v", n, out, err)
	}
	out, err = run(jaxsh.Options{CPUDevices: n + 1}, "print('ran')")
	if err == nil || out != "" || !strings.Contains(err.Error(), "fixed when they were first used") {
		t.Errorf("CPUDevices: %d with %d in use: output %q, error %v", n+1, n, out, err)
	}
	if err := (jaxsh.Options{CPUDevices: n + 1}).SetUpDevices(); err == nil {
		t.Errorf("SetUpDevices with CPUDevices: %d and %d in use succeeded", n+1, n)
	}
	t.Setenv("JAXSH_CPU_DEVICES", "many")
	if _, err := run(jaxsh.Options{}, "1"); err == nil || !strings.Contains(err.Error(), "JAXSH_CPU_DEVICES") {
		t.Errorf("with JAXSH_CPU_DEVICES=many: %v, want an error naming the variable", err)
	}
}

func TestOptionsDevice(t *testing.T) {
	last := jit.Devices("cpu")[len(jit.Devices("cpu"))-1].String()
	var out bytes.Buffer
	interp := jaxsh.New(jaxsh.Options{Stdout: &out, Device: last})
	if _, err := interp.RunString(context.Background(), "t.star", "print(jnp.arange(2).device)", nil); err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if out.String() != last+"\n" {
		t.Errorf("Device: %q: arrays made on %q", last, out.String())
	}
	for _, bad := range []string{"cuda", "cpu:1024", "cpu:", "tpu:0"} {
		_, err := jaxsh.New(jaxsh.Options{Stdout: &out, Device: bad}).RunString(context.Background(), "t.star", "1", nil)
		if err == nil || !strings.HasPrefix(err.Error(), "default device: ") {
			t.Errorf("Device: %q: %v, want a default device error", bad, err)
		}
	}
}
