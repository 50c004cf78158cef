package search

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// CCNS is the conspiracy number player: controlled conspiracy number search
// (Cc2s, U. Lorenz 2000; the algorithm is in ccns.go) on our move generator
// and evaluation, with a time budget per move. It implements muehle.Player;
// it is not safe for concurrent use.
//
// Design. The root's moves are generated and each child gets a point value;
// then the root safety sequence (1,1), (2,1), (3,1), (4,1), (4,2), (5,2),
// (6,2), … asks, pair (d, C) by pair, for a best move whose child is shown
// to be at least x and every other child at most x, each bound by C
// leaf-disjoint strategies whose leaves lie at least d plies below the
// root (DetermineMove and Cc2s of the seed). The search tree stays in
// memory from one pair to the next and is dropped after the move. A CUT
// node splits a conspiracy number of 2 onto two supporting children only
// where the target's remaining depth is below 2 (the seed's ConNerS
// heuristic); above, one child carries it. The tree's transposition
// tables keep fulfilled ≤ and ≥ targets (2^16 entries each) and drop an
// entry when its target fails.
//
// Evaluation. A node is evaluated by the alpha-beta searcher of search.go,
// EvalDepth plies deep (2: the seed found a depth-2 search with quiescence
// stable enough, a bare static evaluation not), with its quiescence step
// for pending mills and its own transposition table. A first evaluation of
// a node is a cheap null-window search around the bound its parent's
// target asks about; a node evaluated before gets a point value (a
// full-window search), and a node with a point value is never evaluated
// again. Scores are those of SearchResult.Score: the side to move's view,
// a stone 100; a bound value (≤ z, ≥ z) is a fail-soft alpha-beta bound.
//
// What is exact. A position the database has (probed exactly as the
// alpha-beta player probes: every node but the root), a position whose
// side to move has lost (fewer stones than its rules' LoseBelow, or blocked), a board
// full in a game where that is a draw, a repetition of a position since
// the last placement or removal (on the path or in the game, a draw, as
// in the alpha-beta player), and a proven win or loss found by an
// evaluation's search (a score beyond ±(WinScore-1000)) are exact: a point
// value that is never expanded; a node whose children are all exact becomes
// exact with their best value. The seed leaves such leaves open (Satz
// 2.2-7 accepts them).
//
// Nine Men's Morris. A move is a ply including its removal: a move that
// closes a mill is one child per stone it may remove, so the removal is
// searched like any choice and never split from its move. Placement,
// sliding and flying need nothing special: the move generator knows the
// phase, and a side that flies (its rules' FlyAt) simply has more children. Children
// are examined best first by the static evaluation of the position they
// reach (the seed's pre-sorting). The tree is at most 64 plies deep: a node
// there is taken at its evaluation, exactly.
//
// Choices the seed leaves open, and ours: no # targets and no principal
// variation (so no third table); no root window (the seed's δ = 7 in
// chess, here RootSlack, 0 by default); no repeated re-evaluation in
// windows (each node is evaluated at most twice); a CUT node's conspiracy
// number γ ≥ 2 is split ⌈γ/2⌉ and ⌊γ/2⌋; a round of Cc2s or
// DetermineMove that makes no evaluation gives up rather than repeat
// itself. Among root moves with the same point value the player chooses
// at random when it has a random source.
//
// Time. The root's children are evaluated whatever the budget (only a
// cancelled ctx stops them), so there is always a move; the sequence then
// runs until the budget is spent, its next pair would start after half of
// it, every root child is exact, Steps pairs are done, or the tree holds
// MaxNodes nodes. The move is the best of the last pair completed (after
// the root's evaluation: the best child by its point value). TraceCCNS
// (ccns_tree.go) records the search's tree.
type CCNS struct {
	// EvalDepth is the depth of the alpha-beta search that evaluates a
	// node (0: CCNSEvalDepth).
	EvalDepth int
	// MaxNodes bounds the search tree (0: CCNSMaxNodes).
	MaxNodes int
	// RootSlack widens the root's targets (the seed's root window): the
	// best child must show x-RootSlack, the others x+RootSlack.
	RootSlack int32
	// Steps, when above 0, ends the safety sequence after that many
	// pairs: with a budget that suffices, the search then does not depend
	// on the clock (TraceCCNS records such searches).
	Steps int

	moveTime time.Duration
	rng      *rand.Rand
	probe    layers.Prober
	s        *searcher
	tt       *ttTable
	hist     []uint64  // keys of the game since its last placement or removal, the root last
	ps       []ccnsPos // the positions of the search tree's nodes
	path     []int32   // scratch: a node's ancestors
	moves    []muehle.Move
	order    []ccnsChild
}

// The CCNS player's defaults.
const (
	CCNSEvalDepth = 2       // plies of the alpha-beta search evaluating a node
	CCNSMaxNodes  = 1 << 21 // nodes of the search tree (about 250 MB of heap; docs/search.md on 10 s)
	ccnsMaxPly    = 64      // deepest node of the tree
	ccnsTTBits    = 16      // entries of each table of fulfilled targets
	ccnsMaxDepth  = 60      // deepest pair of the safety sequence
)

// ccnsPos is a node's position, with what repetitions and the root's move need.
type ccnsPos struct {
	pos    muehle.Position
	key    uint64
	parent int32
	ply    int16
	irrev  bool        // reached by a placement or a removal
	move   muehle.Move // the move from the parent
}

// ccnsChild is a child with its ordering score.
type ccnsChild struct {
	m  muehle.Move
	sc int32
}

// CCNSResult is the outcome of a conspiracy number search. Score is the
// best move's value from the view of the side to move (see WinScore);
// Depth and Conspiracy the last pair of the safety sequence completed (0
// before the first); Nodes the search tree's nodes, Evaluations the
// evaluations of its nodes, SearchNodes the positions the evaluations'
// alpha-beta searches visited. Exact reports a game-theoretic Score.
type CCNSResult struct {
	Move        muehle.Move
	Score       int
	Depth       int
	Conspiracy  int
	Nodes       int
	Evaluations uint64
	SearchNodes uint64
	Exact       bool
}

// NewCCNS returns a conspiracy number player with moveTime per move
// (0: DefaultMoveTime). src chooses among root moves of equal point value
// (nil: the first); probe may be nil.
func NewCCNS(moveTime time.Duration, src rand.Source, probe layers.Prober) *CCNS {
	c := &CCNS{moveTime: moveTime, probe: probe}
	if src != nil {
		c.rng = rand.New(src)
	}
	return c
}

// Name describes the player: "Conspiracy numbers (1s)".
func (c *CCNS) Name() string { return fmt.Sprintf("Conspiracy numbers (%s)", c.limit()) }

// limit returns the time per move.
func (c *CCNS) limit() time.Duration {
	if c.moveTime > 0 {
		return c.moveTime
	}
	return DefaultMoveTime
}

// Reset forgets the evaluation searcher's table; call it when a new game starts.
func (c *CCNS) Reset() {
	if c.tt != nil {
		c.tt.clear()
		c.tt.gen = 0
	}
}

// Move returns the move the search chooses for the current position of g;
// with a single legal move it returns that move without searching. It
// returns ctx.Err() when ctx is cancelled.
func (c *CCNS) Move(ctx context.Context, g *muehle.Game) (muehle.Move, error) {
	return searchedMove(ctx, g, func() (muehle.Move, error) {
		r, err := c.Search(ctx, g)
		return r.Move, err
	})
}

// Search searches the current position of g within the time per move. It
// returns ctx.Err() when ctx is cancelled, and an error wrapping
// muehle.ErrNoMove when the game is over.
func (c *CCNS) Search(ctx context.Context, g *muehle.Game) (CCNSResult, error) {
	run, err := c.run(ctx, g, false)
	return run.res, err
}

// ccnsRun is a finished search: its result, its tree, and the root's
// decision, the best child and its value x after the last pair completed
// (step; pairs counts the pairs completed).
type ccnsRun struct {
	res   CCNSResult
	cs    *cnSearch[int32]
	best  int32
	x     int32
	step  cnStep
	pairs int
}

// run is Search; traced keeps each node's last target for TraceCCNS.
func (c *CCNS) run(ctx context.Context, g *muehle.Game, traced bool) (ccnsRun, error) {
	if r, why := g.Result(); r != muehle.Ongoing {
		return ccnsRun{}, fmt.Errorf("search: ccns: %w: %s (%s)", muehle.ErrNoMove, r, why)
	}
	if err := ctx.Err(); err != nil {
		return ccnsRun{}, err
	}
	start := time.Now()
	limit := c.limit()
	s := c.prepare(ctx, g)
	c.ps = append(c.ps[:0], ccnsPos{pos: g.Position(), key: c.hist[len(c.hist)-1], parent: -1})
	cs := newCNSearch[int32](c, 0, ccnsTTBits)
	cs.splitBelow = 2
	cs.traced = traced
	cs.maxNodes = cmp.Or(c.MaxNodes, CCNSMaxNodes)
	cs.stop = func() bool {
		if !s.stopped && (ctx.Err() != nil || (s.useDeadline && time.Now().After(s.deadline))) {
			s.stopped = true
		}
		return s.stopped
	}
	s.deadline = start.Add(limit)

	s.useDeadline = false // the root's children are evaluated whatever the budget
	if !cs.initRoot() {
		return ccnsRun{}, ctx.Err()
	}
	s.useDeadline = true
	b, x := cs.best()
	if b < 0 {
		return ccnsRun{}, fmt.Errorf("search: ccns: %w", muehle.ErrNoMove)
	}
	var step cnStep
	pairs := 0
	for i := 0; c.Steps <= 0 || i < c.Steps; i++ {
		if cs.nodes[0].exact || time.Since(start) > limit/2 {
			break
		}
		st := cnSequence(i)
		if st.Depth > ccnsMaxDepth {
			break
		}
		nb, nx, r := cs.determine(st.Depth, st.Conspiracy, c.RootSlack)
		if r == cnAbort || cs.stopped {
			break
		}
		b, x, step, pairs = nb, nx, st, i+1
	}
	if err := ctx.Err(); err != nil {
		return ccnsRun{}, err
	}
	r := CCNSResult{
		Move: c.ps[cs.pos[b]].move, Score: int(x), Depth: step.Depth, Conspiracy: step.Conspiracy,
		Nodes: len(cs.nodes), Evaluations: cs.evals, SearchNodes: s.nodes,
		Exact: cs.nodes[0].exact || (cs.nodes[b].exact && x >= winBound),
	}
	if c.rng != nil {
		r.Move = c.pickTie(cs, b, r.Move)
	}
	return ccnsRun{res: r, cs: cs, best: b, x: x, step: step, pairs: pairs}, nil
}

// pickTie returns a random one of the root's moves whose point value
// equals that of child b (m, b's move, when b has no point value).
func (c *CCNS) pickTie(cs *cnSearch[int32], b int32, m muehle.Move) muehle.Move {
	wb := cs.nodes[b].w
	if wb.a != cnPoint {
		return m
	}
	var ties []muehle.Move
	n := cs.nodes[0]
	for k := n.first; k < n.first+n.seen; k++ {
		if cs.nodes[k].w == wb {
			ties = append(ties, c.ps[cs.pos[k]].move)
		}
	}
	if len(ties) < 2 {
		return m
	}
	return ties[c.rng.IntN(len(ties))]
}

// prepare readies the evaluation searcher: table, cleared counters, the
// game's keys since its last placement or removal.
func (c *CCNS) prepare(ctx context.Context, g *muehle.Game) *searcher {
	if c.s == nil {
		c.s = new(searcher)
	}
	s := c.s
	if c.tt == nil {
		c.tt = newTT(DefaultTTBits)
	}
	c.tt.newSearch()
	s.opt, s.tt, s.tr = SearchOptions{}, c.tt, nil
	s.setProbe(c.probe)
	s.miss = probeLayerCache{}
	s.ctx, s.stopped, s.nodes = ctx, false, 0
	s.killers = [searchMaxPly][2]muehle.Move{}
	s.ageHistory()
	ps := g.Positions()
	first := len(ps) - 1
	for first > 0 && len(ps)-first < searchHistCap && reversible(&ps[first-1], &ps[first]) {
		first--
	}
	c.hist = c.hist[:0]
	for i := first; i < len(ps); i++ {
		c.hist = append(c.hist, zobristKey(&ps[i]))
	}
	return s
}

// Children appends the children of node p, best first by the static
// evaluation of the position each reaches (cnGame).
func (c *CCNS) Children(p int32, dst []int32) []int32 {
	e := c.ps[p]
	c.moves = e.pos.AppendMoves(c.moves[:0])
	c.order = c.order[:0]
	for _, m := range c.moves {
		child := e.pos.Play(m)
		c.order = append(c.order, ccnsChild{m, -evalPosition(&child)})
	}
	slices.SortStableFunc(c.order, func(a, b ccnsChild) int { return cmp.Compare(b.sc, a.sc) })
	for _, o := range c.order {
		dst = append(dst, int32(len(c.ps)))
		c.ps = append(c.ps, ccnsPos{
			pos: e.pos.Play(o.m), key: zobristAfter(e.key, &e.pos, o.m), parent: p, ply: e.ply + 1,
			irrev: o.m.IsPlacement() || o.m.IsRemoval(), move: o.m,
		})
	}
	return dst
}

// Key returns the Zobrist key of node p (cnGame).
func (c *CCNS) Key(p int32) uint64 { return c.ps[p].key }

// Evaluate scores node p for its side to move in the window (lo, hi)
// (cnGame): exactly where the game, the database or a repetition decides,
// else by the alpha-beta searcher EvalDepth plies deep.
func (c *CCNS) Evaluate(p int32, lo, hi int32) (int32, bool, bool) {
	s := c.s
	if s.stopped {
		return 0, false, false
	}
	e := &c.ps[p]
	pos, ply := e.pos, int(e.ply)
	c.setPath(p)
	switch {
	case ply > 0 && s.repeated(ply):
		return 0, true, true
	case pos.IsOver():
		return -winScore + int32(ply), true, true
	case pos.IsDrawn():
		return 0, true, true
	}
	if ply > 0 {
		if sc, ok := s.probeDB(&pos, ply, infScore); ok {
			return sc, true, true
		}
	}
	if ply >= ccnsMaxPly {
		return evalPosition(&pos), true, true
	}
	sc := s.node(&pos, min(cmp.Or(c.EvalDepth, CCNSEvalDepth), 32), ply, lo, hi, hi-lo > 1)
	if s.stopped {
		return 0, false, false
	}
	exact := (sc >= winBound && sc > lo) || (sc <= -winBound && sc < hi)
	return sc, exact, true
}

// setPath makes the searcher's keys those of the game and of the path to
// node p, p's last, and marks where the positions since the last placement
// or removal begin.
func (c *CCNS) setPath(p int32) {
	s := c.s
	c.path = c.path[:0]
	for q := p; q > 0; q = c.ps[q].parent {
		c.path = append(c.path, q)
	}
	s.nkeys = copy(s.keys[:], c.hist)
	rev := 0
	for i := len(c.path) - 1; i >= 0; i-- {
		e := &c.ps[c.path[i]]
		if e.irrev {
			rev = s.nkeys
		}
		s.keys[s.nkeys] = e.key
		s.nkeys++
	}
	s.rev[c.ps[p].ply] = rev
}
