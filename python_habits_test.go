package jaxsh_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
)

var updatePython = flag.Bool("update-python", false, "rewrite the golden .out files of testdata/python")

// TestPythonHabits runs the programs of testdata/python, written as JAX
// users write them (imports, f-strings, % and .format, jax.debug.print,
// tree_util, pure_callback and io_callback, Python's builtins on arrays,
// and the errors that teach), and compares everything they print, and the
// error that ends each, with NAME.out exactly. A file's chunks, separated
// by --- lines, run as programs of their own (with their line numbers in
// the file).
func TestPythonHabits(t *testing.T) {
	files, err := filepath.Glob("testdata/python/*.star")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			line := 0
			for i, chunk := range strings.Split(string(src), "\n---\n") {
				if i > 0 {
					got.WriteString("---\n")
				}
				var out bytes.Buffer
				in := jaxsh.New(jaxsh.Options{Stdout: &out})
				code := strings.Repeat("\n", line) + chunk
				_, err := in.RunString(context.Background(), file, code, nil)
				got.WriteString(out.String())
				if err != nil {
					got.WriteString("error: " + jaxsh.FormatError(err) + "\n")
				}
				line += strings.Count(chunk, "\n") + 2
			}
			golden := strings.TrimSuffix(file, ".star") + ".out"
			if *updatePython {
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-python to create it)", err)
			}
			if got.String() != string(want) {
				t.Errorf("output differs from %s\n--- got\n%s--- want\n%s", golden, got.String(), want)
			}
		})
	}
}
