package repl

import (
	"bytes"
	"io"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// pasteGrace is how long after a blank line the REPL waits for more input
// before taking the blank line as typed: a terminal delivers a paste as one
// burst, far faster than this, and a person pauses far longer.
const pasteGrace = 30 * time.Millisecond

const ctrlD = 0x04

// pasteInput is the terminal's input as readline reads it, one line at a
// time: each Read returns at most up to the end of a line (Enter). What
// follows stays here rather than in readline's buffer, so that the REPL can
// see whether more input is already there when a line has been read (see
// inputArriving). readline calls Read from one goroutine only.
type pasteInput struct {
	in io.ReadCloser // the terminal, through readline.CancelableStdin
	fd int           // the terminal's file descriptor, to poll it

	mu      sync.Mutex
	pending []byte // read from in, not yet given to readline
}

func (p *pasteInput) Read(b []byte) (int, error) {
	p.mu.Lock()
	empty := len(p.pending) == 0
	p.mu.Unlock()
	if empty {
		if err := p.readMore(); err != nil {
			return 0, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line := p.pending
	if end := bytes.IndexAny(line, "\r\n"); end >= 0 {
		line = line[:end+1]
	}
	n := copy(b, line)
	p.pending = p.pending[n:]
	return n, nil
}

// readMore reads what the terminal has into pending.
func (p *pasteInput) readMore() error {
	chunk := make([]byte, 4096)
	n, err := p.in.Read(chunk)
	if n == 0 && err == nil {
		// An end of file from the terminal: Ctrl-D typed while it was not
		// in raw mode (a moment before a prompt, or while a statement
		// ran). It is the Ctrl-D key all the same.
		chunk[0], n = ctrlD, 1
	}
	if n == 0 {
		return err
	}
	// A Ctrl-D typed in canonical mode and read after the switch to raw
	// mode arrives as a NUL byte, which readline would take for the end
	// of its input and then stop reading: it is the Ctrl-D key too.
	for i, c := range chunk[:n] {
		if c == 0 {
			chunk[i] = ctrlD
		}
	}
	p.mu.Lock()
	p.pending = append(p.pending, chunk[:n]...)
	p.mu.Unlock()
	return nil
}

// pastedLineWaiting reports whether the input waiting to be read, or
// arriving within wait, starts with a whole line of plain text (no editing
// or control keys): a pasted line, which brings its own indentation.
func (p *pasteInput) pastedLineWaiting(wait time.Duration) bool {
	for {
		p.mu.Lock()
		plain, whole := plainLine(p.pending)
		p.mu.Unlock()
		if !plain {
			return false
		}
		if whole {
			return true
		}
		if !p.readable(wait) || p.readMore() != nil {
			return false
		}
	}
}

// plainLine reports whether b starts with plain text, and whether that
// text is a whole line (it ends with Enter).
func plainLine(b []byte) (plain, whole bool) {
	for _, c := range b {
		switch {
		case c == '\r' || c == '\n':
			return true, true
		case c < ' ' && c != '\t' || c == 0x7f:
			return false, false
		}
	}
	return true, false
}

// readable reports whether the terminal has input, or has some within wait.
func (p *pasteInput) readable(wait time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	deadline := time.Now().Add(wait)
	for {
		n, err := unix.Poll(fds, int(time.Until(deadline).Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
	}
}

func (p *pasteInput) Close() error { return p.in.Close() }
