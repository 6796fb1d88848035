package effects

import "slices"

// Tokens holds one user thread's runtime tokens (one per ordered effect
// kind, such as "print" or "call") and output tokens (per device), as
// sequencing-effects.txt describes: a program with ordered effects waits for
// the thread's current token of each of its kinds and becomes the next one,
// and effects_barrier waits for the output tokens.
//
// Two departures from the note:
//
//   - Programs run as goroutines, not in per-device FIFO queues (see Go).
//     The note's output token is "the last program on the device", which
//     implies all earlier ones only because "the JAX runtime does not
//     interleave computations executed on the same device. We'll have to
//     revise this entire design if that changes." We changed it, so a
//     device's output token is the set of its programs not yet seen done.
//   - A runtime token is a small set of events rather than one, because the
//     ordered work that a callback dispatches joins the thread's tokens when
//     the callback ends (see Program).
//
// A Tokens belongs to one thread and is used only on that thread's goroutine
// (its callbacks included, since they run there too); it is not safe for
// concurrent use. Ordering is promised per thread, as in the note ("Sequencing
// is only promised at a user thread level").
type Tokens struct {
	// frames is a stack: frames[0] is the thread's own level; each callback
	// running on the thread (see Context) pushes a frame for the work it
	// dispatches and pops it when it returns.
	frames []*frame
	// seq numbers dispatches in order. Everything a program waits for was
	// recorded before it, so its dependencies all have smaller numbers.
	seq uint64
	// frameIDs numbers frames in the order they start; frames[0] is 0. A
	// frame started after frame J while J is on the stack is nested in J.
	frameIDs uint64
}

// A token is a program's completion with its dispatch number and the frame
// it was dispatched in.
type token struct {
	done  *Event
	seq   uint64
	frame uint64
}

// A scope maps each ordered effect kind to the tokens the next program of
// that kind must wait for. Scopes are never modified once built (updates
// make new maps), so a program can keep the one it was dispatched under.
type scope map[string][]token

// A frame is one level of the thread's dispatching: the thread itself, or a
// callback it is running.
type frame struct {
	id      uint64
	ordered scope
	// outputs holds, per device, the programs dispatched in this frame
	// (and, for frames[0], in every frame) that were not yet done when last
	// looked at.
	outputs map[string]*outputSet
	// added holds the tokens of ordered work started in this frame, which
	// the frame's callback hands on when it returns (nil for frames[0]).
	added scope
	// blocks is the dispatch number of the program waiting for this frame's
	// callback to return (a call), 0 if none (the thread itself, a tap).
	blocks uint64
}

// An outputSet is one device's output token: events not yet seen done.
type outputSet struct {
	events  []*Event
	pruneAt int // prune finished events when len(events) reaches this
}

// NewTokens returns the tokens of a thread that has dispatched nothing.
func NewTokens() *Tokens {
	return &Tokens{frames: []*frame{newFrame(0, scope{}, 0)}}
}

func newFrame(id uint64, ordered scope, blocks uint64) *frame {
	return &frame{id: id, ordered: ordered, outputs: map[string]*outputSet{}, blocks: blocks}
}

func (t *Tokens) current() *frame { return t.frames[len(t.frames)-1] }

// Waiting reports whether a program of the ordered effect kind would wait
// for a runtime token (Deps of that kind alone is not empty), without
// building the list.
func (t *Tokens) Waiting(kind string) bool {
	for _, tok := range t.current().ordered[kind] {
		if !isDone(tok.done) {
			return true
		}
	}
	return false
}

// Deps returns the events a program with the ordered effect kinds must wait
// for before it starts: the unfinished runtime tokens of those kinds. Pass
// them (with the program's inputs) to Go, then call Record with the result
// straight away: a wait in between runs callbacks, whose work could change
// the tokens that Record then replaces.
func (t *Tokens) Deps(kinds []string) []*Event {
	var deps []*Event
	ordered := t.current().ordered
	for i, k := range kinds {
		if slices.Contains(kinds[:i], k) { // a kind named twice
			continue
		}
		for _, tok := range ordered[k] {
			if !isDone(tok.done) {
				deps = append(deps, tok.done)
			}
		}
	}
	return deps
}

// Record notes a program just dispatched on device with the ordered effect
// kinds (none for a program with only unordered effects, or none at all):
// done, its completion, becomes the runtime token of each kind and joins the
// device's output token. Every program whose effects a barrier must see
// needs recording; recording pure programs too makes effects_barrier wait
// for every computation, as SPEC §5 promises. done must not be nil.
func (t *Tokens) Record(device string, kinds []string, done *Event) {
	t.record(t.next(), device, kinds, done)
}

// next reserves the dispatch number of a program about to be recorded.
func (t *Tokens) next() uint64 {
	t.seq++
	return t.seq
}

func (t *Tokens) record(seq uint64, device string, kinds []string, done *Event) {
	f := t.current()
	if len(kinds) > 0 {
		tok := []token{{done, seq, f.id}}
		f.ordered = f.ordered.with(kinds, func(string, []token) []token { return tok })
		if f.added != nil {
			f.added = f.added.with(kinds, func(string, []token) []token { return tok })
		}
	}
	f.addOutput(device, done)
	if top := t.frames[0]; top != f {
		top.addOutput(device, done)
	}
}

func (f *frame) addOutput(device string, done *Event) {
	set := f.outputs[device]
	if set == nil {
		set = &outputSet{pruneAt: 16}
		f.outputs[device] = set
	}
	set.events = append(set.events, done)
	if len(set.events) >= set.pruneAt {
		// Amortised: pruning halves the work left before the next prune,
		// so each recorded event is looked at a bounded number of times.
		set.events = unfinished(set.events)
		set.pruneAt = max(16, 2*len(set.events))
	}
}

// Barrier blocks the thread until every program it dispatched (in the
// current frame) is done and every callback they posted has run, running
// callbacks from mb meanwhile (mb.Await), so a program waiting on a callback
// finishes. Callbacks may dispatch more work; Barrier waits for that too.
//
// Called from inside a callback, it waits for what the callback dispatched
// and for the ordered effects that precede its program, but not for the
// program itself, which may be waiting for the callback.
func (t *Tokens) Barrier(mb *Mailbox) {
	t.BarrierOr(mb, nil)
}

// BarrierOr is Barrier that also returns, reporting false, once stop is
// closed (a cancelled thread); a nil stop never closes.
func (t *Tokens) BarrierOr(mb *Mailbox, stop <-chan struct{}) bool {
	f := t.current()
	for {
		mb.Drain()
		waits := f.ordered.events()
		for _, set := range f.outputs {
			set.events = unfinished(set.events)
			waits = append(waits, set.events...)
		}
		waits = unfinished(waits)
		if len(waits) == 0 {
			if !mb.Pending() {
				return true
			}
			continue // posted since Drain: run it, it may dispatch more
		}
		for _, ev := range waits {
			if !mb.AwaitOr(ev, stop) {
				return false
			}
		}
	}
}

// enter starts the frame of a callback of a program dispatched under s,
// pushed on the thread's goroutine just before the callback runs there;
// blocks is the program's dispatch number if it waits for the callback (a
// call), else 0.
//
// The callback's own dispatches start from s, minus the tokens that might
// depend on a program blocked on a callback suspended lower on this
// goroutine's stack: such a program cannot finish until its callback
// resumes, which cannot happen before this callback returns, so waiting for
// it, directly or not, would deadlock. For a program Q blocked on the
// callback of frame J, a token may be Q or depend on Q only if it was
// dispatched no earlier than Q (dependencies point back in dispatch order)
// and outside J and the frames nested in it (which start from Q's scope,
// without Q, and are filtered the same way when they start). Everything
// else stays ordered.
func (t *Tokens) enter(s scope, blocks uint64) {
	type blocked struct{ seq, frame uint64 }
	var stack []blocked
	for _, f := range t.frames {
		if f.blocks != 0 {
			stack = append(stack, blocked{f.blocks, f.id})
		}
	}
	independent := func(tok token) bool {
		for _, b := range stack {
			if tok.seq >= b.seq && tok.frame < b.frame {
				return false
			}
		}
		return true
	}
	ordered := scope{}
	for k, toks := range s {
		var keep []token
		for _, tok := range toks {
			if independent(tok) && !isDone(tok.done) {
				keep = append(keep, tok)
			}
		}
		if len(keep) > 0 {
			ordered[k] = keep
		}
	}
	t.frameIDs++
	f := newFrame(t.frameIDs, ordered, blocks)
	f.added = scope{}
	t.frames = append(t.frames, f)
}

// exit pops the frame enter pushed and returns the tokens of the ordered
// work started in it. They join the runtime tokens of the frame below, so
// that what the thread dispatches after the callback follows what the
// callback dispatched; the caller also waits for them before its program
// goes on (for a call), so the program's later effects follow them too.
func (t *Tokens) exit() scope {
	f := t.current()
	t.frames = t.frames[:len(t.frames)-1]
	added := f.added.unfinished()
	if len(added) > 0 {
		below := t.current()
		below.ordered = below.ordered.join(added)
		if below.added != nil {
			below.added = below.added.join(added)
		}
	}
	return added
}

// scope returns the current runtime tokens, for a program being dispatched
// now to hand to its callbacks.
func (t *Tokens) scope() scope {
	return t.current().ordered
}

// with returns a copy of s where each kind in kinds maps to update(kind,
// s[kind]).
func (s scope) with(kinds []string, update func(string, []token) []token) scope {
	out := make(scope, len(s)+len(kinds))
	for k, toks := range s {
		out[k] = toks
	}
	for _, k := range kinds {
		out[k] = update(k, out[k])
	}
	return out
}

// join returns a copy of s that also waits for the tokens of more.
func (s scope) join(more scope) scope {
	kinds := make([]string, 0, len(more))
	for k := range more {
		kinds = append(kinds, k)
	}
	return s.with(kinds, func(k string, toks []token) []token {
		var joined []token
		for _, tok := range toks {
			if !isDone(tok.done) {
				joined = append(joined, tok)
			}
		}
		return append(joined, more[k]...)
	})
}

// unfinished returns s without the tokens already done, and without kinds
// left empty.
func (s scope) unfinished() scope {
	out := scope{}
	for k, toks := range s {
		var keep []token
		for _, tok := range toks {
			if !isDone(tok.done) {
				keep = append(keep, tok)
			}
		}
		if len(keep) > 0 {
			out[k] = keep
		}
	}
	return out
}

// events returns every event in s.
func (s scope) events() []*Event {
	var evs []*Event
	for _, toks := range s {
		for _, tok := range toks {
			evs = append(evs, tok.done)
		}
	}
	return evs
}

// unfinished filters evs in place, keeping the events not yet done.
func unfinished(evs []*Event) []*Event {
	keep := evs[:0]
	for _, ev := range evs {
		if !isDone(ev) {
			keep = append(keep, ev)
		}
	}
	clear(evs[len(keep):]) // let finished events be collected
	return keep
}

func isDone(ev *Event) bool {
	select {
	case <-ev.Done():
		return true
	default:
		return false
	}
}
