// Package scripttest runs script tests in a session that sees every
// namespace and library builtin a jaxsh script sees: chunked scripts in
// go.starlark.net's style (Chunks), and scripts whose output must equal a
// golden file (Golden, Output). Package starlark's tests and the libraries'
// share it, so a library's scripts live beside the library.
package scripttest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/internal/chunks"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarktest"
	"go.starlark.net/syntax"
)

// NewSession is a session with every namespace and library builtin
// predeclared, as a jaxsh script sees them, plus extra.
func NewSession(w io.Writer, extra starlark.StringDict) *jstarlark.Session {
	ns, err := jaxsh.Namespaces(nil)
	if err != nil {
		panic(err)
	}
	for k, v := range jaxsh.Builtins() {
		ns[k] = v
	}
	for k, v := range extra {
		ns[k] = v
	}
	return jstarlark.NewSession(w, ns)
}

// Chunks runs each chunk of file (chunks separated by --- lines) in a
// fresh session with the assert module and extra predeclared; a `###
// "regexp"` comment marks the line where a chunk must fail.
func Chunks(t *testing.T, file string, extra starlark.StringDict) {
	t.Helper()
	assertModule, err := starlarktest.LoadAssertModule()
	if err != nil {
		t.Fatal(err)
	}
	cs, err := chunks.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		runChunk(t, file, c, assertModule, extra)
	}
}

func runChunk(t *testing.T, file string, c chunks.Chunk, assertModule, extra starlark.StringDict) {
	t.Helper()
	pre := starlark.StringDict{}
	for k, v := range extra {
		pre[k] = v
	}
	for k, v := range assertModule {
		pre[k] = v
	}
	var out bytes.Buffer
	session := NewSession(&out, pre)
	thread := session.NewThread("test")
	starlarktest.SetReporter(thread, t)
	_, err := session.ExecFile(thread, file, c.Source)
	if cerr := session.CloseThread(thread); err == nil {
		err = cerr
	}

	got := map[int]string{}
	if err != nil {
		line, msg := errorLine(file, err)
		got[line] = msg
	}
	for line, want := range c.Wants {
		msg, ok := got[line]
		switch {
		case !ok:
			t.Errorf("%s:%d: expected an error matching %q, got none (err=%v)", file, line, want, err)
		case !want.MatchString(msg):
			t.Errorf("%s:%d: error %q does not match %q", file, line, msg, want)
		}
		delete(got, line)
	}
	for line, msg := range got {
		t.Errorf("%s:%d: unexpected error: %s", file, line, msg)
	}
}

// errorLine finds the line an error belongs to: the innermost frame in the
// test file for a runtime error, the reported position otherwise.
func errorLine(file string, err error) (int, string) {
	var evalErr *starlark.EvalError
	var syntaxErr syntax.Error
	var resolveErrs resolve.ErrorList
	switch {
	case errors.As(err, &evalErr):
		for i := len(evalErr.CallStack) - 1; i >= 0; i-- {
			if pos := evalErr.CallStack[i].Pos; pos.Filename() == file {
				return int(pos.Line), evalErr.Msg
			}
		}
	case errors.As(err, &syntaxErr):
		return int(syntaxErr.Pos.Line), syntaxErr.Msg
	case errors.As(err, &resolveErrs):
		return int(resolveErrs[0].Pos.Line), resolveErrs[0].Msg
	}
	return 0, err.Error()
}

// Output runs the script file (its source src) to its end, the implicit
// barrier included, and returns what it printed followed by the error that
// ended it, if any.
func Output(t *testing.T, file string, src []byte) string {
	t.Helper()
	var out bytes.Buffer
	s := NewSession(&out, nil)
	th := s.NewThread("main")
	_, err := s.ExecFile(th, file, src)
	if cerr := s.CloseThread(th); err == nil {
		err = cerr
	}
	if err != nil {
		out.WriteString("error: " + jstarlark.FormatError(err) + "\n")
	}
	return out.String()
}

// Golden runs each script matching pattern (Output) and compares what it
// printed with the .out file beside it, which update rewrites. With
// shuffle, each runs again with the scheduler picking independent kernels
// at random (JAXSH_SHUFFLE_KERNELS), which must not change a byte: the
// order of effects comes from tokens.
func Golden(t *testing.T, pattern string, update, shuffle bool) {
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts match %s: %v", pattern, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".star")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := Output(t, file, src)
			golden := strings.TrimSuffix(file, ".star") + ".out"
			if update {
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
			if !shuffle {
				return
			}
			for _, seed := range []string{"1", "2", "3"} {
				t.Setenv("JAXSH_SHUFFLE_KERNELS", seed)
				if shuffled := Output(t, file, src); shuffled != got {
					t.Fatalf("with JAXSH_SHUFFLE_KERNELS=%s the output differs\n--- got\n%s--- want\n%s", seed, shuffled, got)
				}
			}
		})
	}
}
