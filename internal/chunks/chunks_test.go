package chunks

import "testing"

func TestSplitKeepsLineNumbersAndExpectations(t *testing.T) {
	text := "x = 1\n---\ny = 2\nz = y / 0 ### \"division by zero\"\n---\nw = 3\n"
	cs, err := Split("t.star", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 {
		t.Fatalf("got %d chunks, want 3", len(cs))
	}
	if cs[1].StartLine != 3 || cs[1].Source != "\n\ny = 2\nz = y / 0 ### \"division by zero\"\n" {
		t.Errorf("chunk 1 = %d %q", cs[1].StartLine, cs[1].Source)
	}
	re, ok := cs[1].Wants[4]
	if !ok || !re.MatchString("integer division by zero") || len(cs[1].Wants) != 1 {
		t.Errorf("chunk 1 wants = %v", cs[1].Wants)
	}
	if cs[2].StartLine != 6 || len(cs[2].Wants) != 0 {
		t.Errorf("chunk 2 = %+v", cs[2])
	}
}

func TestSplitRejectsBadExpectation(t *testing.T) {
	if _, err := Split("t.star", "x = 1 ### \"unterminated\n"); err == nil {
		t.Fatal("want an error for a malformed expectation")
	}
	if _, err := Split("t.star", "x = 1 ### \"(\"\n"); err == nil {
		t.Fatal("want an error for a bad regexp")
	}
	cs, err := Split("t.star", "######## a rule\nx = 1 ### plain words\n")
	if err != nil || len(cs[0].Wants) != 0 {
		t.Fatalf("comments containing ### are not expectations: %v %v", cs, err)
	}
}
