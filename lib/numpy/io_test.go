package numpy_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/internal/casetest"
)

// copyNumPyFiles puts the .npy and .npz files NumPy wrote
// (internal/npy/testdata/gen.py) in a fresh directory.
func copyNumPyFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src, _ := filepath.Glob("../../internal/npy/testdata/*.np[yz]")
	if len(src) == 0 {
		t.Fatal("no NumPy files found")
	}
	for _, f := range src {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every dtype jaxsh has round-trips bit for bit: loading what NumPy wrote
// and saving it again gives NumPy's very bytes.
func TestSaveLoadRoundTrip(t *testing.T) {
	dir := copyNumPyFiles(t)
	names := []string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float16", "bfloat16",
		"float32", "float64", "complex64", "complex128", "scalar", "empty"}
	var code strings.Builder
	code.WriteString("for name in " + starList(names) + ":\n")
	code.WriteString("    a = jnp.load(name + \".npy\")\n")
	code.WriteString("    print(name, a.dtype, a.shape)\n")
	code.WriteString("    jnp.save(\"rt_\" + name, a)\n") // np.save appends .npy
	out, err := casetest.RunWithFiles(t, dir, code.String())
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	for _, n := range names {
		want, _ := os.ReadFile(filepath.Join(dir, n+".npy"))
		got, err := os.ReadFile(filepath.Join(dir, "rt_"+n+".npy"))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: saved bytes differ from NumPy's", n)
		}
	}
	for _, line := range []string{"float32 float32 (2, 3, 4)", "bfloat16 bfloat16 (4,)", "scalar float32 ()", "empty int32 (0, 3)"} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
	// Fortran order and big-endian files load as the same values.
	out, err = casetest.RunWithFiles(t, dir, `
print(jnp.load("fortran.npy")[1, 2].tolist(), jnp.load("bigendian.npy").tolist(), jnp.load("v3.npy").tolist())
`)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	if want := "[20.0, 21.0, 22.0, 23.0] [[0, 1, 2], [3, 4, 5]] [0.0, 1.0, 2.0, 3.0, 4.0]\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestNPZ(t *testing.T) {
	dir := copyNumPyFiles(t)
	out, err := casetest.RunWithFiles(t, dir, `
z = jnp.load("arrays.npz")
print(list(z.keys()), z["a"].tolist(), z["b"].tolist())
c = jnp.load("compressed.npz")
print(c["x"].tolist(), c["y"].tolist())
jnp.savez("mine", z["a"], b = z["b"])
m = jnp.load("mine.npz")
print(list(m.keys()), m["arr_0"].dtype, m["b"].tolist())
jnp.savez_compressed("small.npz", x = jnp.arange(4.0))
print(jnp.load("small.npz")["x"].tolist())
`)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	want := `["a", "b"] [0, 1, 2] [[1.0, 0.0], [0.0, 1.0]]
[0.0, 0.25, 0.5, 0.75, 1.0] [True, False]
["arr_0", "b"] int32 [[1.0, 0.0], [0.0, 1.0]]
[0.0, 1.0, 2.0, 3.0]
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// The expected texts were written by NumPy 1.24's savetxt.
func TestText(t *testing.T) {
	dir := t.TempDir()
	_, err := casetest.RunWithFiles(t, dir, `
jnp.savetxt("a.txt", jnp.array([[1.0, 2.5], [3.0, 0.1]], dtype = jnp.float32))
jnp.savetxt("b.csv", jnp.arange(6).reshape(2, 3), fmt = "%d", delimiter = ",", header = "a,b,c")
jnp.savetxt("c.txt", jnp.array([1.5, -2.0]), fmt = "%.2f", footer = "end\nof file")
jnp.savetxt("d.txt", jnp.array([[1, 2], [3, 4]]), fmt = ["%d", "%5.1f"])
`)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	for name, want := range map[string]string{
		"a.txt": "1.000000000000000000e+00 2.500000000000000000e+00\n3.000000000000000000e+00 1.000000014901161194e-01\n",
		"b.csv": "# a,b,c\n0,1,2\n3,4,5\n",
		"c.txt": "1.50\n-2.00\n# end\n# of file\n",
		"d.txt": "1   2.0\n3   4.0\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s: got %q (%v), want %q", name, got, err, want)
		}
	}
	os.WriteFile(filepath.Join(dir, "e.txt"), []byte("# c\n1 2 3\n4 5 6\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "col.txt"), []byte("1\n2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "one.txt"), []byte("7\n"), 0o644)
	out, err := casetest.RunWithFiles(t, dir, `
print(jnp.loadtxt("b.csv", delimiter = ",", dtype = jnp.int32).tolist())
print(jnp.loadtxt("e.txt", usecols = (0, 2)).tolist())
print(jnp.loadtxt("col.txt").shape, jnp.loadtxt("one.txt").shape, jnp.loadtxt("one.txt", ndmin = 2).shape, jnp.loadtxt("col.txt", ndmin = 2).shape)
x, y = jnp.loadtxt("a.txt", unpack = True)
print(x.tolist(), y.dtype)
`)
	if err != nil {
		t.Fatal(jaxsh.FormatError(err))
	}
	want := "[[0, 1, 2], [3, 4, 5]]\n[[1.0, 3.0], [4.0, 6.0]]\n(2,) () (1, 1) (2, 1)\n[1.0, 3.0] float32\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Files outside the allowed tree, and malformed input, are errors.
func TestFileErrors(t *testing.T) {
	dir := copyNumPyFiles(t)
	os.WriteFile(filepath.Join(dir, "ragged.txt"), []byte("1 2\n3\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.npy")
	os.WriteFile(outside, []byte("not for scripts"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "link.npy")); err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]string{
		`jnp.load("/etc/passwd")`:                               "absolute paths are not allowed",
		`jnp.load("../x.npy")`:                                  "leaves the directory",
		`jnp.save("/tmp/x.npy", jnp.ones(2))`:                   "absolute paths are not allowed",
		`jnp.load("uint64.npy")`:                                "uint64",
		`jnp.load("missing.npy")`:                               "missing.npy",
		`jnp.load("link.npy")`:                                  "leaves the directory",
		`jnp.save("link.npy", jnp.ones(2))`:                     "leaves the directory",
		`jnp.loadtxt("ragged.txt")`:                             "line 2: 1 values, but the rows before have 2",
		`jnp.savetxt("x.txt", jnp.ones((2, 2, 2)))`:             "1-D or 2-D",
		`jnp.savetxt("x.txt", jnp.ones((2, 3)), fmt = "%d %d")`: "wrong number of % formats",
	} {
		_, err := casetest.RunWithFiles(t, dir, code)
		if err == nil || !strings.Contains(jaxsh.FormatError(err), want) {
			t.Errorf("%s: got %v, want an error containing %q", code, err, want)
		}
	}
}

func starList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return "[" + strings.Join(q, ", ") + "]"
}
