package starlark_test

import (
	"flag"
	"testing"

	"github.com/jaxsh/jaxsh/internal/scripttest"
)

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
