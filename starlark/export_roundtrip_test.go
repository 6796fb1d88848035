package starlark_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/internal/chunks"
	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlarktest"
)

// Every program of the jit and effects script suites runs again with each
// jitted call exported, serialized, deserialized and called: the same
// results (the scripts' asserts) and the same printed effects in the same
// order (the effects scripts' golden output).
func TestScriptSuitesThroughExport(t *testing.T) {
	off := SetExportRoundTrip()
	defer off()
	effects, err := filepath.Glob("testdata/effects/*.star")
	if err != nil || len(effects) == 0 {
		t.Fatalf("no effects scripts: %v", err)
	}
	for _, file := range effects {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(file, ".star") + ".out")
			if err != nil {
				t.Fatal(err)
			}
			if got := runEffectsScript(t, file, src); got != string(want) {
				t.Fatalf("through export, the output differs\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
	assertModule, err := starlarktest.LoadAssertModule()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"testdata/jit.star", "testdata/decorator.star", "testdata/control_flow.star"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			cs, err := chunks.Read(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				runChunk(t, file, c, assertModule)
			}
		})
	}
}
