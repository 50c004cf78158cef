package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// AlphaBeta is the alpha-beta player: iterative deepening under a depth or
// time limit, principal variation search, aspiration windows, a Zobrist
// transposition table, move ordering (table move, removals, blocking moves,
// killers, history), a quiescence step for pending mills, and exact values
// from the database where it has the layer. Among equally good moves at
// the root it chooses at random. It implements muehle.Player; it is not
// safe for concurrent use (give each goroutine its own, or serialise).
type AlphaBeta struct {
	lim   Limits
	rng   *rand.Rand
	probe layers.Prober
	opt   SearchOptions
	s     *searcher // allocated on the first search: about 1 MB
	tt    *ttTable  // kept across moves; reallocated when TTBits changes

	root []muehle.Move // the root moves, best of the last iteration first
	ties []muehle.Move // the root moves scoring as well as the best

	trace *tracer // records the tree of each iteration when set (tree.go)
}

// DefaultMoveTime is the time per move of an automatic search without MoveTime.
const DefaultMoveTime = time.Second

// NewAlphaBeta returns an alpha-beta player with the given limits. src
// chooses among equally good moves; with a nil src the player always plays
// the first of them (in move generation and ordering order) and saves the
// search that finds the others. probe may be nil.
func NewAlphaBeta(lim Limits, src rand.Source, probe layers.Prober) *AlphaBeta {
	a := &AlphaBeta{lim: lim, probe: probe}
	if src != nil {
		a.rng = rand.New(src)
	}
	return a
}

// SetOptions switches search enhancements off (for measurements) or sets
// the table size. It clears the transposition table.
func (a *AlphaBeta) SetOptions(o SearchOptions) {
	if o.NoPruning {
		o.NoTT, o.NoPVS, o.NoAspiration = true, true, true
	}
	a.opt = o
	a.tt = nil
}

// Reset forgets what earlier searches learnt: the transposition table and
// the killer and history tables. The next search behaves as that of a new
// player, with the same node count; call it when a new game starts.
func (a *AlphaBeta) Reset() {
	if a.tt != nil {
		a.tt.clear()
		a.tt.gen = 0
	}
	if a.s != nil {
		a.s.history = historyTable{}
	}
}

// Name describes the player: "Alpha-beta (depth 4)", "Alpha-beta (auto, 1s)"
// or "Alpha-beta (depth 6, 500ms)".
func (a *AlphaBeta) Name() string {
	switch {
	case a.lim.Depth > 0 && a.lim.MoveTime > 0:
		return fmt.Sprintf("Alpha-beta (depth %d, %s)", a.lim.Depth, a.lim.MoveTime)
	case a.lim.Depth > 0:
		return fmt.Sprintf("Alpha-beta (depth %d)", a.lim.Depth)
	}
	return fmt.Sprintf("Alpha-beta (auto, %s)", a.moveTime())
}

// moveTime returns the time limit, or 0 for none.
func (a *AlphaBeta) moveTime() time.Duration {
	if a.lim.MoveTime > 0 {
		return a.lim.MoveTime
	}
	if a.lim.Depth <= 0 {
		return DefaultMoveTime
	}
	return 0
}

// Move returns the move the search chooses for the current position of g;
// with a single legal move it returns that move without searching. It
// returns ctx.Err() when ctx is cancelled.
func (a *AlphaBeta) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	return searchedMove(ctx, g, func() (muehle.Move, error) {
		r, err := a.Search(ctx, g)
		return r.Move, err
	})
}

// searchedMove is the Move of a player that searches: ctx's error when it
// is cancelled, the single legal move without a search, otherwise the
// move search returns.
func searchedMove(ctx context.Context, g *muehle.Game, search func() (muehle.Move, error)) (muehle.Move, error) {
	if err := ctx.Err(); err != nil {
		return muehle.Move{}, err
	}
	if ms := g.LegalMoves(); len(ms) == 1 {
		return ms[0], nil
	}
	m, err := search()
	if err != nil {
		return muehle.Move{}, err
	}
	return m, nil
}

// Search searches the current position of g within the limits and returns
// the result of the deepest iteration completed. Positions of the game
// since its last placement or removal count as repetitions (a draw) when
// the search reaches them again. It returns ctx.Err() when ctx is
// cancelled, and an error wrapping muehle.ErrNoMove when the game is over.
func (a *AlphaBeta) Search(ctx context.Context, g *muehle.Game) (SearchResult, error) {
	if r, why := g.Result(); r != muehle.Ongoing {
		return SearchResult{}, fmt.Errorf("search: alpha-beta: %w: %s (%s)", muehle.ErrNoMove, r, why)
	}
	if err := ctx.Err(); err != nil {
		return SearchResult{}, err
	}
	start := time.Now()
	s := a.prepare(ctx, g)
	pos := g.Position()
	a.root = pos.AppendMoves(a.root[:0])

	// Order the root moves once; later iterations put the last best first.
	ttMove := muehle.NoMove
	if !a.opt.NoTT {
		if e, ok := s.tt.probe(s.keys[s.nkeys-1]); ok {
			ttMove = e.ttMove()
		}
	}
	s.order(&pos, a.root, 0, ttMove)
	for i := range a.root {
		s.pick(a.root, 0, i)
	}
	rootExact := a.rootInDB(&pos)

	maxDepth := a.lim.Depth
	if maxDepth <= 0 {
		maxDepth = searchMaxDepth
	}
	maxDepth = min(maxDepth, searchMaxDepth)
	limit := a.moveTime()
	s.deadline = start.Add(limit)

	var res SearchResult
	prev := int32(0)
	for d := 1; d <= maxDepth; d++ {
		s.useDeadline = limit > 0 && d > 1
		sc := a.aspiration(&pos, d, prev)
		if s.stopped {
			break
		}
		prev = sc
		res = a.result(sc, d, rootExact)
		if res.Exact || (limit > 0 && time.Since(start) > limit/2) {
			break
		}
	}
	res.Nodes = s.nodes
	if err := ctx.Err(); err != nil {
		return res, err
	}
	return res, nil
}

// prepare readies the searcher for a search of g: options, table,
// repetition keys from the game, cleared counters.
func (a *AlphaBeta) prepare(ctx context.Context, g *muehle.Game) *searcher {
	if a.s == nil {
		a.s = new(searcher)
	}
	s := a.s
	if a.tt == nil && !a.opt.NoTT {
		bits := a.opt.TTBits
		if bits == 0 {
			bits = DefaultTTBits
		}
		a.tt = newTT(bits)
	}
	if a.tt != nil {
		a.tt.newSearch()
	}
	s.opt, s.tt, s.tr = a.opt, a.tt, a.trace
	s.setProbe(a.probe)
	s.miss = probeLayerCache{}
	s.ctx, s.stopped, s.nodes = ctx, false, 0
	s.killers = [searchMaxPly][2]muehle.Move{}
	s.ageHistory()

	// The keys of the game's positions since the last irreversible move,
	// at most searchHistCap of them, the current position last.
	ps := g.Positions()
	first := len(ps) - 1
	for first > 0 && len(ps)-first < searchHistCap && reversible(&ps[first-1], &ps[first]) {
		first--
	}
	s.nkeys = 0
	for i := first; i < len(ps); i++ {
		s.keys[s.nkeys] = zobristKey(&ps[i])
		s.nkeys++
	}
	s.rev[0] = 0
	return s
}

// reversible reports whether the move from p to q was a slide or jump
// without removal: the only moves after which a position can recur.
func reversible(p, q *muehle.Position) bool {
	return p.Hand == q.Hand && p.Stones[0].Count() == q.Stones[0].Count() && p.Stones[1].Count() == q.Stones[1].Count()
}

// rootInDB reports whether the database knows every child of pos, so that
// a search of depth 1 gives the exact value. It then puts the root moves
// that win first, then those that draw, then those that lose, each group
// in its order before (their ordering scores move with them): the search
// reads the depth of a child won for the opponent, which compressed form
// 2 finds by a ply of probes, only where no move wins or draws (probeDB).
func (a *AlphaBeta) rootInDB(pos *muehle.Position) bool {
	if a.probe == nil {
		return false
	}
	var rank [muehle.MaxMoves]int8
	for i, m := range a.root {
		c := pos.Play(m)
		if c.IsOver() {
			continue // the move wins: rank 0
		}
		o, ok := a.s.outcome(c)
		if !ok {
			return false
		}
		switch o {
		case layers.Draw:
			rank[i] = 1
		case layers.Win: // for the opponent
			rank[i] = 2
		}
	}
	var moves [muehle.MaxMoves]muehle.Move
	var scores [muehle.MaxMoves]int32
	n, sc := 0, a.s.scores[0][:len(a.root)]
	for r := range int8(3) {
		for i, m := range a.root {
			if rank[i] == r {
				moves[n], scores[n] = m, sc[i]
				n++
			}
		}
	}
	copy(a.root, moves[:n])
	copy(sc, scores[:n])
	return true
}

// aspiration searches the root d plies deep, first in a window around the
// score of the previous iteration, widening it on failure.
func (a *AlphaBeta) aspiration(pos *muehle.Position, d int, prev int32) int32 {
	s := a.s
	if a.opt.NoAspiration || d < 3 || prev >= winBound || prev <= -winBound {
		return a.searchRoot(pos, d, -infScore, infScore)
	}
	delta := int32(40)
	lo, hi := prev-delta, prev+delta
	for {
		sc := a.searchRoot(pos, d, lo, hi)
		if s.stopped {
			return 0
		}
		switch {
		case sc <= lo:
			lo = max(-infScore, lo-delta)
		case sc >= hi:
			hi = min(infScore, hi+delta)
		default:
			return sc
		}
		delta *= 4
		if delta > 1000 {
			lo, hi = -infScore, infScore
		}
	}
}

// searchRoot searches the root moves d plies deep in the window (alpha,
// beta). With a random source it also collects in a.ties every move that
// scores exactly as well as the best: later moves are tested against
// best-1 instead of best, which costs a re-search for each tie.
func (a *AlphaBeta) searchRoot(pos *muehle.Position, d int, alpha, beta int32) int32 {
	s := a.s
	s.pvLen[0] = 0
	if s.poll() {
		return 0
	}
	if s.tr != nil {
		s.tr.root(pos, d, alpha, beta)
	}
	wantTies := a.rng != nil
	key := s.keys[s.nkeys-1]
	alpha0 := alpha
	best := int32(-infScore)
	bestAt := 0
	a.ties = a.ties[:0]
	for i, m := range a.root {
		child := &s.stack[1]
		*child = pos.Play(m)
		s.push(zobristAfter(key, pos, m), m, 0)
		if s.tr != nil {
			s.tr.child(m, i, s.scores[0][i])
		}
		var sc int32
		if i == 0 {
			lo, hi := s.childWindow(alpha, beta)
			sc = -s.node(child, d-1, 1, lo, hi, true)
		} else {
			lo := alpha
			if wantTies && best >= alpha {
				lo = alpha - 1
			}
			if a.opt.NoPVS {
				cl, ch := s.childWindow(lo, beta)
				sc = -s.node(child, d-1, 1, cl, ch, true)
			} else {
				sc = -s.node(child, d-1, 1, -lo-1, -lo, false)
				if sc > lo && sc < beta {
					sc = -s.node(child, d-1, 1, -beta, -lo, true)
				}
			}
		}
		s.nkeys--
		if s.stopped {
			return 0
		}
		switch {
		case sc > best:
			best, bestAt = sc, i
			a.ties = append(a.ties[:0], m)
			if sc > alpha {
				alpha = sc
				s.updatePV(0, m)
			}
		case sc == best && wantTies && sc > alpha0:
			a.ties = append(a.ties, m)
		}
		if best >= beta {
			if s.tr != nil {
				s.tr.cut(a.root[i+1:], s.scores[0][i+1:len(a.root)])
			}
			break
		}
	}
	if s.tr != nil {
		s.tr.leave(best)
	}
	// The best move goes first for the next iteration; the others keep
	// their order. Their ordering scores move with them (the tree shows
	// them).
	if bestAt > 0 {
		m, sc := a.root[bestAt], s.scores[0][bestAt]
		copy(a.root[1:bestAt+1], a.root[:bestAt])
		copy(s.scores[0][1:bestAt+1], s.scores[0][:bestAt])
		a.root[0], s.scores[0][0] = m, sc
	}
	if s.pvLen[0] == 0 { // failed low: no line, but keep the best move
		s.pv[0][0], s.pvLen[0] = a.root[0], 1
	}
	return best
}

// result builds the result of a completed iteration of depth d with score sc.
func (a *AlphaBeta) result(sc int32, d int, rootExact bool) SearchResult {
	s := a.s
	r := SearchResult{
		Move:  s.pv[0][0],
		Score: int(sc),
		Depth: d,
		PV:    append([]muehle.Move(nil), s.pv[0][:s.pvLen[0]]...),
		Exact: rootExact || sc >= winBound || sc <= -winBound,
	}
	if a.rng != nil && len(a.ties) > 1 {
		if m := a.ties[a.rng.IntN(len(a.ties))]; m != r.Move {
			r.Move, r.PV = m, []muehle.Move{m}
		}
	}
	return r
}
