package muehle

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRecordWithComments(t *testing.T) {
	g := NewGame(9)
	playAll(t, g, "d6", "d2", "a7")
	for _, tc := range []struct {
		comments []string
		want     string
		back     []string // what ParseRecordWithComments returns
	}{
		{nil, "1. d6 d2\n2. a7\n*\n", []string{"", "", ""}},
		{[]string{"drawn -> drawn", "", "? drawn -> lost in 12; best g7 drawn"},
			"1. d6 {drawn -> drawn} d2\n2. a7 {? drawn -> lost in 12; best g7 drawn}\n*\n",
			[]string{"drawn -> drawn", "", "? drawn -> lost in 12; best g7 drawn"}},
		{[]string{"", "a {brace}\nand a line"},
			"1. d6 d2 {a (brace) and a line}\n2. a7\n*\n",
			[]string{"", "a (brace) and a line", ""}},
	} {
		text := g.RecordWithComments(tc.comments)
		if text != tc.want {
			t.Errorf("RecordWithComments(%q): got %q, want %q", tc.comments, text, tc.want)
			continue
		}
		back, comments, err := ParseRecordWithComments(text)
		if err != nil {
			t.Fatalf("ParseRecordWithComments(%q): %v", text, err)
		}
		sameGame(t, back, g)
		if !slices.Equal(comments, tc.back) {
			t.Errorf("comments of %q: got %q, want %q", text, comments, tc.back)
		}
		if plain, err := ParseRecord(text); err != nil {
			t.Errorf("ParseRecord(%q): %v", text, err)
		} else {
			sameGame(t, plain, g)
		}
	}
}

func TestParseRecordCommentVariants(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"1. d6{x}d2 {y}", []string{"x", "y"}},
		{"1. d6 {one} {two} d2", []string{"one two", ""}},
		{"1. d6 {spans\n  two lines} d2\n*", []string{"spans   two lines", ""}},
		{"1. d6 d2 * {after the result}", []string{"", "after the result"}},
		{"", nil},
	} {
		_, got, err := ParseRecordWithComments(tc.text)
		if err != nil {
			t.Fatalf("ParseRecordWithComments(%q): %v", tc.text, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ParseRecordWithComments(%q): got %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestParseRecordCommentErrors(t *testing.T) {
	for _, tc := range []struct {
		text    string
		mention string
	}{
		{"{first} 1. d6", "line 1: a comment before the first move"},
		{"1. d6 d2\n2. a7 {open\n", "line 2: a comment '{' that is never closed"},
		{"1. d6 } d2", "line 1: '}' without '{'"},
	} {
		_, _, err := ParseRecordWithComments(tc.text)
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseRecordWithComments(%q): got %v, want ErrSyntax mentioning %q", tc.text, err, tc.mention)
		}
	}
}
