package effects

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// goroutineID returns the calling goroutine's number, read from the first
// line of its stack ("goroutine 7 [running]:"). Tests use it to check which
// goroutine ran a job; nothing outside tests needs goroutine identity.
func goroutineID() uint64 {
	var buf [64]byte
	line := buf[:runtime.Stack(buf[:], false)]
	line = bytes.TrimPrefix(line, []byte("goroutine "))
	line = line[:bytes.IndexByte(line, ' ')]
	id, err := strconv.ParseUint(string(line), 10, 64)
	if err != nil {
		panic("goroutineID: cannot parse " + string(buf[:]))
	}
	return id
}

// waitTimeout is how long a test waits for something that should happen at
// once before declaring a deadlock. Generous for -race on two loaded cores,
// short enough that a real hang fails the test instead of the run's timeout.
const waitTimeout = 3 * time.Second

// mustFinish fails the test if ev is not done within waitTimeout.
func mustFinish(t *testing.T, ev *Event, what string) error {
	t.Helper()
	select {
	case <-ev.Done():
		return ev.Err()
	case <-time.After(waitTimeout):
		t.Fatalf("%s: not done after %v (deadlock?)", what, waitTimeout)
		return nil
	}
}

// withinTimeout runs f on a new goroutine and fails the test if it has not
// returned within waitTimeout.
func withinTimeout(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(waitTimeout):
		t.Fatalf("%s: still running after %v (deadlock?)", what, waitTimeout)
	}
}

// awaitWithin waits for ev with mb.Await on the calling (owner) goroutine,
// so jobs run meanwhile, and returns ev's error; see onOwnerWithin for what
// happens if it deadlocks.
func awaitWithin(mb *Mailbox, ev *Event, what string) error {
	var err error
	onOwnerWithin(what, func() { err = mb.Await(ev) })
	return err
}

// onOwnerWithin runs f on the calling goroutine — the owner, so that jobs f
// runs through a Mailbox run there — and crashes the test binary with a
// clear message if f has not returned within waitTimeout. A deadlocked
// owner may be stuck in a wait nested inside a job, where nothing the test
// holds can interrupt it, and a crash beats a hang until the run's timeout.
func onOwnerWithin(what string, f func()) {
	watchdog := time.AfterFunc(waitTimeout, func() {
		panic(what + ": still blocked after " + waitTimeout.String() + " (deadlock?)")
	})
	defer watchdog.Stop()
	f()
}
