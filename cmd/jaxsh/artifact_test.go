package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/internal/npy"
	"go.starlark.net/starlark"
)

// exportArtifact runs a script that leaves an artifact's bytes in blob and
// writes them to a file.
func exportArtifact(t *testing.T, dir, code string) string {
	t.Helper()
	var out bytes.Buffer
	globals, err := jaxsh.New(jaxsh.Options{Stdout: &out}).RunString(context.Background(), "make", code, nil)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	path := filepath.Join(dir, "f.jaxsh-export")
	if err := os.WriteFile(path, []byte(globals["blob"].(starlark.Bytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeNPY(t *testing.T, path string, values ...float32) {
	t.Helper()
	var data []byte
	for _, v := range values {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	var b bytes.Buffer
	if err := npy.Write(&b, &npy.Array{DType: "float32", Shape: []int{len(values)}, Data: data}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runCommand(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

func TestRunAndInspectArtifact(t *testing.T) {
	dir := t.TempDir()
	art := exportArtifact(t, dir, `
def f(x, y):
    print("x + y:", x + y)
    return x * 2 + y, jnp.sum(x)
blob = export(jit(f))(jnp.arange(3.0), jnp.float32(1)).serialize()
`)
	x, y := filepath.Join(dir, "x.npy"), filepath.Join(dir, "y.npy")
	writeNPY(t, x, 1, 2, 3)
	var b bytes.Buffer
	if err := npy.Write(&b, &npy.Array{DType: "float32", Shape: []int{}, Data: binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.5))}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(y, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := runCommand(t, "run", art, x, y)
	if code != 0 || stdout != "x + y: [1.5 2.5 3.5]\n[2.5 4.5 6.5]\n6.0\n" {
		t.Errorf("jaxsh run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	out := filepath.Join(dir, "out.npz")
	if _, stderr, code := runCommand(t, "run", art, x, y, "-o", out); code != 0 {
		t.Fatalf("jaxsh run -o: exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	arrays, err := npy.ReadNPZ(f, st.Size(), 1<<20)
	if err != nil || len(arrays) != 2 || arrays[0].Name != "out_0" || arrays[1].Array.DType != "float32" ||
		math.Float32frombits(binary.LittleEndian.Uint32(arrays[1].Array.Data)) != 6 {
		t.Errorf("out.npz: %v, %+v", err, arrays)
	}
	if _, stderr, code := runCommand(t, "run", art, x, y, "-o", filepath.Join(dir, "one.npy")); code != 1 ||
		!strings.Contains(stderr, "the artifact has 2 outputs: write them to a .npz file") {
		t.Errorf("two outputs to .npy: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCommand(t, "run", art, x); code != 1 ||
		!strings.Contains(stderr, "Function 'f' was exported for arguments of structure PyTreeDef(((*, *), {})) and is called with PyTreeDef(((*,), {}))") {
		t.Errorf("one input for two: exit %d: %s", code, stderr)
	}

	stdout, stderr, code = runCommand(t, "inspect", art)
	want := `fun_name: f
in_avals: (ShapedArray(float32[3]), ShapedArray(float32[]))
out_avals: (ShapedArray(float32[3]), ShapedArray(float32[]))
in_tree: PyTreeDef(((*, *), {}))
out_tree: PyTreeDef((*, *))
platforms: ('cpu',)
ordered_effects: (Ordered(print),)
unordered_effects: ()
calling_convention_version: 9
nr_devices: 1
disabled_checks: ()
`
	if code != 0 || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "debug_print[fmt='x + y: {}\\n' ordered=True]") {
		t.Errorf("jaxsh inspect: exit %d\n%s\nstderr: %s", code, stdout, stderr)
	}

	if err := os.WriteFile(filepath.Join(dir, "bad"), []byte("JAXSHEXP\x07\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCommand(t, "inspect", filepath.Join(dir, "bad")); code != 1 ||
		!strings.Contains(stderr, "truncated artifact") {
		t.Errorf("a truncated file: exit %d: %s", code, stderr)
	}
}

func TestRunArtifactWithCallbacks(t *testing.T) {
	dir := t.TempDir()
	art := exportArtifact(t, dir, `
def tap(x, transforms):
    pass
def f(x):
    id_print(x, what = "x")
    return id_tap(tap, x) + 1
blob = export(jit(f))(jnp.arange(3.0)).serialize()
`)
	x := filepath.Join(dir, "x.npy")
	writeNPY(t, x, 1, 2, 3)
	_, stderr, code := runCommand(t, "run", art, x)
	if code != 1 || !strings.Contains(stderr, "the artifact calls host callbacks that are not bound: tap") ||
		!strings.Contains(stderr, "jaxsh run binds no host callbacks") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
