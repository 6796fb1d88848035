package repl

import (
	"fmt"
	"io"
	"sync"
	"time"
)

const (
	// progressDelay is how long a step runs before the progress line shows
	// it: shorter steps pass unnoticed, as they should.
	progressDelay = time.Second
	// progressTick is how often the shown line's elapsed time is updated.
	progressTick = 250 * time.Millisecond
	// eraseLine returns to the start of the line and clears it.
	eraseLine = "\r\x1b[K"
)

// progressLine shows, on a terminal, what a statement is doing when a step
// of it (a compilation, a wait for a computation) takes longer than
// progressDelay: one line on stderr, "compiling f … 2.5s", updated a few
// times a second and erased when the step ends. The statement's own output
// goes through its writers (see writer), which erase the line before
// writing and draw it again after, so the two never mix.
type progressLine struct {
	term io.Writer // the terminal: stderr

	mu      sync.Mutex
	steps   []*progressStep // begun and not ended, innermost last
	shown   bool            // the line is on the terminal now
	midLine bool            // the last output did not end a line: the line must wait
	ticker  *time.Ticker
	stop    chan struct{}
}

type progressStep struct {
	what  string
	start time.Time
}

// Begin is jstarlark.Progress's.
func (p *progressLine) Begin(what string) (end func()) {
	step := &progressStep{what: what, start: time.Now()}
	p.mu.Lock()
	p.steps = append(p.steps, step)
	if p.ticker == nil {
		p.ticker, p.stop = time.NewTicker(progressTick), make(chan struct{})
		go p.tick(p.ticker, p.stop)
	}
	p.mu.Unlock()
	return func() { p.end(step) }
}

func (p *progressLine) end(step *progressStep) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, s := range p.steps {
		if s == step {
			p.steps = append(p.steps[:i], p.steps[i+1:]...)
			break
		}
	}
	if len(p.steps) > 0 {
		p.draw()
		return
	}
	p.erase()
	if p.ticker != nil {
		p.ticker.Stop()
		close(p.stop)
		p.ticker, p.stop = nil, nil
	}
}

func (p *progressLine) tick(t *time.Ticker, stop chan struct{}) {
	for {
		select {
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		case <-stop:
			return
		}
	}
}

// draw shows the innermost step that has run for progressDelay, if any.
// p.mu is held.
func (p *progressLine) draw() {
	if p.midLine {
		return
	}
	for i := len(p.steps) - 1; i >= 0; i-- {
		s := p.steps[i]
		if elapsed := time.Since(s.start); elapsed >= progressDelay {
			fmt.Fprintf(p.term, "%s%s … %.1fs", eraseLine, s.what, elapsed.Seconds())
			p.shown = true
			return
		}
	}
	p.erase()
}

// erase takes the line off the terminal. p.mu is held.
func (p *progressLine) erase() {
	if p.shown {
		io.WriteString(p.term, eraseLine)
		p.shown = false
	}
}

// startStatement tells that a statement starts on a fresh line: the
// user's Enter ended the one typed.
func (p *progressLine) startStatement() {
	p.mu.Lock()
	p.midLine = false
	p.mu.Unlock()
}

// writer returns w with the progress line erased before each write and
// drawn again after it.
func (p *progressLine) writer(w io.Writer) io.Writer { return progressWriter{p, w} }

type progressWriter struct {
	p *progressLine
	w io.Writer
}

func (pw progressWriter) Write(b []byte) (int, error) {
	p := pw.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
	n, err := pw.w.Write(b)
	if n > 0 {
		p.midLine = b[n-1] != '\n'
	}
	if len(p.steps) > 0 {
		p.draw()
	}
	return n, err
}
