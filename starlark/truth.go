package starlark

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"

	"go.starlark.net/starlark"
)

// Starlark's Value.Truth cannot fail, yet `if x:` on a large array (or,
// later, a traced value) must be an error at the line of the `if`. So Truth
// finds the thread running on its goroutine, records an error carrying that
// thread's call stack, and cancels the thread; the entry point that ran the
// thread (runThread) turns the cancellation back into that error. (DESIGN
// decision 2.) Threads are found by goroutine: every entry point that runs
// Starlark code registers its thread for the goroutine while it runs.

var runningThreads sync.Map // goroutine id (uint64) -> *starlark.Thread

const truthErrorKey = "jaxsh.threadError"

// goroutineID parses the current goroutine's id from its stack header. It is
// only called on entry to a thread and on the error path of Truth.
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// runThread runs fn with thread registered as the goroutine's running
// thread, and converts a cancellation caused by failTruth into its error.
func runThread[T any](thread *starlark.Thread, fn func() (T, error)) (T, error) {
	st := stateOf(thread)
	if st.running.Load() > 0 {
		// Already running, hence registered on this goroutine (a thread
		// runs on one goroutine at a time): a nested entry (a trace, a
		// callback) need not look its goroutine up again, which costs a
		// stack trace.
		v, err := fn()
		return v, threadError(thread, err)
	}
	id := goroutineID()
	prev, hadPrev := runningThreads.Load(id)
	runningThreads.Store(id, thread)
	st.running.Add(1)
	defer func() {
		st.running.Add(-1)
		if hadPrev {
			runningThreads.Store(id, prev)
		} else {
			runningThreads.Delete(id)
		}
	}()
	v, err := fn()
	return v, threadError(thread, err)
}

// threadError turns the cancellation failThread caused into the error it
// recorded; other errors pass through.
func threadError(thread *starlark.Thread, err error) error {
	if err != nil {
		if te, ok := thread.Local(truthErrorKey).(*starlark.EvalError); ok && te != nil {
			thread.SetLocal(truthErrorKey, nil)
			thread.Uncancel()
			return te
		}
	}
	return err
}

// failTruth records msg as the error of the thread running on this
// goroutine, at its current position, and cancels that thread. It returns
// False, which the cancelled thread never acts upon.
func failTruth(msg string) starlark.Bool {
	failThread(msg)
	return starlark.False
}

// failThread reports an error from a Starlark interface method that cannot
// return one (Truth, Index, Slice): it records msg with the running
// thread's stack and cancels the thread.
func failThread(msg string) {
	th, ok := runningThreads.Load(goroutineID())
	if !ok {
		return
	}
	thread := th.(*starlark.Thread)
	if thread.Local(truthErrorKey) == nil {
		thread.SetLocal(truthErrorKey, &starlark.EvalError{Msg: msg, CallStack: thread.CallStack()})
	}
	thread.Cancel(msg)
}

// FailThread is failThread for library values whose Starlark interface
// methods cannot return an error either (jnp.mgrid's Slice).
func FailThread(err error) { failThread(err.Error()) }
