package transform_test

import (
	"path/filepath"
	"testing"

	"github.com/jaxsh/jaxsh/internal/scripttest"
)

// TestScripts runs every testdata/*.star file in go.starlark.net's style:
// chunks separated by --- lines, the assert module predeclared, and `###
// "regexp"` comments marking the line where a chunk must fail.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.star")
	if err != nil || len(files) == 0 {
		t.Fatalf("no script tests found: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			scripttest.Chunks(t, file, nil)
		})
	}
}
