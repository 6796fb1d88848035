//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// SIGINT to a script stuck in a compiled endless while_loop stops the loop
// itself, not only the wait for it: the process exits within a second.
func TestSIGINTStopsACompiledWhileLoop(t *testing.T) {
	dir := t.TempDir()
	script := writeFile(t, dir, "loop.star", `
@jit
def forever(x):
    return lax.while_loop(lambda x: True, lambda x: x * 0.5 + 1.0, x)
r = forever(jnp.ones(4))
print("started")
print(r)
`)
	cmd := exec.Command(os.Args[0], script)
	cmd.Env = append(os.Environ(), asCommandEnv+"=1")
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "started") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the script did not start; stderr %q", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // deep in the loop
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if took := time.Since(sent); took > time.Second {
			t.Errorf("exited %v after SIGINT, want under a second", took)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit: %v, want status 130", err)
		}
		if !strings.Contains(stderr.String(), "KeyboardInterrupt") {
			t.Errorf("stderr %q lacks KeyboardInterrupt", stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 10 s after SIGINT; stderr %q", stderr.String())
	}
}

// Ctrl-C while the REPL echoes the pending result of a long jitted loop
// returns to the prompt with KeyboardInterrupt, and the session goes on.
func TestREPLCtrlCDuringTheEchoOfARunningLoop(t *testing.T) {
	term := startREPL(t, t.TempDir())
	term.expect(prompt)
	term.send("slow = jit(lambda x: lax.fori_loop(0, 1 << 30, lambda i, x: x * 0.5 + 1.0, x))\r")
	term.expect(prompt)
	term.send("slow(jnp.ones(3))\r")
	interrupted := false
	for try := 0; try < 20 && !interrupted; try++ {
		time.Sleep(100 * time.Millisecond)
		term.send(ctrlC)
		interrupted = term.waitFor("KeyboardInterrupt", 250*time.Millisecond)
	}
	if !interrupted {
		t.Fatalf("Ctrl-C did not end the echo; output:\n%q", term.unmatched())
	}
	term.expect(prompt)
	term.prompted("6 * 7", "42")
	term.exit()
}

// syncBuffer is a bytes.Buffer safe for the writes of a process's output
// goroutine and the test's reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Ctrl-D with a computation still running says so and waits for it; Ctrl-C
// then abandons it and ends the process.
func TestREPLExitWithWorkRunning(t *testing.T) {
	term := startREPL(t, t.TempDir())
	term.expect(prompt)
	term.prompted("r = jit(lambda x: lax.fori_loop(0, 1 << 30, lambda i, x: x * 0.5 + 1.0, x))(jnp.ones(3))", "")
	term.send("\x04")
	term.expect("jaxsh: waiting for 1 computation still running (Ctrl-C abandons it)")
	select {
	case err := <-term.exited:
		t.Fatalf("exited (%v) without waiting", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := term.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-term.exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("exit: %v, want death by SIGINT", err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !(ws.Signaled() && ws.Signal() == syscall.SIGINT || ws.ExitStatus() == 130) {
			t.Fatalf("exit: %v, want SIGINT or status 130", err)
		}
	case <-time.After(expectTimeout):
		t.Fatal("Ctrl-C did not end the wait at exit")
	}
}
