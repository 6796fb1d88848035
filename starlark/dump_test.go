package starlark

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

func TestDumpSyntaxShowsTheRewrites(t *testing.T) {
	t.Setenv("JAXSH_DUMP", "ir, syntax")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	session := NewSession(&bytes.Buffer{}, nil)
	_, runErr := session.ExecFile(session.NewThread("t"), "d.star", "x = -2 ** 2 < 3\n")
	os.Stderr = saved
	w.Close()
	out, _ := io.ReadAll(r)
	if runErr != nil {
		t.Fatal(runErr)
	}
	want := "=== syntax of d.star (after the dialect's rewrites)\nx = __lt__(-__pow__(2, 2), 3)\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("dump:\n%s\nwant it to contain\n%s", out, want)
	}
}
