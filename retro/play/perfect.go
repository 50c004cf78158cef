package play

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

// MoveValue is a legal move with its database value for the side making it
// (the Parent of the value of the position it leads to) and the replies
// the opponent has there, counted by their outcome for the opponent:
// Replies[0] win, Replies[1] draw, Replies[2] loss. A move that ends the
// game has no replies. Score is the tie-break score of Perfect among moves
// of equal value (see Evaluate): for a drawing move of a drawn position
// the score of the player's draw rule (for the default, the sector score);
// otherwise the trap share, 0 when Lookahead is 0 (with Lookahead 1, for a
// drawing move the share of the opponent's replies that lose, the mover's
// chance to win at the opponent's next move if the opponent picks a reply
// at random).
type MoveValue struct {
	Move    muehle.Move
	Value   layers.Value
	Replies [3]int
	Score   float64
}

// The indices of MoveValue.Replies.
const (
	ReplyWins  = 0
	ReplyDraws = 1
	ReplyLoses = 2
)

// replyTotal returns the number of replies.
func (mv *MoveValue) replyTotal() int { return mv.Replies[0] + mv.Replies[1] + mv.Replies[2] }

// trap returns how likely the opponent is to go wrong after mv, for moves
// of equal value: for a drawing move the share of replies that lose, for a
// losing move the share of replies that do not win; 0 for a winning move
// (all its replies lose) and for a move that ends the game.
func (mv *MoveValue) trap() float64 {
	n := mv.replyTotal()
	if n == 0 {
		return 0
	}
	switch mv.Value.Outcome() {
	case layers.Draw:
		return float64(mv.Replies[ReplyLoses]) / float64(n)
	case layers.Loss:
		return float64(mv.Replies[ReplyDraws]+mv.Replies[ReplyLoses]) / float64(n)
	}
	return 0
}

// Perfect is the perfect player: it reads the database and never plays a
// move of a worse value than the position's. Among the moves of the best
// value it wins as fast as possible and loses as slowly as possible. Among
// moves of equal value a tie-break decides: in a drawn position the rule
// Draws (NewPerfect: the sector variant, the drawing move whose layer after
// the next removal holds the largest share of positions won for it); in
// other positions, and under DrawTrap in drawn ones too, the move after
// which the largest share of the opponent's replies gives up value (for a
// draw, replies that lose; for a loss, replies that do not win), looking
// Lookahead of its own moves ahead, assuming the opponent chooses
// uniformly at random among its replies. Remaining ties are broken at
// random. Where the database lacks a layer it plays the fallback player
// and says so through LastFellBack. It implements muehle.Player; it is not
// safe for concurrent use.
type Perfect struct {
	db       layers.Prober
	rng      *rand.Rand
	fallback muehle.Player
	fellBack bool
	why      error // why the last move came from the fallback player
	searched bool  // the last move came from the placement search
	tried    bool  // the last move asked the placement search first

	// Placement, when set, decides placement positions whose layer the
	// database lacks by searching down to the moving layers (see
	// PlacementSearch; its budget bounds the time per move). Only where it
	// fails (a moving layer missing, the budget spent) does the fallback
	// player move.
	Placement *PlacementSearch

	// Lookahead is the number of own moves the tie-break looks at: 1
	// counts the replies to each move; 2 also counts, after each reply
	// that keeps the value, the best share the next own move can set up
	// (about 30 times the probes); 0 switches the tie-break off (a plain
	// perfect player, choosing at random among the moves of the best
	// value). NewPerfect sets 1.
	Lookahead int

	// Draws is how the player chooses among its drawing moves in a drawn
	// position: DrawTrap (the Lookahead tie-break), DrawBahnsen or
	// DrawSector. Outside drawn positions the Lookahead tie-break applies.
	// NewPerfect sets DrawSector, the strongest of the three in the
	// matches of docs/figures.md, when the database gives layer headers (the
	// two others need them), and DrawTrap when it does not.
	Draws DrawRule
	// DrawDepth is Bahnsen's depth limit in own moves, or the sector
	// variant's horizon in plies (at least 1). NewPerfect sets SectorPlies.
	DrawDepth int

	layers     LayerSource                 // the layer headers, when db gives them
	shares     map[layers.Key][2]float64   // won and lost shares of layers read so far
	sectorMemo map[muehle.Position]float64 // s of Bahnsen's v, during one move
}

// DrawRule names a way of choosing among drawing moves.
type DrawRule int

// The ways of choosing among drawing moves.
const (
	DrawTrap    DrawRule = iota // the share of losing replies (see Perfect)
	DrawBahnsen                 // Bahnsen's win probability G (bahnsen.go)
	DrawSector                  // the eventual sub-database's won share (sector.go)
)

// The default depths of the two draw rules that look ahead: Bahnsen's in
// own moves, the sector variant's in plies.
const (
	BahnsenDepth = 2
	SectorPlies  = 4
)

// String returns "trap", "bahnsen" or "sector".
func (r DrawRule) String() string {
	switch r {
	case DrawBahnsen:
		return "bahnsen"
	case DrawSector:
		return "sector"
	}
	return "trap"
}

// NewPerfect returns the default perfect player reading db: the sector
// variant in drawn positions (SectorPlies deep; the trap share when db
// gives no layer headers), the trap share with Lookahead 1 elsewhere. src
// breaks ties between equally good moves (nil: the first in generation
// order). fallback plays where db has no layer; with a nil fallback, Move
// returns the error.
func NewPerfect(db layers.Prober, src rand.Source, fallback muehle.Player) *Perfect {
	p := &Perfect{db: db, fallback: fallback, Lookahead: 1}
	p.layers, _ = db.(LayerSource)
	if p.layers != nil {
		p.Draws, p.DrawDepth = DrawSector, SectorPlies
	}
	if src != nil {
		p.rng = rand.New(src)
	}
	return p
}

// Name returns "Perfect".
func (p *Perfect) Name() string { return "Perfect" }

// LastFellBack reports whether the last call of Move played the fallback
// player because the database lacked a layer.
func (p *Perfect) LastFellBack() bool { return p.fellBack }

// LastSearched reports whether the last call of Move chose a placement by
// the placement search (an exact value, not a fallback).
func (p *Perfect) LastSearched() bool { return p.searched }

// FallbackReason returns, after a move of the fallback player, why the
// database and the placement search could not choose it, as a sentence
// for a person; "" when the last move was perfect.
func (p *Perfect) FallbackReason() string {
	if !p.fellBack {
		return ""
	}
	switch {
	case errors.Is(p.why, ErrBudget):
		return "the placement search ran out of time before proving a move, so it played alpha-beta"
	case p.tried && errors.Is(p.why, layers.ErrMissing):
		return "the placement search needs moving layers that are not computed, so it played alpha-beta"
	case errors.Is(p.why, layers.ErrMissing):
		return "the position's layer is not computed, so it played alpha-beta"
	}
	return "the position was outside the computed layers, so it played alpha-beta"
}

// value returns the value of pos for its side to move: lost in 0 when the
// game is over, else the database's.
func (p *Perfect) value(pos muehle.Position) (layers.Value, error) {
	if pos.IsOver() {
		return layers.LossIn(0), nil
	}
	v, err := p.db.Probe(pos)
	if err != nil {
		return layers.Unused, err
	}
	if v == layers.Unused && pos.Hand[pos.Turn] > 0 {
		// The solver stores only the placement classes reachable from the
		// empty board: this one is missing, as a missing layer is.
		return layers.Unused, fmt.Errorf("play: perfect: placement position %s is not stored (not reachable from the empty board): %w", pos, layers.ErrMissing)
	}
	if v == layers.Unused {
		return layers.Unused, fmt.Errorf("play: perfect: position %s reads as unused", pos)
	}
	return v, nil
}

// outcome returns the outcome of pos for its side to move, as value's
// (lost when the game is over), and its value when reading the outcome
// read that too (Unused when not: db is a layers.OutcomeProber, read so
// where the player's choice needs no depth, see best).
func (p *Perfect) outcome(pos muehle.Position) (layers.Outcome, layers.Value, error) {
	op, ok := p.db.(layers.OutcomeProber)
	if !ok || pos.IsOver() {
		v, err := p.value(pos)
		return v.Outcome(), v, err
	}
	o, err := op.ProbeOutcome(pos)
	switch {
	case err != nil:
		return layers.NoOutcome, layers.Unused, err
	case o == layers.NoOutcome && pos.Hand[pos.Turn] > 0:
		return o, layers.Unused, fmt.Errorf("play: perfect: placement position %s is not stored (not reachable from the empty board): %w", pos, layers.ErrMissing)
	case o == layers.NoOutcome:
		return o, layers.Unused, fmt.Errorf("play: perfect: position %s reads as unused", pos)
	}
	return o, layers.Unused, nil
}

// Evaluate returns every legal move of pos with its value, the counts of
// the opponent's replies and its tie-break score, best first: by value (a
// faster win, a slower loss first), then by score. In a drawn position
// whose rule Draws is not DrawTrap, the score of a drawing move is the
// rule's (SectorScore; BahnsenG as at the start of a game, with no moves
// before pos); otherwise it is the share of replies that give up value
// (see Perfect). The first BestCount(mvs) moves are those the player
// chooses among. The error wraps layers.ErrMissing when the database lacks
// the layer of a position the values or the scores need.
func (p *Perfect) Evaluate(pos muehle.Position) ([]MoveValue, error) {
	return p.rank(pos, nil)
}

// rank is Evaluate with hist, the game's moves before pos, for Bahnsen's f.
func (p *Perfect) rank(pos muehle.Position, hist []muehle.Move) ([]MoveValue, error) {
	mvs, err := p.evaluate(pos)
	if err != nil {
		return nil, err
	}
	if err := p.score(pos, hist, mvs, bestOutcome(mvs)); err != nil {
		return nil, err
	}
	sortMoves(mvs)
	return mvs, nil
}

// score sets the tie-break score of each of mvs, the moves of pos (or
// some of them, with their replies counted where the score needs them:
// see best), the best of pos's moves being of the outcome best.
func (p *Perfect) score(pos muehle.Position, hist []muehle.Move, mvs []MoveValue, best layers.Outcome) error {
	drawn := p.Draws != DrawTrap && best == layers.Draw
	p.sectorMemo = nil
	var err error
	for i := range mvs {
		switch {
		case drawn && mvs[i].Value.Outcome() == layers.Draw:
			mvs[i].Score, err = p.drawScore(pos, hist, mvs[i].Move)
		case p.Lookahead > 0:
			mvs[i].Score, err = p.trapAhead(pos, &mvs[i], p.Lookahead)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sortMoves sorts mvs best first, stably: by value (a faster win, a
// slower loss first), then by score.
func sortMoves(mvs []MoveValue) {
	slices.SortStableFunc(mvs, func(a, b MoveValue) int {
		switch {
		case a.Value.Better(b.Value):
			return -1
		case b.Value.Better(a.Value):
			return 1
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
}

// bestOutcome returns the outcome of the best of mvs for the mover (a
// loss when there are none).
func bestOutcome(mvs []MoveValue) layers.Outcome {
	best := layers.Loss
	for i := range mvs {
		switch o := mvs[i].Value.Outcome(); {
		case o == layers.Win:
			return o
		case o == layers.Draw:
			best = o
		}
	}
	return best
}

// drawScore returns the score of the drawing move m of pos under p.Draws
// (not DrawTrap).
func (p *Perfect) drawScore(pos muehle.Position, hist []muehle.Move, m muehle.Move) (float64, error) {
	if p.Draws == DrawBahnsen {
		return p.BahnsenG(pos, hist, m, p.DrawDepth)
	}
	return p.SectorScore(pos, m, p.DrawDepth)
}

// BestCount returns how many of the moves mvs, sorted as Evaluate returns
// them, are as good as the first: the same value and the same score. The
// perfect player picks one of them at random.
func BestCount(mvs []MoveValue) int {
	n := min(1, len(mvs))
	for n < len(mvs) && mvs[n].Value == mvs[0].Value && mvs[n].Score == mvs[0].Score {
		n++
	}
	return n
}

// evaluate returns the moves of pos with values and reply counts, in
// generation order.
func (p *Perfect) evaluate(pos muehle.Position) ([]MoveValue, error) {
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	mvs := make([]MoveValue, len(ms))
	for i, m := range ms {
		c := pos.Play(m)
		v, err := p.value(c)
		if err != nil {
			return nil, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(m), err)
		}
		mvs[i] = MoveValue{Move: m, Value: v.Parent()}
		if err := p.countReplies(pos, &mvs[i]); err != nil {
			return nil, err
		}
	}
	return mvs, nil
}

// countReplies counts the opponent's replies to mv, a move of pos, by
// their outcome for the opponent: an outcome probe each. A move that ends
// the game, or that the database says leaves the opponent lost in 0, has
// none.
func (p *Perfect) countReplies(pos muehle.Position, mv *MoveValue) error {
	if mv.Value == layers.WinIn(1) {
		return nil // the game is over, or the database says so
	}
	c := pos.Play(mv.Move)
	var rbuf [muehle.MaxMoves]muehle.Move
	for _, r := range c.AppendMoves(rbuf[:0]) {
		o, _, err := p.outcome(c.Play(r))
		if err != nil {
			return fmt.Errorf("play: perfect: after %s %s: %w", pos.Board().MoveString(mv.Move), pos.Board().MoveString(r), err)
		}
		mv.countReply(-o) // the reply's outcome for the opponent who plays it
	}
	return nil
}

// countReply counts a reply to mv whose outcome for the opponent who
// plays it is o.
func (mv *MoveValue) countReply(o layers.Outcome) {
	switch o {
	case layers.Win:
		mv.Replies[ReplyWins]++
	case layers.Draw:
		mv.Replies[ReplyDraws]++
	default:
		mv.Replies[ReplyLoses]++
	}
}

// best returns the moves of pos the player chooses among, as Evaluate
// and BestCount give them (the same moves in the same order), with as few
// probes as that needs: the outcome of every move first, the depth only
// of the moves of the best outcome (none in a drawn position), the
// replies only of those of the best value and only where their score
// needs them (a winning move's is 0; a drawing move's under the sector or
// Bahnsen rule is that rule's). The Replies of a move returned are
// counted only where its score needed them.
func (p *Perfect) best(pos muehle.Position, hist []muehle.Move) ([]MoveValue, error) {
	var buf [muehle.MaxMoves]muehle.Move
	var outs [muehle.MaxMoves]layers.Outcome // for the mover
	var vals [muehle.MaxMoves]layers.Value   // of the children, where read
	ms := pos.AppendMoves(buf[:0])
	bestOut := layers.Loss
	for i, m := range ms {
		o, v, err := p.outcome(pos.Play(m))
		if err != nil {
			return nil, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(m), err)
		}
		outs[i], vals[i] = -o, v
		bestOut = max(bestOut, outs[i])
	}
	var mvs []MoveValue
	for i, m := range ms {
		if outs[i] != bestOut {
			continue
		}
		w := vals[i]
		if w == layers.Unused && bestOut == layers.Draw {
			w = layers.Drawn
		} else if w == layers.Unused {
			var err error
			if w, err = p.value(pos.Play(m)); err != nil {
				return nil, fmt.Errorf("play: perfect: after %s: %w", pos.Board().MoveString(m), err)
			}
		}
		v := w.Parent()
		switch {
		case len(mvs) == 0 || v == mvs[0].Value:
		case v.Better(mvs[0].Value):
			mvs = mvs[:0]
		default:
			continue
		}
		mvs = append(mvs, MoveValue{Move: m, Value: v})
	}
	sector := p.Draws != DrawTrap && bestOut == layers.Draw
	if p.Lookahead > 0 && bestOut != layers.Win && !sector {
		for i := range mvs {
			if err := p.countReplies(pos, &mvs[i]); err != nil {
				return nil, err
			}
		}
	}
	if err := p.score(pos, hist, mvs, bestOut); err != nil {
		return nil, err
	}
	sortMoves(mvs)
	return mvs[:BestCount(mvs)], nil
}

// trapAhead returns the tie-break score of mv from pos looking n own moves
// ahead: the probability that an opponent choosing uniformly among its
// replies gives up value within n of its moves, when after each reply that
// keeps the value this player again picks the move of the same value with
// the best score.
func (p *Perfect) trapAhead(pos muehle.Position, mv *MoveValue, n int) (float64, error) {
	t := mv.trap()
	if n <= 1 || mv.replyTotal() == 0 || mv.Value.Outcome() == layers.Win {
		return t, nil
	}
	c := pos.Play(mv.Move)
	var rbuf [muehle.MaxMoves]muehle.Move
	sum := 0.0
	for _, r := range c.AppendMoves(rbuf[:0]) {
		gc := c.Play(r)
		w, err := p.value(gc)
		if err != nil {
			return 0, err
		}
		// A reply keeps the value when this player's outcome stays the same.
		if w.Outcome() != mv.Value.Outcome() {
			continue // counted in t already (or the opponent gained, impossible for best play)
		}
		next, err := p.evaluate(gc)
		if err != nil {
			return 0, err
		}
		best := 0.0
		for i := range next {
			if next[i].Value.Outcome() != w.Outcome() {
				continue
			}
			s, err := p.trapAhead(gc, &next[i], n-1)
			if err != nil {
				return 0, err
			}
			best = max(best, s)
		}
		sum += best
	}
	return t + sum/float64(mv.replyTotal()), nil
}

// Move plays a best move of the current position of g (see Perfect). When
// the database lacks a layer it asks the fallback player and LastFellBack
// reports true until the next call.
func (p *Perfect) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	p.fellBack, p.why, p.searched, p.tried = false, nil, false, false
	if err := ctx.Err(); err != nil {
		return muehle.Move{}, err
	}
	if r, why := g.Result(); r != muehle.Ongoing {
		return muehle.Move{}, fmt.Errorf("play: perfect: %w: %s (%s)", muehle.ErrNoMove, r, why)
	}
	pos := g.Position()
	mvs, err := p.best(pos, g.History())
	if errors.Is(err, layers.ErrMissing) && p.Placement != nil && pos.Hand[pos.Turn] > 0 && separatePhases(&pos) == nil {
		p.tried = true
		m, serr := p.searchMove(ctx, pos)
		if serr == nil {
			p.searched = true
			return m, nil
		}
		if ctx.Err() != nil {
			return muehle.Move{}, ctx.Err()
		}
		if !errors.Is(serr, layers.ErrMissing) && !errors.Is(serr, ErrBudget) {
			return muehle.Move{}, serr
		}
		err = serr
	}
	if errors.Is(err, layers.ErrMissing) || errors.Is(err, ErrBudget) {
		if p.fallback == nil {
			return muehle.Move{}, err
		}
		p.fellBack, p.why = true, err
		return p.fallback.Move(ctx, g)
	}
	if err != nil {
		return muehle.Move{}, err
	}
	if n := BestCount(mvs); p.rng != nil && n > 1 {
		return mvs[p.rng.IntN(n)].Move, nil
	}
	return mvs[0].Move, nil
}

// searchMove chooses a placement by the placement search: a move that
// keeps the position's exact value (the fastest win, the slowest loss),
// at random among those. The tie-break by the opponent's replies is not
// applied here: it would need a search per reply. The book, if any, is
// saved after the move; a book that cannot be saved keeps its entries in
// memory and the next move tries again.
func (p *Perfect) searchMove(ctx context.Context, pos muehle.Position) (muehle.Move, error) {
	_, best, err := p.Placement.BestMoves(ctx, pos)
	if err != nil {
		return muehle.Move{}, err
	}
	if b := p.Placement.Book(); b != nil {
		_ = b.Save()
	}
	if p.rng != nil {
		return best[p.rng.IntN(len(best))], nil
	}
	return best[0], nil
}
