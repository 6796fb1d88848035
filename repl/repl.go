// Package repl is jaxsh's read-eval-print loop.
//
// On a terminal it edits lines with github.com/chzyer/readline: prompts
// ">>> " and "... ", history across sessions (a multi-line block is one
// entry), Tab completion of names, module members and attributes, Ctrl-C to
// stop the running statement or clear the line, Ctrl-D to leave. A blank
// line ends a block (def, if, for, while, decorated defs), as in Python's
// REPL, unless a pasted block goes on after it (see chunkReader.bodyGoesOn).
// When stderr is a terminal, a compilation or a wait longer than a second
// shows a progress line there (see progressLine).
//
// When its input is not a terminal (a pipe or a file) it reads statements
// the same way, for scripting: no prompts are written, so that stdout holds
// only what the program prints and the echoed results; errors go to stderr
// and the session goes on, but Run then reports ErrFailed at the end of
// input, so the command exits with status 1. There, Ctrl-C stops the
// statement and the session (as it stops a script); while jaxsh waits for
// input, it ends the process as for any program.
package repl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/chzyer/readline"
	"github.com/jaxsh/jaxsh"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Config configures Run.
type Config struct {
	// Options are the interpreter's: Stdout (program output and echoed
	// results), Stderr (tracebacks, and on a terminal the prompts and the
	// line being edited, as in Python, so that `jaxsh | tee log` logs
	// results only), Globals, LogCompiles, CPUDevices, Device. argv is
	// [""], as Python's sys.argv in its REPL, unless Globals sets it.
	jaxsh.Options
	// Stdin is the input; nil means os.Stdin. The session is interactive
	// when it is a terminal.
	Stdin io.Reader
	// HistoryFile is where an interactive session keeps its history; ""
	// means DefaultHistoryFile(), os.DevNull keeps none.
	HistoryFile string
	// Version is shown in the interactive banner.
	Version string
	// OnExit runs once when the input ends (Ctrl-D, end of piped input) or
	// piped input is interrupted: the place for the implicit effects
	// barrier, so that nothing a computation prints is lost. Its error is
	// reported as a statement's would be.
	OnExit func() error
}

// ErrFailed is Run's result when piped input had a statement that failed or
// was interrupted, or when OnExit failed; the errors were already written to
// Stderr. An interactive session's errors do not make it fail.
var ErrFailed = errors.New("a statement failed")

// Run runs the REPL until its input ends. Its other errors are those of
// setting up the devices (see jaxsh.Options.SetUpDevices) or the terminal.
func Run(cfg Config) error {
	if cfg.Stdin == nil {
		cfg.Stdin = os.Stdin
	}
	if cfg.Stdout == nil {
		cfg.Stdout = os.Stdout
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	globals := starlark.StringDict{
		"argv": starlark.NewList([]starlark.Value{starlark.String("")}),
		"exit": exitValue("exit"),
		"quit": exitValue("quit"),
	}
	maps.Copy(globals, cfg.Globals)
	terminalStderr := cfg.Stderr
	var progress *progressLine
	if isTerminal(cfg.Stderr) {
		// Long compilations and waits show on a progress line; the
		// statements' output erases it while it is written.
		progress = &progressLine{term: cfg.Stderr}
		cfg.Stdout, cfg.Stderr = progress.writer(cfg.Stdout), progress.writer(cfg.Stderr)
	}
	session, err := cfg.Options.NewSession(globals)
	if err != nil {
		return err
	}
	if progress != nil {
		session.SetProgress(progress)
	}
	l := &loop{stderr: cfg.Stderr, repl: session.NewREPL(), progress: progress}

	stopInterrupts := func() {}
	if tty, ok := cfg.Stdin.(*os.File); ok && readline.IsTerminal(int(tty.Fd())) {
		src, err := newTerminalSource(tty, terminalStderr, historyFile(cfg), completer{l.repl, &l.execMu})
		if err != nil {
			return err
		}
		defer src.close()
		l.terminal, l.reader.src = src, src
		banner(cfg, session)
		// At the prompt the terminal is in raw mode and Ctrl-C is a key;
		// while a statement runs it is the terminal's SIGINT.
		stopInterrupts = forwardInterrupts(l.repl)
	} else {
		l.reader.src = pipedSource{bufio.NewReader(cfg.Stdin)}
	}

	failed := l.run()
	stopInterrupts() // Ctrl-C while OnExit waits has its default effect: it ends the process
	if l.terminal != nil {
		failed = false // errors at a prompt were seen and dealt with: status 0, as Python's
	}
	// The implicit barrier: output and callbacks of computations still
	// running are not lost at exit (SPEC §5). Say so when there are some:
	// a silent wait looks like a hang. Ctrl-C now ends the process (status
	// 130), abandoning them.
	if n := l.repl.Running(); n > 0 {
		fmt.Fprintf(l.stderr, "jaxsh: waiting for %d computation%s still running (Ctrl-C abandons %s)\n",
			n, map[bool]string{true: "", false: "s"}[n == 1], map[bool]string{true: "it", false: "them"}[n == 1])
	}
	if err := l.repl.Close(); err != nil {
		l.report(jstarlark.FormatError(err))
		failed = true
	}
	if cfg.OnExit != nil {
		if err := cfg.OnExit(); err != nil {
			l.report(jstarlark.FormatError(err))
			failed = true
		}
	}
	if failed {
		return ErrFailed
	}
	return nil
}

// banner writes the one line an interactive session starts with.
func banner(cfg Config, session *jstarlark.Session) {
	version := cfg.Version
	if version == "" {
		version = "(development build)"
	}
	where := "no device"
	if dev, err := session.DefaultDevice(); err == nil {
		where = "default device " + dev.String()
	}
	fmt.Fprintf(cfg.Stderr, "jaxsh %s, %s. help() for help, exit() or Ctrl-D to leave.\n", version, where)
}

// historyFile returns the history file of cfg, or "" (with a warning) when
// there can be none.
func historyFile(cfg Config) string {
	path := cfg.HistoryFile
	if path == "" {
		var err error
		if path, err = DefaultHistoryFile(); err != nil {
			fmt.Fprintf(cfg.Stderr, "jaxsh: no history: %v\n", err)
			return ""
		}
	}
	if path == os.DevNull {
		return ""
	}
	if err := prepareHistoryFile(path); err != nil {
		fmt.Fprintf(cfg.Stderr, "jaxsh: no history: %v\n", err)
		return ""
	}
	return path
}

type loop struct {
	stderr   io.Writer
	repl     *jstarlark.REPL
	reader   chunkReader
	terminal *terminalSource // nil for piped input
	execMu   sync.Mutex      // held while a statement runs (see completer)
	progress *progressLine   // nil when stderr is not a terminal
}

// run reads and runs chunks until the input ends, and reports whether any
// failed.
func (l *loop) run() (failed bool) {
	for {
		l.reader.begin()
		f, err := l.repl.Parse(l.reader.readline)
		if l.reader.interrupted {
			continue // Ctrl-C at a prompt; readline showed ^C
		}
		if l.reader.eof && (l.terminal != nil || l.reader.empty()) {
			return failed // Ctrl-D drops an unfinished chunk, as Python does
		}
		var parsed *syntax.File
		if err == nil {
			parsed = f
		}
		entry := l.reader.end(parsed)
		if l.terminal != nil {
			l.terminal.saveHistory(entry)
		}
		if err != nil {
			// Piped input goes on after the statement; the indented lines
			// that follow were its body, and would only fail again.
			l.reader.skipBody = l.terminal == nil
		} else {
			err = l.exec(f)
		}
		if errors.Is(err, errExit) {
			return failed
		}
		if err != nil {
			failed = true
			if errors.Is(err, jstarlark.ErrInterrupted) {
				if l.terminal == nil {
					l.report("KeyboardInterrupt")
					return failed
				}
				l.report("\nKeyboardInterrupt") // after the terminal's ^C
				continue
			}
			l.report(jstarlark.FormatError(err))
		}
		if l.reader.eof {
			return failed
		}
	}
}

// exec runs a chunk. For piped input, SIGINT stops it only while it runs;
// between statements it keeps its default action.
func (l *loop) exec(f *syntax.File) error {
	if l.terminal == nil {
		defer forwardInterrupts(l.repl)()
	}
	l.execMu.Lock()
	defer l.execMu.Unlock()
	if l.progress != nil {
		l.progress.startStatement()
	}
	return l.repl.Exec(f)
}

func (l *loop) report(msg string) {
	fmt.Fprintln(l.stderr, strings.TrimRight(msg, "\n"))
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && readline.IsTerminal(int(f.Fd()))
}

// forwardInterrupts turns SIGINT into r.Interrupt until the returned
// function is called.
func forwardInterrupts(r *jstarlark.REPL) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-sigs:
				r.Interrupt()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
		<-finished
	}
}
