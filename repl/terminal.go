package repl

import (
	"io"
	"os"
	"strings"
	"sync"
	"unicode"

	"github.com/chzyer/readline"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
)

const (
	prompt             = ">>> "
	continuationPrompt = "... "
)

// terminalSource reads lines from a terminal through chzyer/readline: line
// editing, prompts, history (Up, Down, Ctrl-R) and Tab completion.
type terminalSource struct {
	rl    *readline.Instance
	input *pasteInput
}

var _ pasteSource = (*terminalSource)(nil)

// newTerminalSource starts line editing on the terminal tty. historyFile may
// be "" (no history); output is where prompts and the edited line go.
func newTerminalSource(tty *os.File, output io.Writer, historyFile string, complete completer) (*terminalSource, error) {
	raw := &rawMode{fd: int(tty.Fd())}
	input := &pasteInput{in: readline.NewCancelableStdin(tty), fd: int(tty.Fd())}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:      prompt,
		HistoryFile: historyFile,
		// The REPL saves a whole chunk as one entry (see entryNewline);
		// readline on its own would save every line of a block.
		DisableAutoSaveHistory: true,
		AutoComplete:           complete,
		EOFPrompt:              "\n", // Ctrl-D: just end the line, as Python does
		Stdin:                  input,
		Stdout:                 output,
		FuncIsTerminal:         func() bool { return true },
		// readline's own raw mode acts on file descriptor 0; tty may be
		// another terminal.
		FuncMakeRaw: raw.enter,
		FuncExitRaw: raw.exit,
	})
	if err != nil {
		return nil, err
	}
	return &terminalSource{rl: rl, input: input}, nil
}

func (t *terminalSource) readLine(continued bool, indent string) (string, error) {
	if continued {
		t.rl.SetPrompt(continuationPrompt)
	} else {
		t.rl.SetPrompt(prompt)
	}
	if indent != "" && t.input.pastedLineWaiting(0) {
		indent = "" // a pasted line brings its own indentation
	}
	line, err := t.rl.ReadlineWithDefault(indent)
	switch {
	case err == readline.ErrInterrupt:
		return "", errPromptInterrupt
	case err != nil:
		return "", err
	}
	return decodeEntry(line), nil
}

func (t *terminalSource) inputArriving() bool { return t.input.pastedLineWaiting(pasteGrace) }

// saveHistory adds a chunk's entry to the history and its file. An error
// writing the file is not worth interrupting the session for.
func (t *terminalSource) saveHistory(entry string) {
	if entry != "" {
		_ = t.rl.SaveHistory(entry)
	}
}

func (t *terminalSource) close() { t.rl.Close() }

// rawMode puts a terminal into raw mode while readline edits a line and
// restores it afterwards, so that Ctrl-C while a statement runs is the
// terminal's SIGINT. readline calls it from its own goroutine on Ctrl-Z.
type rawMode struct {
	fd    int
	mu    sync.Mutex
	saved *readline.State
}

func (m *rawMode) enter() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	state, err := readline.MakeRaw(m.fd)
	if err == nil {
		m.saved = state
	}
	return err
}

func (m *rawMode) exit() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.saved == nil {
		return nil
	}
	err := readline.Restore(m.fd, m.saved)
	m.saved = nil
	return err
}

// indent is what Tab inserts where nothing precedes the cursor but blanks:
// the body of a block.
const indent = "    "

// completer offers completions for the dotted name before the cursor
// (jnp.ar → arange, array; x.sh → shape), as readline's AutoCompleter.
// readline calls it on its own goroutine; mu, which the loop holds while a
// statement runs, keeps it from reading globals that a statement changes.
type completer struct {
	r  *jstarlark.REPL
	mu *sync.Mutex
}

// Do returns the candidates' remaining text after the cursor, and how many
// runes before it they share: the part after the last dot, so that the list
// shows "arange array" rather than whole chains.
func (c completer) Do(line []rune, pos int) ([][]rune, int) {
	before := line[:pos]
	if strings.TrimSpace(string(before)) == "" {
		return [][]rune{[]rune(indent)}, 0
	}
	start := pos
	for start > 0 && isChainRune(before[start-1]) {
		start--
	}
	chain := string(before[start:])
	if chain == "" || unicode.IsDigit(before[start]) {
		return nil, 0 // nothing to complete, or a number such as 1.5
	}
	partial := chain[strings.LastIndexByte(chain, '.')+1:]
	c.mu.Lock()
	candidates := complete(c.r.Globals(), chain)
	c.mu.Unlock()
	var out [][]rune
	for _, cand := range candidates {
		out = append(out, []rune(cand[len(chain):]))
	}
	return out, len([]rune(partial))
}

func isChainRune(r rune) bool {
	return r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
