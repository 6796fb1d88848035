package main

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the examples' golden output files")

func runJaxsh(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runJaxshWithInput(t, "", args...)
}

func runJaxshWithInput(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExamples runs every examples/*.star script and compares its output with
// the .out file beside it (go test ./cmd/jaxsh -update rewrites them).
//
// A script that needs command-line flags names them in a comment line of its
// header, "# jaxsh-flags: --cpu-devices 2"; it then runs as a process of its
// own, since the number of CPU devices is fixed per process.
func TestExamples(t *testing.T) {
	scripts, _ := filepath.Glob("../../examples/*.star")
	if len(scripts) == 0 {
		t.Fatal("no examples found")
	}
	for _, source := range scripts {
		t.Run(filepath.Base(source), func(t *testing.T) {
			flags, err := exampleFlags(source)
			if err != nil {
				t.Fatal(err)
			}
			// Examples may write files (pictures) beside themselves: each
			// runs from a copy in a directory of its own.
			script := filepath.Join(t.TempDir(), filepath.Base(source))
			src, err := os.ReadFile(source)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(script, src, 0o644); err != nil {
				t.Fatal(err)
			}
			var code int
			var stdout, stderr string
			if flags == nil {
				code, stdout, stderr = runJaxsh(t, script)
			} else {
				code, stdout, stderr = runJaxshProcess(t, "", "", append(flags, script)...)
			}
			checkPictures(t, filepath.Dir(script))
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			golden := strings.TrimSuffix(source, ".star") + ".out"
			if *update {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/jaxsh -update to create it)", err)
			}
			if stdout != string(want) {
				t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", golden, stdout, want)
			}
		})
	}
}

// exampleFlags returns the flags named by a "# jaxsh-flags:" line among the
// comment lines that open script, or nil.
func exampleFlags(script string) ([]string, error) {
	src, err := os.ReadFile(script)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		if rest, ok := strings.CutPrefix(line, "# jaxsh-flags:"); ok {
			return strings.Fields(rest), nil
		}
	}
	return nil, nil
}

func TestExitCodesAndMessages(t *testing.T) {
	dir := t.TempDir()
	syntaxErr := writeFile(t, dir, "syntax.star", "x = 1\ny = (2 **\n")
	runtimeErr := writeFile(t, dir, "runtime.star", "def f(x):\n    return x ** \"a\"\n\nf(1)\n")
	ok := writeFile(t, dir, "ok.star", "print(argv)\n")
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderr     string // exact, unless prefix is set
		stderrHas  []string
		prefixOnly bool
	}{
		{name: "argv", args: []string{ok, "a", "--b"}, code: 0,
			stdout: `["` + ok + `", "a", "--b"]` + "\n"},
		{name: "code", args: []string{"-c", "print(argv, 2 ** 3 ** 2)", "x"}, code: 0,
			stdout: `["-c", "x"] 512` + "\n"},
		{name: "syntax error", args: []string{syntaxErr}, code: 1,
			stderr: syntaxErr + ":3:1: got end of file, want primary expression\n"},
		{name: "runtime error", args: []string{runtimeErr}, code: 1,
			stderr: "Traceback (most recent call last):\n" +
				"  " + runtimeErr + ":4:2: in <toplevel>\n" +
				"  " + runtimeErr + ":2:14: in f\n" +
				"Error: unknown binary op: int ** string\n"},
		{name: "code runtime error", args: []string{"-c", "x = 1\nx.y"}, code: 1,
			stderr: "Traceback (most recent call last):\n  -c:2:2: in <toplevel>\nError: int has no .y field or method\n"},
		{name: "missing file", args: []string{filepath.Join(dir, "nope.star")}, code: 2,
			stderr: "jaxsh: cannot open script " + filepath.Join(dir, "nope.star") + ": no such file or directory\n"},
		{name: "unknown flag", args: []string{"--frobnicate", ok}, code: 2,
			stderrHas: []string{"jaxsh: flag provided but not defined: -frobnicate", "usage: jaxsh"}},
		{name: "version", args: []string{"--version"}, code: 0},
		{name: "help", args: []string{"--help"}, code: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runJaxsh(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if tt.stdout != "" && stdout != tt.stdout {
				t.Errorf("stdout %q, want %q", stdout, tt.stdout)
			}
			if tt.stderr != "" && stderr != tt.stderr {
				t.Errorf("stderr\n%s\nwant\n%s", stderr, tt.stderr)
			}
			for _, s := range tt.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q lacks %q", stderr, s)
				}
			}
			switch tt.name {
			case "version":
				if !strings.HasPrefix(stdout, "jaxsh "+version+" (go") {
					t.Errorf("version output %q", stdout)
				}
			case "help":
				if !strings.Contains(stdout, "usage: jaxsh") || !strings.Contains(stdout, "Examples:") {
					t.Errorf("help output %q", stdout)
				}
			}
		})
	}
}

func TestLogCompilesSaysWhyTheCacheMissed(t *testing.T) {
	code, stdout, stderr := runJaxsh(t, "--log-compiles", "-c", `
@partial(jit, static_argnums=(1,))
def f(x, n):
    return x * n
x = jnp.arange(3.0)
f(x, 2); f(x, 2); f(x, 3); f(jnp.arange(4.0), 3)
print(f(x, 2))
`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "jaxsh: compiling f for (float32[3]) on cpu:0: first call\n" +
		"jaxsh: compiling f for (float32[3]) on cpu:0: static argument 1 = 3 (was argument 1 = 2)\n" +
		"jaxsh: compiling f for (float32[4]) on cpu:0: array argument 0 changed from float32[3] to float32[4]\n"
	if stderr != want || stdout != "[0. 2. 4.]\n" {
		t.Errorf("stderr:\n%s\nwant:\n%s\nstdout %q", stderr, want, stdout)
	}
}

func TestLoadIsRelativeToTheLoadingFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "lib", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "lib", "sub"), "leaf.star", "leaf = 'leaf'\n")
	writeFile(t, filepath.Join(dir, "lib"), "mid.star", "load('sub/leaf.star', 'leaf')\nmid = leaf + '<-mid'\n")
	main := writeFile(t, dir, "main.star", "load('lib/mid.star', 'mid')\nprint(mid)\n")
	cycle := writeFile(t, dir, "cycle.star", "load('cycle.star', 'x')\n")

	code, stdout, stderr := runJaxsh(t, main)
	if code != 0 || stdout != "leaf<-mid\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runJaxsh(t, cycle)
	if code != 1 || !strings.Contains(stderr, "cycle in load graph") {
		t.Errorf("cycle: exit %d, stderr %q", code, stderr)
	}
}

// With no script and no -c, jaxsh is the REPL; from a pipe it runs the
// statements it reads, echoes results, and exits 1 if one failed.
func TestREPLFromAPipe(t *testing.T) {
	code, stdout, stderr := runJaxshWithInput(t, "x = jnp.arange(3)\nx * 2\ndef f(n):\n    return n + 1\n\nf(41)\n")
	if code != 0 || stdout != "Array([0, 2, 4], dtype=int32)\n42\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runJaxshWithInput(t, "1 / 0\nprint('on')\n", "--log-compiles")
	if code != 1 || stdout != "on\n" || !strings.Contains(stderr, "Error: floating-point division by zero") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// A print inside a jitted function prints the runtime values at every call,
// between the host's prints, on jaxsh's stdout.
func TestPrintInsideJitPrintsRuntimeValues(t *testing.T) {
	code, stdout, stderr := runJaxsh(t, "-c", `
@jit
def f(x):
    print("x:", x)
    return x * 2
print("before")
f(jnp.arange(3))
print("between")
print(f(jnp.array([1.5, 2.5])))
`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "before\nx: [0 1 2]\nbetween\nx: [1.5 2.5]\n[3. 5.]\n"
	if stdout != want || stderr != "" {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr %q", stdout, want, stderr)
	}
}

// checkPictures checks that every PNG an example wrote decodes to a
// picture of some size, and every SVG parses as XML.
func checkPictures(t *testing.T, dir string) {
	t.Helper()
	pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for _, p := range pngs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width == 0 || cfg.Height == 0 {
			t.Errorf("%s: not a picture (%v)", filepath.Base(p), err)
		}
	}
}
