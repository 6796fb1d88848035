package starlark_test

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
	session := newSession(&bytes.Buffer{}, nil)
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

func TestDumpIRPassesAndKernels(t *testing.T) {
	t.Setenv("JAXSH_DUMP", "ir,passes,kernels")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); done <- b }()
	session := newSession(&bytes.Buffer{}, nil)
	_, runErr := session.ExecFile(session.NewThread("t"), "d.star", "f = jit(lambda x: jnp.sin(x) * 2)\nf(jnp.ones(3))\n")
	os.Stderr = saved
	w.Close()
	out := string(<-done)
	if runErr != nil {
		t.Fatal(runErr)
	}
	for _, want := range []string{
		"=== jaxpr of lambda for (float32[3])\n{ lambda ; a:f32[3]. let b:f32[3] = sin a; c:f32[3] = mul b 2.0:f32[] in (c,) }\n",
		"kernel 0: loop f32[3]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dump lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "===") < 3 {
		t.Errorf("want the jaxpr and the IR after several passes:\n%s", out)
	}
}
