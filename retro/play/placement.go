package play

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/search"
)

// ErrBudget is returned (wrapped) by a PlacementSearch that ran out of its
// node or time budget before the value was proven.
var ErrBudget = errors.New("placement search budget exhausted")

// maxPlacementPly bounds the plies from a placement position to the moving
// phase: 2 × 9 placements, and one more for the moving position reached.
const maxPlacementPly = 2*muehle.MaxStones + 1

// scoreInf is beyond every score: the window of an unbounded search.
const scoreInf = search.WinScore + 1

// Layer states remembered during one call of a PlacementSearch.
const (
	layerUnknown uint8 = iota
	layerPresent
	layerMissing
)

// PlacementSearch computes the exact database value of placement
// positions whose layer the database lacks: an alpha-beta search over the
// remaining placement plies that reads the moving layers (and any stored
// placement layer) at its leaves. The result is the same byte a stored
// placement layer holds: won, lost or drawn, and for won and lost
// positions the exact depth (a win as fast as possible, a loss as slow as
// possible; RULES.md), because every leaf is exact and the scores order
// values as layers.Value.Better does.
//
// A transposition table keyed by symmetry class (the layers index)
// holds proven bounds and lasts as long as the PlacementSearch; a Book,
// when given, holds exact values of earlier calls across runs and
// processes. Stored placement layers come first: a position whose layer
// is in the database is never searched, so with a complete placement
// database the search is a probe, and where only some placement layers
// are stored they end the search early.
//
// It is not safe for concurrent use.
type PlacementSearch struct {
	db   layers.Prober
	ci   classIndexer
	book *Book
	tt   *classTable // made by the first call (a player may never search)
	bits int         // of tt

	// MaxNodes bounds the nodes of one call (0: no bound); MaxTime its
	// wall-clock time (0: no bound). A call over budget returns an error
	// wrapping ErrBudget; what it proved stays in the table.
	MaxNodes uint64
	MaxTime  time.Duration

	ctx      context.Context
	deadline time.Time
	nodes    uint64
	total    uint64
	err      error
	layer    layerMarks
	moves    [maxPlacementPly + 1][muehle.MaxMoves]muehle.Move
	order    [maxPlacementPly + 1][muehle.MaxMoves]int32
}

// DefaultPlacementTableBits is the size of the transposition table of
// NewPlacementSearch: 2^22 entries of 16 bytes (64 MiB).
const DefaultPlacementTableBits = 22

// NewPlacementSearch returns a search reading db, numbering classes with
// x (the indexer of db), with a table of 2^tableBits entries (0: the
// default), made by the first call. book may be nil.
func NewPlacementSearch(db layers.Prober, x *layers.Indexer, book *Book, tableBits int) *PlacementSearch {
	if tableBits <= 0 {
		tableBits = DefaultPlacementTableBits
	}
	return &PlacementSearch{db: db, ci: classIndexer{x: x}, book: book, bits: max(tableBits, 4)}
}

// Book returns the book the search reads and fills, nil if none.
func (s *PlacementSearch) Book() *Book { return s.book }

// Reset empties the transposition table (not the book), so that the next
// call searches afresh.
func (s *PlacementSearch) Reset() {
	if s.tt != nil {
		s.tt.clear()
	}
}

// Nodes returns the nodes searched by the last call.
func (s *PlacementSearch) Nodes() uint64 { return s.nodes }

// TotalNodes returns the nodes searched since the search was made.
func (s *PlacementSearch) TotalNodes() uint64 { return s.total }

// begin prepares a call: the table, the budget, and the layer states
// (another process may have written a layer since the last call).
func (s *PlacementSearch) begin(ctx context.Context) {
	if s.tt == nil {
		s.tt = newClassTable(s.bits)
	}
	s.ctx, s.err, s.nodes = ctx, ctx.Err(), 0
	s.deadline = time.Time{}
	if s.MaxTime > 0 {
		s.deadline = time.Now().Add(s.MaxTime)
	}
	s.layer = layerMarks{}
}

// end adds the call's nodes to the total.
func (s *PlacementSearch) end() { s.total += s.nodes }

// poll counts a node, checks the node budget, and ctx and the clock every
// 1024 nodes, and records why the search must stop.
func (s *PlacementSearch) poll() bool {
	s.nodes++
	if s.MaxNodes > 0 && s.nodes > s.MaxNodes && s.err == nil {
		s.err = fmt.Errorf("play: placement search: %w: %d nodes", ErrBudget, s.MaxNodes)
	}
	if s.nodes&1023 != 0 || s.err != nil {
		return s.err != nil
	}
	switch {
	case s.ctx.Err() != nil:
		s.err = s.ctx.Err()
	case !s.deadline.IsZero() && time.Now().After(s.deadline):
		s.err = fmt.Errorf("play: placement search: %w: %v, %d nodes", ErrBudget, s.MaxTime, s.nodes)
	}
	return s.err != nil
}

// layerMarks marks the layers a search found missing, by the counts of
// their keys.
type layerMarks [muehle.MaxStones + 1][muehle.MaxStones + 1][muehle.MaxStones + 1][muehle.MaxStones + 1]uint8

// probe returns the stored value of p when its layer is in the database
// and stores p's class (a placement layer holds only the classes reachable
// from the empty board). A failed probe of a missing layer is remembered
// for the rest of the call; other errors stop the search.
func (s *PlacementSearch) probe(p *muehle.Position) (layers.Value, bool) {
	k := layers.KeyOf(*p)
	if n := uint8(muehle.MaxStones); k.W > n || k.B > n || k.WH > n || k.BH > n {
		s.err = fmt.Errorf("play: placement search: %v: %w", *p, muehle.ErrPosition)
		return layers.Unused, false
	}
	st := &s.layer[k.W][k.B][k.WH][k.BH]
	if *st == layerMissing {
		return layers.Unused, false
	}
	v, err := s.db.Probe(*p)
	switch {
	case err == nil && v != layers.Unused:
		*st = layerPresent
		return v, true
	case errors.Is(err, layers.ErrMissing):
		*st = layerMissing
	case err != nil:
		s.err = fmt.Errorf("play: placement search: %w", err)
	case p.Hand[p.Turn] > 0:
		// A placement class the layer does not store: the solver stores
		// only those reachable from the empty board. Search it.
		*st = layerPresent
	default:
		s.err = fmt.Errorf("play: placement search: position %v reads as unused", *p)
	}
	return layers.Unused, false
}

// known returns the exact value of p when it needs no search: the end of
// the game, a stored layer, or the book. It sets s.err for a moving
// position whose layer is missing: the search cannot go on there.
func (s *PlacementSearch) known(p *muehle.Position) (layers.Value, bool) {
	if p.IsOver() {
		return layers.LossIn(0), true
	}
	if v, ok := s.probe(p); ok || s.err != nil {
		return v, ok
	}
	if p.Hand[p.Turn] == 0 {
		s.err = fmt.Errorf("play: placement search: moving layer %v: %w", layers.KeyOf(*p), layers.ErrMissing)
		return layers.Unused, false
	}
	if s.book != nil {
		if v, ok := s.book.Get(s.ci.key(p)); ok {
			return v, true
		}
	}
	return layers.Unused, false
}

// nodeScore converts a score at ply plies from the root into one relative
// to the position itself (ply 0), and back with toPly.
func nodeScore(sc int32, ply int) int32 {
	switch {
	case sc > 0:
		return sc + int32(ply)
	case sc < 0:
		return sc - int32(ply)
	}
	return 0
}

// toPly converts a position-relative score into one at ply.
func toPly(sc int32, ply int) int32 { return nodeScore(sc, -ply) }

// scoreValue returns the value of a position-relative exact score.
func scoreValue(sc int32) layers.Value {
	switch {
	case sc > 0:
		return layers.WinIn(int(search.WinScore - sc))
	case sc < 0:
		return layers.LossIn(int(sc + search.WinScore))
	}
	return layers.Drawn
}

// childValue returns the value of a position a move of value v leads to,
// for the opponent: the inverse of layers.Value.Parent.
func childValue(v layers.Value) layers.Value {
	if v.IsDecided() {
		return v - 1
	}
	return v
}

// node returns the score of p at ply for its side to move: exact inside
// (alpha, beta), an upper bound at or below alpha, a lower bound at or
// above beta (fail-soft). After an error (s.err) the result means nothing.
func (s *PlacementSearch) node(p *muehle.Position, ply int, alpha, beta int32) int32 {
	if s.poll() {
		return 0
	}
	if v, ok := s.known(p); ok || s.err != nil {
		sc, _ := search.ProbeScore(v, ply)
		return sc
	}
	key := s.ci.key(p)
	if lo, hi, ok := s.tt.get(key); ok {
		l, h := toPly(int32(lo), ply), toPly(int32(hi), ply)
		switch {
		case l >= beta:
			return l
		case h <= alpha:
			return h
		case l == h:
			return l
		}
		alpha, beta = max(alpha, l), min(beta, h)
	}
	ms := p.AppendMoves(s.moves[ply][:0])
	best := int32(-scoreInf)
	// Children whose value is known without search come first: at the
	// last placement all of them, and a win among them often ends the node.
	rest := s.order[ply][:0]
	for i := range ms {
		c := p.Play(ms[i])
		if v, ok := s.known(&c); ok {
			sc, _ := search.ProbeScore(v, ply+1)
			best = max(best, -sc)
			continue
		} else if s.err != nil {
			return 0
		}
		// A child whose table entry already refutes the window ends the
		// node (enhanced transposition cutoff): its upper bound h makes
		// this move worth at least -h.
		if _, hi, ok := s.tt.get(s.ci.key(&c)); ok {
			if lo := -toPly(int32(hi), ply+1); lo >= beta {
				s.tt.put(key, int16(nodeScore(lo, ply)), search.WinScore)
				return lo
			}
		}
		rest = append(rest, int32(i))
	}
	if best < beta && len(rest) > 0 {
		s.orderMoves(p, ms, rest)
		for _, i := range rest {
			c := p.Play(ms[i&0xffff])
			sc := -s.node(&c, ply+1, -beta, -max(alpha, best))
			if s.err != nil {
				return 0
			}
			if sc > best {
				best = sc
				if best >= beta {
					break
				}
			}
		}
	}
	lo, hi := int32(-search.WinScore), int32(search.WinScore)
	if best > alpha {
		lo = nodeScore(best, ply)
	}
	if best < beta {
		hi = nodeScore(best, ply)
	}
	s.tt.put(key, int16(lo), int16(hi))
	return best
}

// orderMoves sorts the move numbers in idx, best first, by a score kept in
// their upper bits: removals first, then placements that block a mill of
// the opponent, then those that threaten a mill, then points with more
// neighbours.
func (s *PlacementSearch) orderMoves(p *muehle.Position, ms []muehle.Move, idx []int32) {
	own, opp := p.Mover(), p.Opponent()
	free := p.Empty()
	board := p.Rules().Board
	block := board.MillTargets(opp, free)
	for j, i := range idx {
		m := ms[i]
		sc := int32(0)
		if m.IsRemoval() {
			sc += 1000
			if board.MillTargets(opp, free|m.Remove.Bit())&^m.To.Bit() != 0 {
				sc += 100 // the removed stone was part of a threat
			}
		}
		if block.Has(m.To) {
			sc += 500
		}
		after := own | m.To.Bit()
		sc += 50 * int32(bits.OnesCount32(uint32(board.MillTargets(after, free&^m.To.Bit()))))
		sc += 10 * int32(board.Neighbors(m.To).Count())
		idx[j] = -(sc<<16 | int32(0xffff-i)) // ascending sort: highest score, then lowest move number
	}
	slices.Sort(idx)
	for j := range idx {
		idx[j] = 0xffff - (-idx[j])&0xffff
	}
}

// Value returns the exact value of pos for its side to move. pos may be any
// position of the game; positions the database answers cost one probe. The
// error wraps layers.ErrMissing when a moving layer the search needs is
// absent, ErrBudget when the budget ran out, or ctx's error. In a game
// whose phases mix (Lasker Morris) the search does not run: its slides
// with stones in hand have no end in plies; the error wraps
// layers.ErrMissing, so that a player falls back as for a missing layer.
func (s *PlacementSearch) Value(ctx context.Context, pos muehle.Position) (layers.Value, error) {
	if err := separatePhases(&pos); err != nil {
		return layers.Unused, err
	}
	s.begin(ctx)
	defer s.end()
	return s.value(&pos)
}

// separatePhases returns nil for a position of a game with separate
// phases, the one kind the search answers.
func separatePhases(p *muehle.Position) error {
	if r := p.Rules(); r != nil && r.Mixed {
		return fmt.Errorf("play: placement search: %s mixes placing and moving, and the search needs a placement phase: %w", r.Name, layers.ErrMissing)
	}
	return nil
}

// value is Value within a call.
func (s *PlacementSearch) value(p *muehle.Position) (layers.Value, error) {
	if v, ok := s.known(p); ok || s.err != nil {
		return v, s.err
	}
	// First the outcome with the narrowest window, then, for a win or a
	// loss, its depth: most placement positions are draws.
	sc := s.node(p, 0, -1, 1)
	switch {
	case s.err != nil:
	case sc >= 1:
		sc = s.node(p, 0, 0, scoreInf)
	case sc <= -1:
		sc = s.node(p, 0, -scoreInf, 0)
	}
	if s.err != nil {
		return layers.Unused, s.err
	}
	v := scoreValue(sc)
	if s.book != nil {
		s.book.Put(s.ci.key(p), v)
	}
	return v, nil
}

// BestMoves returns the value of pos and every move that keeps it: the
// moves after which the opponent's value is the inverse of pos's. It
// proves the value first, then tests each move with a null window; the
// positions reached by the best moves go into the book too. Errors as
// Value.
func (s *PlacementSearch) BestMoves(ctx context.Context, pos muehle.Position) (layers.Value, []muehle.Move, error) {
	if err := separatePhases(&pos); err != nil {
		return layers.Unused, nil, err
	}
	s.begin(ctx)
	defer s.end()
	v, err := s.value(&pos)
	if err != nil {
		return v, nil, err
	}
	target, _ := search.ProbeScore(v, 0)
	var best []muehle.Move
	var buf [muehle.MaxMoves]muehle.Move
	for _, m := range pos.AppendMoves(buf[:0]) {
		c := pos.Play(m)
		// The move keeps the value when the opponent scores at most -target.
		if sc := -s.node(&c, 1, -target, -target+1); s.err != nil {
			return v, nil, s.err
		} else if sc >= target {
			best = append(best, m)
			if s.book != nil && c.Hand[c.Turn] > 0 && !c.IsOver() {
				s.book.Put(s.ci.key(&c), childValue(v))
			}
		}
	}
	if len(best) == 0 {
		return v, nil, fmt.Errorf("play: placement search: no move of %v keeps its value %v", pos, v)
	}
	return v, best, nil
}

// MoveValues returns every legal move of pos with its exact value for the
// side making it, in generation order. Replies are not counted (zero).
// Errors as Value.
func (s *PlacementSearch) MoveValues(ctx context.Context, pos muehle.Position) ([]MoveValue, error) {
	if err := separatePhases(&pos); err != nil {
		return nil, err
	}
	s.begin(ctx)
	defer s.end()
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	mvs := make([]MoveValue, len(ms))
	for i, m := range ms {
		c := pos.Play(m)
		v, err := s.value(&c)
		if err != nil {
			return nil, fmt.Errorf("play: placement search: after %s: %w", pos.Board().MoveString(m), err)
		}
		mvs[i] = MoveValue{Move: m, Value: v.Parent()}
	}
	return mvs, nil
}

// MovingOnly returns a prober that reads only the moving layers of db:
// every placement position with stones in the mover's hand reads as
// missing. A PlacementSearch over it searches down to the moving phase
// even where placement layers are stored, which is how the search is
// compared with them.
func MovingOnly(db layers.Prober) layers.Prober { return movingOnly{db} }

type movingOnly struct{ db layers.Prober }

func (m movingOnly) Probe(p muehle.Position) (layers.Value, error) {
	if p.Hand[p.Turn] > 0 && !p.Rules().Lost(p.Total(p.Turn)) {
		return layers.Unused, fmt.Errorf("play: placement layer %v hidden: %w", layers.KeyOf(p), layers.ErrMissing)
	}
	return m.db.Probe(p)
}
