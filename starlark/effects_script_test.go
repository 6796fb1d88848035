package starlark_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/jaxsh/jaxsh/starlark"
)

var updateEffects = flag.Bool("update", false, "rewrite the golden .out files of testdata/effects")

// The effects script tests: each testdata/effects/NAME.star runs as a
// script (ending with the implicit barrier) and its output, followed by the
// error that ended it if any, must equal NAME.out exactly. Each runs again
// with the scheduler picking independent kernels at random
// (JAXSH_SHUFFLE_KERNELS), which must not change a byte: the order of
// effects comes from tokens.
func TestEffectsScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/effects/*.star")
	if err != nil || len(files) == 0 {
		t.Fatalf("no effects scripts: %v", err)
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
			for _, seed := range []string{"1", "2", "3"} {
				t.Setenv("JAXSH_SHUFFLE_KERNELS", seed)
				if shuffled := runEffectsScript(t, file, src); shuffled != got {
					t.Fatalf("with JAXSH_SHUFFLE_KERNELS=%s the output differs\n--- got\n%s--- want\n%s", seed, shuffled, got)
				}
			}
		})
	}
}

func runEffectsScript(t *testing.T, file string, src []byte) string {
	t.Helper()
	var out bytes.Buffer
	s := newSession(&out, nil)
	th := s.NewThread("main")
	_, err := s.ExecFile(th, file, src)
	if cerr := s.CloseThread(th); err == nil {
		err = cerr
	}
	if err != nil {
		out.WriteString("error: " + FormatError(err) + "\n")
	}
	return out.String()
}
