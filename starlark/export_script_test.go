package starlark_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The export script tests: each testdata/export/NAME.star runs as a script
// and its output, with the error that ended it if any, must equal NAME.out
// exactly (go test ./starlark -run TestExportScripts -update rewrites them).
func TestExportScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/export/*.star")
	if err != nil || len(files) == 0 {
		t.Fatalf("no export scripts: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".star")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := runEffectsScript(t, file, src)
			golden := strings.TrimSuffix(file, ".star") + ".out"
			if *updateEffects {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Fatalf("output differs from %s\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}
