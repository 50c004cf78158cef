package ui

import (
	"context"
	"fmt"
	"strings"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/teach"
	"muehle/ui/game"
)

// This file holds the game review in the window: Analysis ▸ Review Game asks
// the database for its verdict on every move (in the background), the move
// list then marks the moves that gave up value with "?" and the best move
// beside them, Save Game keeps the verdicts as comments in the record, and
// Open Game reads them back. On the board, a move that gave up value has
// the best move beside it as an arrow (bestShown), and the side panel says
// what it gave up and how the opponent wins (refutationText), with a
// button that opens the refutation on the board to step through
// (walkRefutation, walk.go).

// reviewer is what the review needs from the engines: the database's
// verdicts on the moves of a game and the refutations of the moves that
// gave up value. DBEngines implements it.
type reviewer interface {
	Review(ctx context.Context, g *muehle.Game) ([]teach.Verdict, [][]teach.Step, error)
	Refutations(g *muehle.Game, vs []teach.Verdict) [][]teach.Step
}

// refutationMax bounds the refutation lines the window shows.
const refutationMax = 40

// Review returns the verdict of g's database (its game and stones) on
// every move of g (teach.Review)
// and, for each move that gave up value, its refutation (teach.Refutation;
// nil for the other moves, and where a layer along the line is missing).
func (e *DBEngines) Review(ctx context.Context, g *muehle.Game) ([]teach.Verdict, [][]teach.Step, error) {
	db, err := e.databaseOf(game.VariantOf(g))
	if err != nil {
		return nil, nil, err
	}
	vs, err := teach.Review(ctx, db, g)
	if err != nil {
		return nil, nil, err
	}
	return vs, e.Refutations(g, vs), nil
}

// Refutations returns the refutation of each move of g that gave up value
// by its verdict in vs (teach.Refutation); nil for the other moves, where a
// layer along the line is missing, and without a database.
func (e *DBEngines) Refutations(g *muehle.Game, vs []teach.Verdict) [][]teach.Step {
	db, err := e.databaseOf(game.VariantOf(g))
	if err != nil {
		return nil
	}
	lines := make([][]teach.Step, len(vs))
	positions := g.Positions()
	for i, v := range vs {
		if i < g.Ply() && v.Mark == teach.MarkWorse {
			if line, err := teach.Refutation(db, positions[i], v, refutationMax); err == nil {
				lines[i] = line
			}
		}
	}
	return lines
}

// gameReview holds the verdicts of one game: they belong to the game on
// the board while its record is record.
type gameReview struct {
	record   string
	verdicts []teach.Verdict
	lines    [][]teach.Step // the refutation of each move that gave up value; nil when not known
	gen      int            // counts reviews started, to drop the result of a stale one
}

// verdicts returns the verdicts of the game on the board, nil when it has
// not been reviewed or changed since.
func (u *App) verdicts() []teach.Verdict {
	if u.review.verdicts == nil || u.review.record != u.ctrl.Game().Record() {
		return nil
	}
	return u.review.verdicts
}

// reviewGame starts the review of the game on the board; the verdicts
// reach the move list when the database has judged every move, unless the
// game changed meanwhile.
func (u *App) reviewGame() {
	r, ok := u.engines.(reviewer)
	if !ok || r == nil {
		u.ctrl.Say("Review Game needs the database.")
		return
	}
	g := u.ctrl.Game().Clone()
	if g.Ply() == 0 {
		u.ctrl.Say("Review Game: there are no moves to review yet.")
		return
	}
	u.review.gen++
	gen, rec := u.review.gen, g.Record()
	u.ctrl.Say("Reviewing %s…", game.Plies(g.Ply()))
	go func() {
		vs, lines, err := r.Review(context.Background(), g)
		u.do(func() {
			if gen != u.review.gen {
				return // a later review replaced this one
			}
			switch {
			case err != nil:
				u.ctrl.Say("Review Game: %v", err)
			case u.ctrl.Game().Record() != rec:
				u.ctrl.Say("The game changed during the review; choose Review Game again.")
			default:
				u.review.record, u.review.verdicts, u.review.lines = rec, vs, lines
				u.changed(eventNone)
				u.ctrl.Say("%s", reviewSummary(vs))
			}
		})
	}()
}

// reviewSummary says in a sentence what the review found.
func reviewSummary(vs []teach.Verdict) string {
	var worse [2]int
	unknown := 0
	for _, v := range vs {
		switch v.Mark {
		case teach.MarkWorse:
			worse[v.Mover]++
		case teach.MarkUnknown:
			unknown++
		}
	}
	s := fmt.Sprintf("Review: White gave up value with %s, Black with %s (marked ? in the move list, with the best move).",
		countOf(worse[muehle.White], "move"), countOf(worse[muehle.Black], "move"))
	if unknown > 0 {
		s += fmt.Sprintf(" The database could not judge %d of the %s.", unknown, game.Plies(len(vs)))
	}
	return s
}

// recordText returns the record of the game on the board, with the
// verdicts as comments when it has been reviewed.
func (u *App) recordText() string {
	g := u.ctrl.Game()
	var cs []string
	if vs := u.verdicts(); vs != nil {
		cs = teach.Comments(g, vs)
	}
	if hs := u.hintComments(g); hs != nil {
		cs = append(cs, make([]string, max(0, len(hs)-len(cs)))...)
		for i, h := range hs {
			switch {
			case h == "":
			case cs[i] == "":
				cs[i] = h
			default:
				cs[i] += "; " + h
			}
		}
	}
	if cs == nil {
		return g.Record()
	}
	return g.RecordWithComments(cs)
}

// parseReviewed reads a game record and the verdicts its comments keep;
// verdicts is nil when the record has none (or other comments).
func parseReviewed(text string) (*muehle.Game, []teach.Verdict, error) {
	g, comments, err := muehle.ParseRecordWithComments(text)
	if err == nil {
		err = supported(g.Rules())
	}
	if err != nil {
		return nil, nil, err
	}
	for _, c := range comments {
		if c != "" {
			if vs, err := teach.VerdictsFromComments(g, comments); err == nil {
				return g, vs, nil
			}
			break
		}
	}
	return g, nil, nil
}

// setReviewedGame puts g on the board with the verdicts read from its
// record, and looks up the refutations of the marked moves in the
// background when there is a database.
func (u *App) setReviewedGame(g *muehle.Game, vs []teach.Verdict) {
	u.review.gen++
	rec := g.Record()
	u.review.record, u.review.verdicts, u.review.lines = rec, vs, nil
	u.ctrl.SetGame(g)
	r, ok := u.engines.(reviewer)
	if vs == nil || !ok || r == nil {
		return
	}
	gen, g := u.review.gen, g.Clone()
	go func() {
		lines := r.Refutations(g, vs)
		u.do(func() {
			if gen == u.review.gen && u.review.record == rec {
				u.review.lines = lines
				u.changed(eventNone)
			}
		})
	}()
}

// verdictNote returns what the move list shows after a move: "?" and the
// best move for a move that gave up value, "(not judged)" where the
// database could not judge it, nothing else.
func verdictNote(b *muehle.Board, v teach.Verdict) string {
	switch v.Mark {
	case teach.MarkWorse:
		if v.Best != muehle.NoMove {
			if v.BestValue.Outcome() == layers.Draw {
				return fmt.Sprintf("?  best %s (%s)", b.MoveString(v.Best), v.BestValue)
			}
			return fmt.Sprintf("?  best %s (%s for %s)", b.MoveString(v.Best), v.BestValue, v.Mover)
		}
		return "?"
	case teach.MarkUnknown:
		return "(not judged)"
	}
	return ""
}

// bestShown returns the move the board draws as an arrow: after a move
// that gave up value, the review's best move instead; NoMove otherwise.
func (u *App) bestShown() muehle.Move {
	vs, p := u.verdicts(), u.ctrl.Shown()
	if p < 1 || p > len(vs) || vs[p-1].Mark != teach.MarkWorse {
		return muehle.NoMove
	}
	return vs[p-1].Best
}

// countOf returns n and the noun, plural unless n is 1: "1 move", "0 moves".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// refutationText says, for the position after move p (from 1) of a reviewed
// game, what the move gave up, the best move, and how the opponent wins: ""
// unless move p gave up value. The moves are named on board b, the game's.
func refutationText(b *muehle.Board, vs []teach.Verdict, lines [][]teach.Step, p int) string {
	if p < 1 || p > len(vs) || vs[p-1].Mark != teach.MarkWorse {
		return ""
	}
	v := vs[p-1]
	s := fmt.Sprintf("Review: %s by %s gave up value: %s before, %s after it.", b.MoveString(v.Move), v.Mover, v.Before, v.After)
	if v.Best != muehle.NoMove {
		s += fmt.Sprintf(" The best move was %s (%s, the green arrow).", b.MoveString(v.Best), v.BestValue)
	}
	if p <= len(lines) && len(lines[p-1]) > 0 {
		line := lines[p-1]
		moves := make([]string, len(line))
		for i, st := range line {
			moves[i] = b.MoveString(st.Move)
		}
		s += fmt.Sprintf(" %s's answer: %s (%s for %s).", v.Mover.Other(), strings.Join(moves, " "), line[0].Value, v.Mover.Other())
	}
	return s
}

// showRefutation puts refutationText of the position on the board into the
// side panel, or hides it.
func (u *App) showRefutation() {
	var lines [][]teach.Step
	vs := u.verdicts()
	if vs != nil {
		lines = u.review.lines
	}
	l, b := u.side.refutation, u.side.refuteWalk
	if t := refutationText(u.ctrl.Game().Rules().Board, vs, lines, u.ctrl.Shown()); t != "" {
		l.SetText(t)
		l.Show()
	} else if l.Visible() {
		l.SetText("")
		l.Hide()
	}
	if p := u.ctrl.Shown(); u.learn.walk == nil && p >= 1 && p <= len(lines) && len(lines[p-1]) > 0 && vs[p-1].Mark == teach.MarkWorse {
		b.OnTapped = u.walkRefutation
		b.Show()
	} else if b.Visible() {
		b.Hide()
	}
}

// walkRefutation opens on the board the refutation of the marked move
// whose position is shown, to step through it.
func (u *App) walkRefutation() {
	vs, p := u.verdicts(), u.ctrl.Shown()
	if vs == nil || p < 1 || p > len(u.review.lines) || len(u.review.lines[p-1]) == 0 {
		return
	}
	v := vs[p-1]
	u.openWalk(refutationTitle(u.ctrl.Game().Positions()[p-1], v.Mover, v.Move, v.After), u.ctrl.Game().Positions()[p], u.review.lines[p-1])
}
