package main

import (
	"bytes"
	"testing"
)

func TestEmbedExample(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	want := "normalize([3 4], 10) = [6 8]\n" +
		"normalize([1 0], 10) = [10 0]\n" +
		"normalize([0 2], 10) = [0 10]\n" +
		"normalize([6 8], 10) = [6 8]\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
