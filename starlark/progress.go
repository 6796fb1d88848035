package starlark

import "go.starlark.net/starlark"

// A Progress hears about the steps of a statement that may take long:
// compiling a jitted function (tracing included) and waiting for a
// computation's results. An interactive front end shows them (the REPL's
// progress line); this package knows nothing of terminals.
type Progress interface {
	// Begin reports that the step what ("compiling f", "running f") has
	// started; the function it returns reports that it ended. Steps may
	// nest, and waits may begin on goroutines other than the thread's (a
	// Go caller reading a result).
	Begin(what string) (end func())
}

// SetProgress makes the session's threads report their long steps to p.
// Call it before NewThread.
func (s *Session) SetProgress(p Progress) { s.progress = p }

const progressKey = "jaxsh.progress"

// beginStep reports the start of a step of th to its Progress, if it has
// one, and returns the call that reports its end.
func beginStep(th *starlark.Thread, what string) (end func()) {
	if p, ok := th.Local(progressKey).(Progress); ok {
		return p.Begin(what)
	}
	return func() {}
}
