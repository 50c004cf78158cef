package search

import (
	"context"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// WinScore is the score of a won position at the root. A win at ply n from
// the root scores WinScore-n, a loss at ply n -WinScore+n; every score whose
// absolute value is at least WinScore-1000 is such a proven result, every
// other score is a heuristic evaluation (a stone is worth 100).
const WinScore = winScore

const (
	winScore = 30000
	winBound = winScore - 1000 // scores beyond ±winBound are proven wins and losses
	infScore = 32000           // beyond any score

	searchMaxPly   = 128  // deepest ply of the search, quiescence included
	searchMaxDepth = 64   // deepest iteration of an automatic search
	searchQDepth   = 8    // removals the quiescence step follows
	searchPollMask = 1023 // check ctx and the clock every 1024 nodes
	searchHistCap  = 128  // positions of the game history checked for repetition
)

// Limits bounds a search. Depth > 0 searches that many plies (iterative
// deepening up to it); Depth 0 is automatic: deepen until MoveTime is used
// (1 second when MoveTime is 0). With both set, the search stops at
// whichever limit comes first.
type Limits struct {
	Depth    int
	MoveTime time.Duration
}

// SearchOptions switch off the enhancements of the search one by one, to
// measure what each contributes; the zero value enables everything.
//
//	NoTT          no transposition table (neither cut-offs nor table move)
//	NoOrdering    moves in generation order, apart from the table move:
//	              no removals first, no killer or history moves
//	NoPVS         every move searched with the full window
//	NoAspiration  every iteration starts with the full window
//	NoQuiescence  the evaluation at the horizon, without resolving mills
//	NoPruning     minimax: every child searched with the full window, so
//	              nothing is cut off; implies NoTT, NoPVS and NoAspiration
//	TTBits        table of 2^TTBits entries of 16 bytes (0: DefaultTTBits)
type SearchOptions struct {
	NoTT, NoOrdering, NoPVS, NoAspiration, NoQuiescence, NoPruning bool
	TTBits                                                         int
}

// SearchResult is the outcome of a search. Score is from the view of the
// side to move (see WinScore); Depth the last iteration completed; Nodes
// the positions visited, quiescence included; PV the expected line,
// starting with Move. Exact reports that Score is the game-theoretic value
// and not an estimate: a proven win or loss, or a root whose every child
// the database knows.
type SearchResult struct {
	Move  muehle.Move
	Score int
	Depth int
	Nodes uint64
	PV    []muehle.Move
	Exact bool
}

// searcher holds the state of one search and the buffers reused across
// searches, so that the node loop does not allocate.
type searcher struct {
	opt   SearchOptions
	tt    *ttTable
	probe layers.Prober
	kept  layers.KeptProber // probe, when it can leave out a won position's depth
	miss  probeLayerCache
	tr    *tracer // records the tree of the search when set (tree.go)

	ctx         context.Context
	deadline    time.Time
	useDeadline bool
	stopped     bool
	nodes       uint64

	// keys[:nkeys] are the Zobrist keys of the game's recent positions and
	// of the path to the current node; rev[ply] is the index in keys of the
	// first position since the last irreversible move (a placement or a
	// removal) before the node at ply.
	keys  [searchHistCap + searchMaxPly + 1]uint64
	nkeys int
	rev   [searchMaxPly + 1]int

	stack   [searchMaxPly + 1]muehle.Position // stack[ply]: the node at ply (children live here, not on the heap)
	moves   [searchMaxPly][muehle.MaxMoves]muehle.Move
	scores  [searchMaxPly][muehle.MaxMoves]int32
	pv      [searchMaxPly + 1][searchMaxPly]muehle.Move
	pvLen   [searchMaxPly + 1]int
	killers [searchMaxPly][2]muehle.Move
	history historyTable
}

// historyTable holds the history scores of quiet moves by side to move,
// origin (From+1: 0 for a placement) and target, sized for every board
// (muehle.MaxPoints), not only the standard board's 24 points.
type historyTable [2][muehle.MaxPoints + 1][muehle.MaxPoints]int32

// poll counts a node and reports whether the search must stop: ctx is
// cancelled or the deadline has passed, checked every 1024 nodes.
func (s *searcher) poll() bool {
	s.nodes++
	if s.nodes&searchPollMask == 0 && !s.stopped {
		if s.ctx.Err() != nil || (s.useDeadline && time.Now().After(s.deadline)) {
			s.stopped = true
		}
	}
	return s.stopped
}

// push appends the key of the child reached by m from the node at ply.
func (s *searcher) push(key uint64, m muehle.Move, ply int) {
	if m.IsPlacement() || m.IsRemoval() {
		s.rev[ply+1] = s.nkeys
	} else {
		s.rev[ply+1] = s.rev[ply]
	}
	s.keys[s.nkeys] = key
	s.nkeys++
}

// repeated reports whether the position at ply (the last key) occurred
// before on the path or in the game since the last irreversible move.
// Positions with the same side to move are an even number of plies apart,
// and a slide needs four plies to come back.
func (s *searcher) repeated(ply int) bool {
	i := s.nkeys - 1
	k := s.keys[i]
	for j := i - 4; j >= s.rev[ply]; j -= 2 {
		if s.keys[j] == k {
			return true
		}
	}
	return false
}

// setProbe makes p the database the searcher reads (nil: none).
func (s *searcher) setProbe(p layers.Prober) {
	s.probe = p
	s.kept, _ = p.(layers.KeptProber)
}

// probeDB returns the score of pos at ply from the database, if the
// database has its layer: the exact score, or, for a position the database
// keeps as won without its depth (layers.KeptProber: compressed form 2
// finds the depth by a ply of probes), when even the slowest win scores
// at or above beta, the score of the slowest win: a lower bound at or
// above beta, what a node that fails high returns. So the depth of a won
// position is read only when the window needs it.
func (s *searcher) probeDB(pos *muehle.Position, ply int, beta int32) (int32, bool) {
	if s.probe == nil {
		return 0, false
	}
	miss := s.miss.missing(pos)
	if miss == nil || *miss {
		return 0, false
	}
	var v layers.Value
	var err error
	if s.kept != nil {
		var kept bool
		v, kept, err = s.kept.ProbeKept(*pos)
		if err == nil && !kept {
			if slowest := winScore - int32(ply+layers.MaxDepth); slowest >= beta {
				return slowest, true
			}
			v, err = s.probe.Probe(*pos)
		}
	} else {
		v, err = s.probe.Probe(*pos)
	}
	if err != nil {
		*miss = true
		return 0, false
	}
	return ProbeScore(v, ply)
}

// updatePV makes m followed by the child's line the line of the node at ply.
func (s *searcher) updatePV(ply int, m muehle.Move) {
	s.pv[ply][0] = m
	n := copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
	s.pvLen[ply] = n + 1
}

// node searches pos, the last position of keys, depth plies deep, and
// returns its score for the side to move: exact inside (alpha, beta), an
// upper bound at or below alpha, a lower bound at or above beta. With a
// tracer the node is recorded.
func (s *searcher) node(pos *muehle.Position, depth, ply int, alpha, beta int32, pvNode bool) int32 {
	if s.tr != nil {
		s.tr.enter(pos, depth, alpha, beta, false)
		sc := s.search(pos, depth, ply, alpha, beta, pvNode)
		s.tr.leave(sc)
		return sc
	}
	return s.search(pos, depth, ply, alpha, beta, pvNode)
}

// childWindow returns the window a child of a node searched in (alpha,
// beta) is searched in: the negated window, or without pruning (minimax)
// the full one.
func (s *searcher) childWindow(alpha, beta int32) (int32, int32) {
	if s.opt.NoPruning {
		return -infScore, infScore
	}
	return -beta, -alpha
}

// search is node without the tracer.
func (s *searcher) search(pos *muehle.Position, depth, ply int, alpha, beta int32, pvNode bool) int32 {
	s.pvLen[ply] = 0
	if s.poll() {
		return 0
	}
	if ply > 0 {
		if s.repeated(ply) {
			return 0
		}
		if sc, ok := s.probeDB(pos, ply, beta); ok {
			return sc
		}
	}
	if pos.Rules().Lost(pos.Total(pos.Turn)) {
		return -winScore + int32(ply)
	}
	if depth <= 0 || ply >= searchMaxPly-1 {
		return s.leaf(pos, ply, searchQDepth, alpha, beta)
	}
	key := s.keys[s.nkeys-1]
	ttMove := muehle.NoMove
	if !s.opt.NoTT {
		if e, ok := s.tt.probe(key); ok {
			ttMove = e.ttMove()
			if !pvNode && int(e.depth) >= depth {
				sc := ttScoreFromTable(int32(e.score), ply)
				switch {
				case e.bound == ttExact,
					e.bound == ttLower && sc >= beta,
					e.bound == ttUpper && sc <= alpha:
					return sc
				}
			}
		}
	}
	moves := pos.AppendMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		if pos.IsDrawn() {
			return 0 // a full board drawn by the rules
		}
		return -winScore + int32(ply) // blocked
	}
	s.order(pos, moves, ply, ttMove)
	alpha0 := alpha
	best, bestMove := int32(-infScore), muehle.NoMove
	for i := range moves {
		m := s.pick(moves, ply, i)
		child := &s.stack[ply+1]
		*child = pos.Play(m)
		s.push(zobristAfter(key, pos, m), m, ply)
		if s.tr != nil {
			s.tr.child(m, i, s.scores[ply][i])
		}
		var sc int32
		if i == 0 || s.opt.NoPVS {
			lo, hi := s.childWindow(alpha, beta)
			sc = -s.node(child, depth-1, ply+1, lo, hi, pvNode)
		} else {
			sc = -s.node(child, depth-1, ply+1, -alpha-1, -alpha, false)
			if sc > alpha && sc < beta {
				sc = -s.node(child, depth-1, ply+1, -beta, -alpha, true)
			}
		}
		s.nkeys--
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestMove = sc, m
			if sc > alpha {
				alpha = sc
				s.updatePV(ply, m)
				if sc >= beta {
					s.cutoff(pos, m, depth, ply)
					if s.tr != nil {
						s.tr.cut(moves[i+1:], s.scores[ply][i+1:len(moves)])
					}
					break
				}
			}
		}
	}
	if !s.opt.NoTT {
		bound := ttUpper
		switch {
		case best >= beta:
			bound = ttLower
		case best > alpha0:
			bound = ttExact
		}
		s.tt.store(key, depth, ttScoreToTable(best, ply), bound, bestMove)
	}
	return best
}

// qnode is a node of the quiescence step, reached by a removal at the
// horizon. A removal cannot repeat a position and the table is not used.
// With a tracer the node is recorded.
func (s *searcher) qnode(pos *muehle.Position, ply, qleft int, alpha, beta int32) int32 {
	if s.tr != nil {
		s.tr.enter(pos, 0, alpha, beta, true)
		sc := s.qsearch(pos, ply, qleft, alpha, beta)
		s.tr.leave(sc)
		return sc
	}
	return s.qsearch(pos, ply, qleft, alpha, beta)
}

// qsearch is qnode without the tracer.
func (s *searcher) qsearch(pos *muehle.Position, ply, qleft int, alpha, beta int32) int32 {
	s.pvLen[ply] = 0
	if s.poll() {
		return 0
	}
	if sc, ok := s.probeDB(pos, ply, beta); ok {
		return sc
	}
	if pos.Rules().Lost(pos.Total(pos.Turn)) {
		return -winScore + int32(ply)
	}
	return s.leaf(pos, ply, qleft, alpha, beta)
}

// leaf scores a position at the horizon: lost when the side to move is
// blocked (drawn when the rules draw it: a full board), otherwise the evaluation, or, when the side to move can close a
// mill, the better of the evaluation and the removals (quiescence).
func (s *searcher) leaf(pos *muehle.Position, ply, qleft int, alpha, beta int32) int32 {
	if pos.Hand[pos.Turn] == 0 && pos.Blocked() {
		if pos.IsDrawn() {
			return 0
		}
		return -winScore + int32(ply)
	}
	stand := evalPosition(pos)
	if s.tr != nil {
		s.tr.eval(stand)
	}
	if s.opt.NoQuiescence || qleft == 0 || ply >= searchMaxPly-1 || stand >= beta || !canCloseMill(pos) {
		return stand
	}
	best := stand
	alpha = max(alpha, stand)
	moves := pos.AppendMoves(s.moves[ply][:0])
	rank := 0
	for i, m := range moves {
		if !m.IsRemoval() {
			continue
		}
		child := &s.stack[ply+1]
		*child = pos.Play(m)
		if s.tr != nil {
			s.tr.child(m, rank, orderRemoval)
			rank++
		}
		lo, hi := s.childWindow(alpha, beta)
		sc := -s.qnode(child, ply+1, qleft-1, lo, hi)
		if s.stopped {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				s.updatePV(ply, m)
				if sc >= beta {
					if s.tr != nil {
						s.tr.cutRemovals(moves[i+1:])
					}
					break
				}
			}
		}
	}
	return best
}

// canCloseMill reports whether the side to move has a move that closes a
// mill and removes a stone.
func canCloseMill(pos *muehle.Position) bool {
	return pos.Stones[pos.Turn^1] != 0 && millTargets(pos, pos.Turn) != 0
}

// Move ordering scores: the table move, then removals, then moves to the
// empty point of an opponent's potential mill, then killers, then history.
const (
	orderTT      = 1 << 30
	orderRemoval = 1 << 26
	orderBlock   = 1 << 25
	orderKiller0 = 1 << 24
	orderKiller1 = 1 << 23
)

// order scores the moves of the node at ply for pick.
func (s *searcher) order(pos *muehle.Position, moves []muehle.Move, ply int, ttMove muehle.Move) {
	sc := s.scores[ply][:len(moves)]
	if s.opt.NoOrdering {
		for i, m := range moves {
			sc[i] = 0
			if m == ttMove {
				sc[i] = orderTT
			}
		}
		return
	}
	c := pos.Turn
	threats := pos.Rules().Board.MillTargets(pos.Stones[c^1], pos.Empty())
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	hist := &s.history[c]
	for i, m := range moves {
		var v int32
		switch {
		case m == ttMove:
			v = orderTT
		case m.IsRemoval():
			v = orderRemoval
		case threats.Has(m.To):
			v = orderBlock
		case m == k0:
			v = orderKiller0
		case m == k1:
			v = orderKiller1
		default:
			v = hist[m.From+1][m.To]
		}
		sc[i] = v
	}
}

// pick moves the best-scored of moves[i:] to i and returns it.
func (s *searcher) pick(moves []muehle.Move, ply, i int) muehle.Move {
	return pickBest(moves, s.scores[ply][:len(moves)], i)
}

// pickBest moves the move of moves[i:] with the highest score in sc (the
// first of equals) to i, with its score, and returns it.
func pickBest(moves []muehle.Move, sc []int32, i int) muehle.Move {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	sc[i], sc[b] = sc[b], sc[i]
	return moves[i]
}

// cutoff remembers a quiet move that refuted the node at ply: as a killer
// of that ply and in the history table.
func (s *searcher) cutoff(pos *muehle.Position, m muehle.Move, depth, ply int) {
	if m.IsRemoval() {
		return
	}
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	h := &s.history[pos.Turn][m.From+1][m.To]
	*h += int32(depth * depth)
	if *h > orderKiller1/2 {
		s.ageHistory()
	}
}

// ageHistory halves the history table, so that recent cut-offs count more.
func (s *searcher) ageHistory() {
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= 2
			}
		}
	}
}

// outcome returns the outcome of pos for its side to move, and whether
// the database knows it. It asks for the outcome alone where the database
// can say it more cheaply (layers.OutcomeProber: in compressed form 2 a
// won position's depth costs a probe of each child).
func (s *searcher) outcome(pos muehle.Position) (layers.Outcome, bool) {
	var o layers.Outcome
	switch p := s.probe.(type) {
	case nil:
		return layers.NoOutcome, false
	case layers.OutcomeProber:
		var err error
		if o, err = p.ProbeOutcome(pos); err != nil {
			return layers.NoOutcome, false
		}
	default:
		v, err := s.probe.Probe(pos)
		if err != nil {
			return layers.NoOutcome, false
		}
		o = v.Outcome()
	}
	return o, o != layers.NoOutcome
}
