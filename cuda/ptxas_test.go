package cuda

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Every PTX module a test generates goes through NVIDIA's assembler when it
// is on this machine, for both GPU generations the backend targets. ptxas
// needs no GPU, so this is how kernels are checked where none is present:
// checkPTX catches what is easy to see, ptxas catches the rest (operand
// types, instruction forms, state spaces).
//
// Where ptxas is looked for, in order: $JAXSH_PTXAS, ptxas on PATH, and the
// cache that ../shared/tools/get-ptxas fills (.ci/run fetches it there).

// ptxasArchs are the GPUs every module is assembled for: Ampere, the
// target the PTX names, and Hopper, which the driver reaches by JIT.
var ptxasArchs = []string{"sm_80", "sm_90"}

var (
	ptxasOnce sync.Once
	ptxasPath string

	assembledMu sync.Mutex
	assembled   = map[[32]byte]bool{} // modules already checked, by content
	modulesSeen int
)

func findPtxas() string {
	ptxasOnce.Do(func() {
		if p := os.Getenv("JAXSH_PTXAS"); p != "" {
			ptxasPath = p
			return
		}
		if p, err := exec.LookPath("ptxas"); err == nil {
			ptxasPath = p
			return
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return
		}
		cached := filepath.Join(home, ".cache", "jaxsh-tools", "cuda", "bin", "ptxas")
		if _, err := os.Stat(cached); err == nil {
			ptxasPath = cached
		}
	})
	return ptxasPath
}

// assemble runs ptxas on one module for every target architecture and fails
// the test on any error or warning. Identical modules are assembled once.
func assemble(t *testing.T, ptx string) {
	t.Helper()
	path := findPtxas()
	if path == "" {
		return
	}
	sum := sha256.Sum256([]byte(ptx))
	assembledMu.Lock()
	done := assembled[sum]
	assembled[sum] = true
	modulesSeen++
	assembledMu.Unlock()
	if done {
		return
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(src, []byte(ptx), 0o644); err != nil {
		t.Fatal(err)
	}
	// The architectures are assembled at once: ptxas is the slow part of
	// the coverage sweep.
	msgs := make([]string, len(ptxasArchs))
	var wg sync.WaitGroup
	for i, arch := range ptxasArchs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := exec.Command(path, "--gpu-name", arch, "--warn-on-spills", "-o", filepath.Join(dir, arch+".cubin"), src).CombinedOutput()
			msg := strings.TrimSpace(string(out))
			switch {
			case err != nil:
				msgs[i] = fmt.Sprintf("ptxas --gpu-name %s rejects the module: %v\n%s", arch, err, msg)
			case msg != "":
				msgs[i] = fmt.Sprintf("ptxas --gpu-name %s warns about the module:\n%s", arch, msg)
			}
		}()
	}
	wg.Wait()
	for _, m := range msgs {
		if m != "" {
			t.Errorf("%s\n%s", m, numbered(ptx))
		}
	}
}

// numbered prefixes each line with its number, as ptxas's messages count.
func numbered(ptx string) string {
	var b strings.Builder
	for i, line := range strings.Split(ptx, "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, line)
	}
	return b.String()
}

// TestPTXAssembles checks that the assembler is really there when asked
// for (JAXSH_REQUIRE_PTXAS=1, as CI sets it once it has fetched ptxas), that
// it rejects a broken module (so a silent assembler cannot pass every
// check), and that it accepts every golden module.
func TestPTXAssembles(t *testing.T) {
	path := findPtxas()
	if path == "" {
		if os.Getenv("JAXSH_REQUIRE_PTXAS") != "" {
			t.Fatal("JAXSH_REQUIRE_PTXAS is set but ptxas was not found ($JAXSH_PTXAS, PATH, ~/.cache/jaxsh-tools/cuda/bin)")
		}
		t.Skip("ptxas not found ($JAXSH_PTXAS, PATH, ~/.cache/jaxsh-tools/cuda/bin; ../shared/tools/get-ptxas fetches it): PTX is checked structurally only")
	}
	bad := filepath.Join(t.TempDir(), "bad.ptx")
	if err := os.WriteFile(bad, []byte(ptxHeader+".visible .entry k()\n{\n\tadd.f32 %f1, %f2, 1.0;\n\tret;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(path, "--gpu-name", "sm_80", "-o", os.DevNull, bad).CombinedOutput(); err == nil {
		t.Fatalf("ptxas accepted a module with undeclared registers:\n%s", out)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.ptx"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden PTX modules found (%v)", err)
	}
	for _, f := range files {
		ptx, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { assemble(t, string(ptx)) })
	}
}
