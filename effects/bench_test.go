package effects

import "testing"

// The cost of dispatching an empty program through a Context, and what the
// runtime tokens of ordered effect kinds add to it: the program then waits
// for the previous program of its kinds and becomes the next token.
func benchDispatch(b *testing.B, kinds []string) {
	ctx := NewContext()
	work := func(*Program) error { return nil }
	b.ResetTimer()
	var last *Event
	for i := 0; i < b.N; i++ {
		last = ctx.Dispatch("cpu:0", kinds, nil, work)
		if i%64 == 63 {
			ctx.Mailbox.Await(last) // keep the backlog bounded, as a reader would
		}
	}
	if err := ctx.Barrier(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkDispatchNoTokens(b *testing.B) { benchDispatch(b, nil) }
func BenchmarkDispatchQueueToken(b *testing.B) {
	benchDispatch(b, []string{"queue cpu:0"})
}
func BenchmarkDispatchQueueAndPrintTokens(b *testing.B) {
	benchDispatch(b, []string{"queue cpu:0", "print"})
}

// A tap's round trip through the mailbox: posted by a program, run by the
// owner thread when it drains.
func BenchmarkTapThroughMailbox(b *testing.B) {
	ctx := NewContext()
	n := 0
	b.ResetTimer()
	ev := ctx.Dispatch("cpu:0", nil, nil, func(p *Program) error {
		for i := 0; i < b.N; i++ {
			p.Tap(func() error { n++; return nil })
		}
		return nil
	})
	ctx.Mailbox.Await(ev)
	if err := ctx.Barrier(); err != nil || n != b.N {
		b.Fatal(err, n)
	}
}
