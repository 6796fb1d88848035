package repl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// DefaultHistoryFile is where the REPL keeps its history:
// $XDG_STATE_HOME/jaxsh/history when XDG_STATE_HOME is set (the XDG base
// directory for state such as history), else ~/.jaxsh_history, next to
// Python's ~/.python_history.
func DefaultHistoryFile() (string, error) {
	if dir := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "jaxsh", "history"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".jaxsh_history"), nil
}

// prepareHistoryFile makes path's directory and, if path is new, creates it
// readable by the user alone (a history can hold secrets); chzyer/readline
// would create it world-readable.
func prepareHistoryFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// entryNewline joins the lines of a multi-line chunk into one history entry.
// chzyer/readline keeps one entry per line of its file and edits one line of
// text, so a def recalled with Up shows as `def f(x):⏎    return x` and runs
// as the block it was when submitted. A line typed with a literal ⏎ in it
// is recalled as several lines: a rare character, a documented limit.
const entryNewline = "⏎"

// encodeEntry returns the history entry of a chunk's lines, each ending in
// "\n".
func encodeEntry(lines []string) string {
	trimmed := make([]string, len(lines))
	for i, line := range lines {
		trimmed[i] = strings.TrimRight(line, "\r\n")
	}
	return strings.Join(trimmed, entryNewline)
}

// decodeEntry turns a line submitted at the prompt back into input lines: a
// recalled multi-line entry becomes its lines plus a blank line, which ends
// its block as it ended when first typed.
func decodeEntry(line string) string {
	if !strings.Contains(line, entryNewline) {
		return line + "\n"
	}
	return strings.ReplaceAll(line, entryNewline, "\n") + "\n\n"
}
