package repl

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/jaxsh/jaxsh"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
)

// scriptedSource plays back reads as a terminal would return them: each
// read is one submitted line (decoded like a recalled entry), or an error.
type scriptedSource struct {
	reads     []any // string or error
	continued []bool
}

func (s *scriptedSource) readLine(continued bool, _ string) (string, error) {
	s.continued = append(s.continued, continued)
	if len(s.reads) == 0 {
		return "", io.EOF
	}
	r := s.reads[0]
	s.reads = s.reads[1:]
	if err, ok := r.(error); ok {
		return "", err
	}
	return decodeEntry(r.(string)), nil
}

// chunks parses every chunk of src's reads and returns their history
// entries, with "!" for a chunk that failed to parse.
func chunks(t *testing.T, src *scriptedSource) []string {
	t.Helper()
	r := newTestSession(t).NewREPL()
	c := &chunkReader{src: src}
	var entries []string
	for i := 0; i < 20; i++ {
		c.begin()
		f, err := r.Parse(c.readline)
		if c.interrupted {
			entries = append(entries, "^C")
			continue
		}
		if c.eof && c.empty() {
			return entries
		}
		if err != nil {
			f = nil
		}
		entry := c.end(f)
		if err != nil {
			entry = "!" + entry
		}
		entries = append(entries, entry)
	}
	t.Fatal("no end of input")
	return nil
}

func TestChunksBecomeOneHistoryEntryEach(t *testing.T) {
	src := &scriptedSource{reads: []any{
		"x = 1",
		"def f(n):", "    # doubles", "    return n * 2", "",
		// A blank line alone: an empty entry, which is not saved.
		"",
		// A dedent ends the block; print starts the next chunk.
		"if x:", "    y = 1", "print(y)",
		// Ctrl-C at "... " drops the block.
		"for i in range(2):", "    pass", errPromptInterrupt,
		"z = (1,", "2)",
		"w = (", io.EOF,
	}}
	got := chunks(t, src)
	want := []string{
		"x = 1",
		"def f(n):⏎    # doubles⏎    return n * 2",
		"",
		"if x:⏎    y = 1",
		"print(y)",
		"^C",
		"z = (1,⏎2)",
		"!w = (",
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%q\nwant:\n%q", got, want)
	}
	// Prompts: ">>> " (false) to open a chunk, "... " (true) inside one.
	wantContinued := []bool{false, false, true, true, true, false, false, true, true, false, true, true, false, true, false, true}
	if !slices.Equal(src.continued, wantContinued) {
		t.Errorf("continued %v\nwant      %v", src.continued, wantContinued)
	}
}

func TestRecalledMultiLineEntryRunsAsItsBlock(t *testing.T) {
	// Up recalls "def f(n):⏎    return n * 2"; submitting it gives its
	// lines and the blank line that ended them, in one read.
	src := &scriptedSource{reads: []any{"def f(n):⏎    return n * 2", "f(4)"}}
	got := chunks(t, src)
	want := []string{"def f(n):⏎    return n * 2", "f(4)"}
	if !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	if len(src.continued) != 3 || slices.Contains(src.continued, true) {
		t.Errorf("the recalled block asked for more lines: continued %v", src.continued)
	}
}

func TestEntriesRoundTrip(t *testing.T) {
	lines := []string{"def f(x):\n", "    return x\r\n"}
	entry := encodeEntry(lines)
	if entry != "def f(x):⏎    return x" {
		t.Fatalf("encodeEntry = %q", entry)
	}
	if got := decodeEntry(entry); got != "def f(x):\n    return x\n\n" {
		t.Errorf("decodeEntry = %q", got)
	}
	if got := decodeEntry("x = 1"); got != "x = 1\n" {
		t.Errorf("decodeEntry of one line = %q", got)
	}
}

func TestQuoteAfter(t *testing.T) {
	tests := []struct{ before, line, after string }{
		{"", "x = 1\n", ""},
		{"", "s = '''abc\n", "'''"},
		{"'''", "# not a comment\n", "'''"},
		{"'''", "end''' + \"\"\"x\n", `"""`},
		{"", "s = \"a # b\" # c '''\n", ""},
		{"", "s = 'it\\'s' + \"\"\"\n", `"""`},
		{"", "s = 'one \\\n", "'"},
		{"'", "two' + 1\n", ""},
		{"", "s = 'unterminated\n", ""},
		{`"""`, "escaped \\\"\"\" still open\n", `"""`},
		{"", "r'''raw\n", "'''"},
	}
	for _, tt := range tests {
		if got := quoteAfter(tt.before, tt.line); got != tt.after {
			t.Errorf("quoteAfter(%q, %q) = %q, want %q", tt.before, tt.line, got, tt.after)
		}
	}
}

func TestCompleterOffersTheRestOfEachCandidate(t *testing.T) {
	r := newTestSession(t).NewREPL()
	c := &chunkReader{src: &scriptedSource{reads: []any{"x = jnp.arange(3)"}}}
	c.begin()
	f, err := r.Parse(c.readline)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Exec(f); err != nil {
		t.Fatal(err)
	}
	comp := completer{r, new(sync.Mutex)}
	tests := []struct {
		line     string
		contains []string
		length   int
	}{
		{"jnp.ar", []string{"ange", "ray"}, 2},
		{"y = x.sh", []string{"ape"}, 2},
		{"print(jnp.linalg.no", []string{"rm"}, 2},
		{"pri", []string{"nt"}, 3},
		{"    ", []string{indent}, 0}, // Tab indents a block's line
		{"", []string{indent}, 0},
	}
	for _, tt := range tests {
		got, length := comp.Do([]rune(tt.line), len([]rune(tt.line)))
		var texts []string
		for _, g := range got {
			texts = append(texts, string(g))
		}
		for _, want := range tt.contains {
			if !slices.Contains(texts, want) || length != tt.length {
				t.Errorf("Do(%q) = %q, %d; want %q among them, %d", tt.line, texts, length, want, tt.length)
			}
		}
	}
	for _, line := range []string{"1.5", "x = 2.", "f().sh", "nosuch.a"} {
		if got, _ := comp.Do([]rune(line), len([]rune(line))); len(got) != 0 {
			t.Errorf("Do(%q) = %q, want nothing", line, got)
		}
	}
	// The cursor need not be at the end of the line.
	line := []rune("jnp.ar + 1")
	if got, n := comp.Do(line, 6); len(got) < 2 || n != 2 {
		t.Errorf("Do with the cursor inside the line = %q, %d", got, n)
	}
}

func TestDefaultHistoryFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	if got, err := DefaultHistoryFile(); err != nil || got != filepath.Join(home, ".jaxsh_history") {
		t.Errorf("without XDG_STATE_HOME: %q, %v", got, err)
	}
	state := filepath.Join(home, "state")
	t.Setenv("XDG_STATE_HOME", state)
	path, err := DefaultHistoryFile()
	if err != nil || path != filepath.Join(state, "jaxsh", "history") {
		t.Fatalf("with XDG_STATE_HOME: %q, %v", path, err)
	}
	if err := prepareHistoryFile(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("history file: %v, %v", info, err)
	}
	// An existing history is kept.
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := prepareHistoryFile(path); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "x = 1\n" {
		t.Errorf("history became %q", data)
	}
}

// newTestSession is a session with every namespace, as the REPL's own.
func newTestSession(t *testing.T) *jstarlark.Session {
	t.Helper()
	ns, err := jaxsh.Namespaces(nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range jaxsh.Builtins() {
		ns[k] = v
	}
	return jstarlark.NewSession(io.Discard, ns)
}

// pastingSource is a scriptedSource whose reads arrive as one paste, except
// where a pause (a person typing) separates them.
type pastingSource struct{ scriptedSource }

type pause struct{}

func (p *pastingSource) readLine(continued bool, indent string) (string, error) {
	for len(p.reads) > 0 && p.reads[0] == (pause{}) {
		p.reads = p.reads[1:]
	}
	return p.scriptedSource.readLine(continued, indent)
}

func (p *pastingSource) inputArriving() bool {
	return len(p.reads) > 0 && p.reads[0] != (pause{})
}

func TestPastedBlankLinesInsideABlock(t *testing.T) {
	src := &pastingSource{scriptedSource{reads: []any{
		// Blank lines followed by more of the body, in the same paste.
		"def f(x):", "    y = x", "", "", "    return y", "",
		// An unindented line after the blank line starts the next chunk.
		"if True:", "    z = 1", "", "print(z)",
		// Typed: the blank line ends the block before the next line comes.
		"def g():", "    a = 1", "", pause{}, "    return a",
	}}}
	r := newTestSession(t).NewREPL()
	c := &chunkReader{src: src}
	var entries []string
	for !c.eof {
		c.begin()
		f, err := r.Parse(c.readline)
		if c.eof && c.empty() {
			break
		}
		entry := c.end(f)
		if err != nil {
			entry = "!" + entry
		}
		entries = append(entries, entry)
	}
	want := []string{"def f(x):⏎    y = x⏎⏎⏎    return y", "if True:⏎    z = 1", "print(z)", "def g():⏎    a = 1", "!    return a"}
	if !slices.Equal(entries, want) {
		t.Errorf("entries:\n%q\nwant:\n%q", entries, want)
	}
}
