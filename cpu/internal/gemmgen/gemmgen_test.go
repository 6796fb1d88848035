package gemmgen

import (
	"bytes"
	"os"
	"testing"
)

// The committed kernels are what the generator writes now: run
// `go generate ./cpu` after changing it.
func TestGeneratedFileIsCurrent(t *testing.T) {
	committed, err := os.ReadFile("../../dot_gemm_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, Generate()) {
		t.Fatal("cpu/dot_gemm_amd64.s differs from the generator's output; run go generate ./cpu")
	}
}
