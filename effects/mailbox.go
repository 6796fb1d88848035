package effects

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrClosed is the error of a job posted to a closed Mailbox, and of a job
// still waiting in a Mailbox when it is closed: its owner thread has ended,
// so nobody will ever run it.
var ErrClosed = errors.New("effects: callback not run: its thread has ended")

// A Mailbox runs jobs on the goroutine of one owner thread. Callbacks written
// in Starlark must never run concurrently with their thread's script
// (DESIGN decision 4), yet programs run on their own goroutines: a host
// operation therefore posts the callback to its thread's mailbox, and the
// owner runs it when it blocks (Await, a barrier, the end of the script) or
// when it checks Pending at a builtin call.
//
// Post and Call may be used from any goroutine; Drain and Await only from
// the owner. Jobs run one at a time in post order (a job that blocks in
// Await runs later jobs inside it, still on the owner goroutine, so jobs are
// never concurrent but may nest).
type Mailbox struct {
	mu      sync.Mutex
	queue   []mailboxJob // pending jobs; queue[head:] are not yet taken
	head    int
	closed  bool
	pending atomic.Int64  // len(queue) - head, readable without the lock
	wake    chan struct{} // capacity 1: "something was posted since you last looked"
}

type mailboxJob struct {
	run  func() error
	done *Event
}

// NewMailbox returns an open, empty mailbox.
func NewMailbox() *Mailbox {
	return &Mailbox{wake: make(chan struct{}, 1)}
}

// Post queues job to run on the owner goroutine and returns the event of its
// completion: the job's error, a *PanicError if it panicked, or ErrClosed if
// the mailbox is closed before the job runs. Post never blocks on the owner
// and may be called from any goroutine, including from a job.
func (m *Mailbox) Post(job func() error) *Event {
	done := NewEvent()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		done.Set(ErrClosed)
		return done
	}
	m.queue = append(m.queue, mailboxJob{run: job, done: done})
	m.pending.Add(1)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default: // a wake-up is already waiting; the owner will see this job too
	}
	return done
}

// Call posts job and waits for it to run, returning its error. It is for
// goroutines other than the owner (a program's host operation waiting for
// its callback's result); the owner itself would wait forever, because
// waiting is when it runs jobs — the owner calls a job directly instead.
func (m *Mailbox) Call(job func() error) error {
	return m.Post(job).Wait()
}

// Pending reports whether jobs are waiting. It is one atomic load, cheap
// enough to check at every builtin call before calling Drain.
func (m *Mailbox) Pending() bool {
	return m.pending.Load() > 0
}

// Drain runs every pending job on the calling goroutine, which must be the
// owner, in post order, including jobs posted while it drains; it returns
// when none is left. Jobs' errors go to their events, not to Drain's caller.
func (m *Mailbox) Drain() {
	for m.Pending() {
		job, ok := m.take()
		if !ok {
			return
		}
		complete(job.done, job.run)
	}
}

// take removes the oldest pending job.
func (m *Mailbox) take() (mailboxJob, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.head == len(m.queue) {
		return mailboxJob{}, false
	}
	job := m.queue[m.head]
	m.queue[m.head] = mailboxJob{} // let the job's closure be collected
	m.head++
	if m.head == len(m.queue) { // empty: reuse the array from the start
		m.queue, m.head = m.queue[:0], 0
	}
	m.pending.Add(-1)
	return job, true
}

// Await blocks the owner until ev is done, running jobs as they arrive, and
// returns ev's error. This is how a program's `call` gets its callback run:
// the owner waits on a result of the program, the program posts the
// callback and waits for it, and the owner runs it from inside Await. Jobs
// pending on entry run first, even if ev is already done. A nil ev is done.
func (m *Mailbox) Await(ev *Event) error {
	if ev == nil {
		m.Drain()
		return nil
	}
	for {
		m.Drain()
		select {
		case <-ev.Done():
			return ev.Err()
		case <-m.wake:
			// A post since the last Drain, or a wake-up left by a post
			// whose job an earlier Drain already ran: drain again.
		}
	}
}

// AwaitOr is Await that also returns, reporting false, once stop is closed
// (an interrupted wait: the event may still be pending). A nil stop never
// closes.
func (m *Mailbox) AwaitOr(ev *Event, stop <-chan struct{}) bool {
	for {
		m.Drain()
		select {
		case <-ev.Done():
			return true
		case <-stop:
			return false
		case <-m.wake:
		}
	}
}

// Close ends the mailbox: jobs still pending fail with ErrClosed, and later
// posts fail at once with ErrClosed, so a program whose thread has ended
// gets an error instead of waiting forever for a callback. A job already
// running finishes. Close may be called from any goroutine, more than once.
// To run everything first, Drain (or use Context.Close, which waits for the
// thread's programs) before closing.
func (m *Mailbox) Close() {
	m.mu.Lock()
	m.closed = true
	dropped := m.queue[m.head:]
	m.queue, m.head = nil, 0
	m.pending.Store(0)
	m.mu.Unlock()
	for _, job := range dropped {
		job.done.Set(ErrClosed)
	}
}
