package hostcallback_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/jaxsh/jaxsh/cpu"
	"github.com/jaxsh/jaxsh/internal/scripttest"
)

// The scripts tap and call on cpu:1 and cpu:2 (tap_with_device, two
// devices' token streams), as package starlark's tests do: three logical
// CPU devices, whatever JAXSH_CPU_DEVICES says, the default still cpu:0.
func TestMain(m *testing.M) {
	if err := cpu.Configure(3); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

var updateEffects = flag.Bool("update", false, "rewrite the golden .out files of testdata/effects")

// The effects script tests: each testdata/effects/NAME.star runs as a
// script (ending with the implicit barrier) and its output, followed by the
// error that ended it if any, must equal NAME.out exactly. Each runs again
// with the scheduler picking independent kernels at random
// (JAXSH_SHUFFLE_KERNELS), which must not change a byte: the order of
// effects comes from tokens.
func TestEffectsScripts(t *testing.T) {
	scripttest.Golden(t, "testdata/effects/*.star", *updateEffects, true)
}
