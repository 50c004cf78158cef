package teach

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"muehle/layers"
	"muehle/muehle"
)

// This file writes a verdict as the comment a game record keeps after the
// move (muehle.Game.RecordWithComments) and reads it back; the format is
// in docs/records.md:
//
//	[? ]BEFORE -> AFTER[; best MOVE VALUE][; note TEXT]
//
// where a value is "won in N", "lost in N", "drawn" or "unknown", "?"
// marks a move that gave up value, best is written when the played move
// does not have the best value, and note says why a value is unknown.

// Comment returns the verdict as the text of a record comment, the best
// move named on board bd (the game's), e.g. "? drawn -> lost in 12; best d7
// drawn".
func (v Verdict) Comment(bd *muehle.Board) string {
	var b strings.Builder
	if v.Mark == MarkWorse {
		b.WriteString("? ")
	}
	fmt.Fprintf(&b, "%s -> %s", valueText(v.Before), valueText(v.After))
	if v.Best != muehle.NoMove && v.Best != v.Move {
		fmt.Fprintf(&b, "; best %s %s", bd.MoveString(v.Best), valueText(v.BestValue))
	}
	if v.Err != nil {
		note := strings.Join(strings.Fields(v.Err.Error()), " ")
		fmt.Fprintf(&b, "; note %s", note)
	}
	return b.String()
}

// valueText is v.String, with "unknown" for a value the database did not give.
func valueText(v layers.Value) string {
	if v == layers.Unused {
		return "unknown"
	}
	return v.String()
}

// ParseComment reads a verdict back from the text Comment wrote for a game
// on board bd: Before,
// After, Best, BestValue, Mark and, from a note, Err. Move, Mover and Ply
// are the caller's to set from the record (VerdictsFromComments does); when
// the comment names no best move and has no note, the played move was the
// best (Comment leaves it out then): BestValue is After and Best is left
// for the caller to set to the move. A text of another form is an error.
func ParseComment(bd *muehle.Board, s string) (Verdict, error) {
	v := Verdict{Before: layers.Unused, After: layers.Unused, Best: muehle.NoMove, BestValue: layers.Unused, Mark: MarkUnknown}
	rest, note, hasNote := strings.Cut(strings.TrimSpace(s), "; note ")
	if hasNote {
		v.Err = errors.New(note)
	}
	rest, best, hasBest := strings.Cut(rest, "; best ")
	worse := false
	if r, ok := strings.CutPrefix(rest, "? "); ok {
		rest, worse = r, true
	}
	before, after, ok := strings.Cut(rest, " -> ")
	if !ok {
		return v, fmt.Errorf("teach: verdict %q: want \"BEFORE -> AFTER\"", s)
	}
	var err error
	if v.Before, err = parseValue(before); err != nil {
		return v, fmt.Errorf("teach: verdict %q: before: %w", s, err)
	}
	if v.After, err = parseValue(after); err != nil {
		return v, fmt.Errorf("teach: verdict %q: after: %w", s, err)
	}
	if hasBest {
		move, value, ok := strings.Cut(best, " ")
		if !ok {
			return v, fmt.Errorf("teach: verdict %q: want \"best MOVE VALUE\"", s)
		}
		if v.Best, err = bd.ParseMove(move); err != nil {
			return v, fmt.Errorf("teach: verdict %q: best: %w", s, err)
		}
		if v.BestValue, err = parseValue(value); err != nil {
			return v, fmt.Errorf("teach: verdict %q: best: %w", s, err)
		}
	}
	known := v.Before != layers.Unused && v.After != layers.Unused
	switch {
	case known && (v.After.Outcome() < v.Before.Outcome()) != worse:
		return v, fmt.Errorf("teach: verdict %q: the mark \"?\" must stand exactly where the value falls from %s to %s", s, v.Before, v.After)
	case worse && !known:
		return v, fmt.Errorf("teach: verdict %q: a move marked \"?\" needs both values", s)
	case known && worse:
		v.Mark = MarkWorse
	case known:
		v.Mark = MarkKept
	}
	if known && !hasBest && !hasNote {
		v.BestValue = v.After // the played move was the best: Comment leaves best out
	}
	return v, nil
}

// parseValue reads a value as Value.String writes it, or "unknown" (Unused).
func parseValue(s string) (layers.Value, error) {
	switch s {
	case "drawn":
		return layers.Drawn, nil
	case "unknown":
		return layers.Unused, nil
	}
	word, n, ok := strings.Cut(s, " in ")
	d, err := strconv.Atoi(n)
	if !ok || err != nil || d < 0 || d > layers.MaxDepth {
		return layers.Unused, fmt.Errorf("value %q, want \"won in N\", \"lost in N\", \"drawn\" or \"unknown\"", s)
	}
	switch {
	case word == "won" && d%2 == 1, word == "lost" && d%2 == 0:
		return layers.Decided(d), nil
	}
	return layers.Unused, fmt.Errorf("value %q: wins have odd depths, losses even ones", s)
}

// VerdictsFromComments reads the verdicts of a reviewed game back from the
// comments of its record (muehle.ParseRecordWithComments): one verdict a
// move, with Ply, Mover and Move from g. A move without a comment gets a
// verdict marked MarkUnknown whose Err says so; a comment that is not a
// verdict is an error naming the move.
func VerdictsFromComments(g *muehle.Game, comments []string) ([]Verdict, error) {
	moves, positions := g.History(), g.Positions()
	vs := make([]Verdict, len(moves))
	for i, m := range moves {
		text := ""
		if i < len(comments) {
			text = comments[i]
		}
		var v Verdict
		if text == "" {
			v = Verdict{Before: layers.Unused, After: layers.Unused, Best: muehle.NoMove, BestValue: layers.Unused,
				Mark: MarkUnknown, Err: errors.New("no verdict in the record")}
		} else {
			var err error
			if v, err = ParseComment(g.Rules().Board, text); err != nil {
				return nil, fmt.Errorf("move %d (%s): %w", i+1, positions[i].Board().MoveString(m), err)
			}
			if v.Best == muehle.NoMove && v.BestValue != layers.Unused {
				v.Best = m
			}
		}
		v.Ply, v.Mover, v.Move = i, positions[i].Turn, m
		vs[i] = v
	}
	return vs, nil
}

// Comments returns the record comments of verdicts vs of game g, one a
// move, for muehle.Game.RecordWithComments.
func Comments(g *muehle.Game, vs []Verdict) []string {
	cs := make([]string, len(vs))
	for i, v := range vs {
		cs[i] = v.Comment(g.Rules().Board)
	}
	return cs
}
