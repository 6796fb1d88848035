package pyfmt

import (
	"encoding/json"
	"os"
	"testing"
)

type tableCase struct {
	Op      string            `json:"op"`
	Fmt     string            `json:"fmt"`
	Operand json.RawMessage   `json:"operand"`
	Args    []json.RawMessage `json:"args"`
	Kwargs  json.RawMessage   `json:"kwargs"`
	Want    *string           `json:"want"`
	Error   string            `json:"error"`
}

// ownMessages are the errors whose text deliberately differs from
// CPython's, which says less: CPython's text, then ours.
var ownMessages = map[string]string{
	"KeyError: 'x'": "KeyError: no keyword argument named 'x' for the format field {x}",
	"OverflowError: Python int too large to convert to C long": "OverflowError: %c arg not in range(0x110000)",
	"KeyError: '-1'": "KeyError: no keyword argument named '-1' for the format field {-1}",
}

// TestCPythonCases replays every case of testdata/cases.json, which
// gen_cases.py computed with CPython's %, str.format and format().
func TestCPythonCases(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []tableCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 500 {
		t.Fatalf("only %d cases", len(cases))
	}
	failed := 0
	for i, c := range cases {
		got, err := runCase(c)
		var gotText string
		if err != nil {
			gotText = "error " + errorText(err)
		} else {
			gotText = "text " + got
		}
		wantText := ""
		if c.Want != nil {
			wantText = "text " + *c.Want
		} else {
			want := c.Error
			if own, ok := ownMessages[want]; ok {
				want = own
			}
			wantText = "error " + want
		}
		if gotText != wantText {
			failed++
			if failed <= 60 {
				args := string(c.Operand)
				for _, a := range c.Args {
					args += " " + string(a)
				}
				t.Errorf("case %d: %s %q %s %s:\n got  %q\n want %q", i, c.Op, c.Fmt, args, c.Kwargs, gotText, wantText)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d cases failed", failed, len(cases))
	}
}

func errorText(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Kind + ": " + e.Msg
	}
	return "Go error: " + err.Error()
}

func runCase(c tableCase) (string, error) {
	var args []Value
	for _, a := range c.Args {
		v, err := decodeValue(a)
		if err != nil {
			return "", err
		}
		args = append(args, v)
	}
	switch c.Op {
	case "percent":
		v, err := decodeValue(c.Operand)
		if err != nil {
			return "", err
		}
		return Percent(c.Fmt, v)
	case "value":
		return FormatValue(args[0], c.Fmt)
	default:
		var kwargs map[string]Value
		if c.Kwargs != nil {
			d, err := decodePairs(c.Kwargs)
			if err != nil {
				return "", err
			}
			kwargs = d.vals
		}
		return Format(c.Fmt, args, kwargs)
	}
}
