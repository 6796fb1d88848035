//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The REPL is driven on a pseudo-terminal opened with three ioctls through
// golang.org/x/sys/unix (posix_openpt is open("/dev/ptmx"), unlockpt is
// TIOCSPTLCK, ptsname is TIOCGPTN): a pty library would add a dependency
// for twenty lines, and DESIGN allows none beyond go.starlark.net,
// chzyer/readline and x/sys.

// expectTimeout bounds each wait for output; a healthy run takes well under a
// second in all.
const expectTimeout = 10 * time.Second

// A terminal is the test's side of a pseudo-terminal on which jaxsh runs.
type terminal struct {
	t      *testing.T
	master *os.File
	cmd    *exec.Cmd

	exited chan error // cmd.Wait's result

	mu      sync.Mutex
	out     []byte // everything jaxsh wrote
	seen    int    // out[:seen] was matched by expect
	changed chan struct{}
	closed  chan struct{} // the reader stopped: jaxsh closed the terminal
}

// openPTY returns the master side of a new pseudo-terminal and the path of
// its slave, or skips the test where there are none.
func openPTY(t *testing.T) (*os.File, string) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here (/dev/ptmx: %v)", err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		unix.Close(fd)
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		unix.Close(fd)
		t.Skipf("ptsname: %v", err)
	}
	// readline lists completions in columns of the terminal's width, and
	// offers none on a terminal of width 0.
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100}); err != nil {
		t.Fatal(err)
	}
	// Non-blocking, so that os.File reads through the poller and Close
	// stops a pending Read.
	if err := unix.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), fmt.Sprintf("/dev/pts/%d", n)
}

// startREPL runs jaxsh with no arguments on a new pseudo-terminal, as the
// session leader with that terminal as its controlling terminal, so that
// Ctrl-C typed there is SIGINT to it.
func startREPL(t *testing.T, home string) *terminal {
	master, slavePath := openPTY(t)
	slave, err := os.OpenFile(slavePath, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), asCommandEnv+"=1", "HOME="+home,
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	err = cmd.Start()
	slave.Close()
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	term := &terminal{t: t, master: master, cmd: cmd, exited: make(chan error, 1),
		changed: make(chan struct{}, 1), closed: make(chan struct{})}
	go term.read()
	go func() { term.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill() // after a failure; an error once jaxsh has exited
		master.Close()
		<-term.closed
	})
	return term
}

func (term *terminal) read() {
	defer close(term.closed)
	buf := make([]byte, 4096)
	for {
		n, err := term.master.Read(buf)
		term.mu.Lock()
		term.out = append(term.out, buf[:n]...)
		term.mu.Unlock()
		select {
		case term.changed <- struct{}{}:
		default:
		}
		if err != nil {
			return // EIO once jaxsh has exited and closed the slave
		}
	}
}

// send types keys.
func (term *terminal) send(keys string) {
	term.t.Helper()
	if _, err := term.master.Write([]byte(keys)); err != nil {
		term.t.Fatalf("typing %q: %v", keys, err)
	}
}

// expect waits until want appears in output not matched before, and marks
// the output up to its end as matched.
func (term *terminal) expect(want string) {
	term.t.Helper()
	if !term.waitFor(want, expectTimeout) {
		term.t.Fatalf("no %q in the output after %v; unmatched output:\n%q", want, expectTimeout, term.unmatched())
	}
}

// waitFor is expect without the failure: it reports whether want appeared
// within timeout.
func (term *terminal) waitFor(want string, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		term.mu.Lock()
		if i := strings.Index(string(term.out[term.seen:]), want); i >= 0 {
			term.seen += i + len(want)
			term.mu.Unlock()
			return true
		}
		term.mu.Unlock()
		select {
		case <-term.changed:
		case <-term.closed:
			// One last look: the final output arrived with the close.
			term.mu.Lock()
			found := strings.Contains(string(term.out[term.seen:]), want)
			term.mu.Unlock()
			if !found {
				return false
			}
		case <-deadline.C:
			return false
		}
	}
}

func (term *terminal) unmatched() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return string(term.out[term.seen:])
}

// exit types Ctrl-D at an empty prompt and checks that jaxsh exits with
// status 0.
func (term *terminal) exit() {
	term.t.Helper()
	term.send("\x04")
	select {
	case err := <-term.exited:
		if err != nil {
			term.t.Fatalf("jaxsh exited with %v; output:\n%q", err, term.unmatched())
		}
	case <-time.After(expectTimeout):
		term.t.Fatalf("jaxsh did not exit on Ctrl-D; output:\n%q", term.unmatched())
	}
}

// prompted runs a line and waits for want in its output and then for the
// next prompt. Keys other than text wait for a prompt, because readline
// reads them in raw mode only: while a statement runs the terminal is in
// its normal mode, where Ctrl-D would be an end of file and Tab or an arrow
// key would be echoed.
func (term *terminal) prompted(line, want string) {
	term.t.Helper()
	term.send(line + "\r")
	term.expect(want)
	term.expect(prompt)
}

const (
	prompt             = ">>> "
	continuationPrompt = "... "
	keyUp              = "\x1b[A"
	ctrlC              = "\x03"
)

func TestREPLOnATerminal(t *testing.T) {
	home := t.TempDir()
	term := startREPL(t, home)
	term.expect("jaxsh ")
	term.expect("default device cpu:0. help() for help, exit() or Ctrl-D to leave.")
	term.expect(prompt)
	term.prompted("x = jnp.arange(3); x.dtype", "dtype('int32')")

	// Tab completes a module member (two candidates: both are listed) and
	// an attribute of a value (one: it is inserted). The results show what
	// the edited lines held.
	term.send("jnp.ar\t")
	term.expect("arange")
	term.expect("array")
	term.prompted("ray([1, 2])", "Array([1, 2], dtype=int32)")
	term.prompted("x.sh\t", "(3,)")

	// A multi-line def: "... " asks for the body, already indented (the
	// user types no spaces); a blank line ends it.
	term.send("def f(n):\r")
	term.expect(continuationPrompt)
	term.send("return n * 2\r\r")
	term.prompted("f(21)", "42")

	// Two levels: after "if n:" the prompt is indented twice; Backspace
	// takes one level back out.
	term.send("def h(n):\r")
	term.expect(continuationPrompt)
	term.send("if n:\r")
	term.expect(continuationPrompt + "        ")
	term.send("return 1\r")
	// The line's own redraws also start with the indented prompt: wait
	// for its end first, so the Backspaces go to the next line.
	term.expect("return 1\r\n")
	term.expect(continuationPrompt + "        ")
	term.send("\x7f\x7f\x7f\x7freturn 2\r\r")
	term.prompted("h(0), h(5)", "(2, 1)")

	// help(obj) prints the documentation of a library function.
	term.prompted("help(jnp.sum)", "reductions")

	// Ctrl-C stops an endless loop and the prompt comes back. The loop
	// starts once the blank line is read; a Ctrl-C that comes sooner is a
	// key at the prompt, so it is typed until the interrupt shows.
	term.send("while True:\r")
	term.expect(continuationPrompt)
	term.send("pass\r\r")
	// Both lines are read (Enter echoed twice) before Ctrl-C is typed: a
	// Ctrl-C that reached the terminal between two reads would be its
	// SIGINT, which discards the input not yet read.
	term.expect("pass\r\n")
	term.expect("\r\n")
	interrupted := false
	for try := 0; try < 20 && !interrupted; try++ {
		time.Sleep(100 * time.Millisecond) // the loop starts a moment after the blank line
		term.send(ctrlC)
		interrupted = term.waitFor("KeyboardInterrupt", 250*time.Millisecond)
	}
	if !interrupted {
		t.Fatalf("Ctrl-C did not stop the loop; output:\n%q", term.unmatched())
	}
	term.expect(prompt)
	term.prompted("6 * 7", "42")

	// Ctrl-C at the prompt drops the line being typed.
	term.send("this line is dropped" + ctrlC)
	term.expect("^C")
	term.expect(prompt)
	term.send("def g(n):\r")
	term.expect(continuationPrompt)
	term.send("return n + 100\r\r")
	term.prompted("g(1)", "101")
	term.exit()

	history, err := os.ReadFile(filepath.Join(home, "state", "jaxsh", "history"))
	if err != nil {
		t.Fatal(err)
	}
	wantHistory := "x = jnp.arange(3); x.dtype\njnp.array([1, 2])\nx.shape\ndef f(n):⏎    return n * 2\nf(21)\n" +
		"def h(n):⏎    if n:⏎        return 1⏎    return 2\nh(0), h(5)\nhelp(jnp.sum)\n" +
		"while True:⏎    pass\n6 * 7\ndef g(n):⏎    return n + 100\ng(1)\n"
	if string(history) != wantHistory {
		t.Errorf("history file:\n%s\nwant:\n%s", history, wantHistory)
	}

	// A second session recalls the first one's entries: Up gives the last
	// one, Up again the def before it, as one entry, which runs as a block.
	term = startREPL(t, home)
	term.expect(prompt)
	term.send(keyUp)
	term.expect("g(1)")
	term.send(keyUp)
	term.expect("def g(n):⏎    return n + 100")
	term.send("\r")
	term.prompted("g(2)", "102")

	// exit() leaves, with status 0, as Ctrl-D does.
	term.send("exit()\r")
	select {
	case err := <-term.exited:
		if err != nil {
			t.Fatalf("exit(): jaxsh exited with %v", err)
		}
	case <-time.After(expectTimeout):
		t.Fatalf("jaxsh did not exit on exit(); output:\n%q", term.unmatched())
	}
}

// In piped input Ctrl-C (SIGINT) stops the running statement and the
// session, with status 1, as it stops a script.
func TestPipedREPLInterrupt(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), asCommandEnv+"=1")
	cmd.Stdin = strings.NewReader("def spin():\n    print(\"spinning\")\n    while True:\n        pass\n\nspin()\nprint(\"not reached\")\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	// "spinning" comes from inside the running statement, so the REPL is
	// already watching for SIGINT when it arrives.
	if !lines.Scan() || lines.Text() != "spinning" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("first line %q, stderr %q", lines.Text(), stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	if len(rest) != 0 || stderr.String() != "KeyboardInterrupt\n" {
		t.Errorf("after the interrupt: stdout %q, stderr %q", rest, stderr.String())
	}
}

// A pasted block runs as Python's REPL runs it: a blank line followed, in
// the same paste, by an indented line does not end the definition; an
// unindented line after it, or right after the body, starts the next
// statement once the whole definition has run. A blank line typed by hand
// ends the block at once. Ctrl-D at the prompt leaves on a new line.
func TestREPLPaste(t *testing.T) {
	term := startREPL(t, t.TempDir())
	term.expect(prompt)
	term.send("def f(x):\r    y = x + 1\r\r\r    # a comment\r    return y * 100\r\rprint(f(3))\r" +
		"def h():\r    return 3 * 3\rprint(h())\r")
	term.expect("\r\n400\r\n")
	term.expect("\r\n9\r\n")
	term.expect(prompt)

	// By hand: the blank line after the body ends the block at once, with
	// no more keys typed.
	term.send("def k():\r")
	term.expect(continuationPrompt)
	term.send("return 5\r")
	term.expect(continuationPrompt)
	term.send("\r")
	term.expect(prompt)
	term.prompted("k() + f(0)", "105")

	term.send("\x04")
	select {
	case err := <-term.exited:
		if err != nil {
			t.Fatalf("jaxsh exited with %v", err)
		}
	case <-time.After(expectTimeout):
		t.Fatalf("jaxsh did not exit on Ctrl-D; output:\n%q", term.unmatched())
	}
	<-term.closed
	if rest := term.unmatched(); !strings.Contains(rest, "\n") {
		t.Errorf("after Ctrl-D the output is %q, with no newline", rest)
	}
}

// slowToCompile is a function whose compilation (tracing 16,000 unrolled
// steps) takes several seconds here, well past the progress line's second.
const slowToCompile = "def slow(x):\n    for i in range(16000):\n        x = jnp.sin(x) @ jnp.ones((3, 3)) + i\n    return x\n\n"

// A compilation longer than a second shows "compiling slow … 1.2s" on the
// terminal, redrawn as time passes, and erased (carriage return, clear to
// the end of the line) before the statement's output is written.
func TestREPLProgressLine(t *testing.T) {
	term := startREPL(t, t.TempDir())
	term.expect(prompt)
	term.send(strings.ReplaceAll(slowToCompile, "\n", "\r")) // pasted
	term.prompted("slow", "<function slow")
	term.send("print(jit(slow)(jnp.ones(3)))\r")
	term.expect("compiling slow … 1.")
	if !term.waitFor("[15996.719 15996.719 15996.719]", time.Minute) { // a busy machine compiles slowly
		t.Fatalf("no result; output:\n%q", term.unmatched())
	}
	term.expect(prompt)
	term.mu.Lock()
	out := string(term.out)
	term.mu.Unlock()
	// The last drawing of the line is erased, then the output follows.
	if !regexp.MustCompile(`compiling slow … \d+\.\ds\r\x1b\[K\[15996\.719 `).MatchString(out) {
		t.Errorf("the progress line is not erased before the output:\n%q", out)
	}
	term.exit()
}

// With stderr not a terminal, nothing of the progress line is written:
// the output is what it always was.
func TestPipedREPLHasNoProgressLine(t *testing.T) {
	code, stdout, stderr := runJaxshProcess(t, "", slowToCompile+"print(jit(slow)(jnp.ones(3)))\n")
	if code != 0 || stdout != "[15996.719 15996.719 15996.719]\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
