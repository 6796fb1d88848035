package vmath

import (
	"bytes"
	"os"
	"testing"

	"github.com/jaxsh/jaxsh/cpu/vmath/internal/coeffgen"
)

// TestGeneratedCoefficients re-derives every coefficient and constant and
// checks coeffs_gen.go matches, so the file cannot drift from its
// generator.
func TestGeneratedCoefficients(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("the fits take about a second, many more under the race detector")
	}
	want, err := coeffgen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("coeffs_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("coeffs_gen.go is stale: run go generate in cpu/vmath")
	}
}
