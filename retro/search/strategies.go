package search

import (
	"fmt"

	"muehle/layers"
	"muehle/muehle"
)

// Leaf-disjoint strategies for a position's true value, the measure of
// Lorenz's search-with-errors experiment (§4.5 of the seed; muehlectl
// searcherrors).
//
// The tree is the full-width game tree of a position, depth plies deep: a
// node at that depth, or one whose side to move has lost, is a leaf; a leaf
// carries its true value, the database's outcome (won, drawn, lost; the
// distance does not count). A strategy for the bound "at least x" of the
// side to move at the root is a subtree that holds one child at each node
// where that side moves and every child where the other side moves, all
// its leaves worth at least x to that side (the seed's Def. 1.8-5; "at most
// x" is the other side's strategy). Two strategies are leaf-disjoint when
// they share no leaf. The tree holds n leaf-disjoint strategies for the
// position's true value v when it holds n for "at least v" (unless v is a
// loss, where that bound is empty) and n for "at most v" (unless v is a
// win): a won position needs n for "won", a lost one n for "lost", a drawn
// one n for "at least drawn" and n for "at most drawn". By Satz 2.1-1, n is
// the least number of leaves whose values must change for the minimax
// value of the tree to leave v. Repetitions inside the tree are not
// treated specially: a position is worth its database value wherever it
// stands.
//
// The count is the recursion of conspiracy numbers for bounds: a leaf
// counts 1 when its value keeps the bound and 0 otherwise; a node where the
// bound's side moves (a CUT node) adds its children's counts, a node where
// the other side moves (an ALL node) takes their least. Since the
// database's values are themselves minimax values, a node whose own true
// value breaks the bound counts 0 without looking further, and every child
// of an ALL node keeps it.

// strategyTree is a game tree with true values, for countStrategies.
type strategyTree[P any] interface {
	// Children appends the children of p to dst (none at the end of the game).
	Children(p P, dst []P) ([]P, error)
	// Outcome is p's true value for its side to move: -1, 0 or 1.
	Outcome(p P) (int8, error)
}

// strategyKey names a count of countStrategies: the position, the depth
// below it, the bound.
type strategyKey[P comparable] struct {
	p     P
	depth int
	ge    bool
	x     int8
}

// strategyMemo remembers counts within one tree, which transposes often
// (flying sides jump anywhere).
type strategyMemo[P comparable] map[strategyKey[P]]strategyCount

// strategyCount is a remembered count: exact, or, when it reached the
// limit it was made with, "at least n".
type strategyCount struct {
	n     int
	exact bool
}

// countStrategies returns the number of leaf-disjoint strategies, at most
// limit, that show "at least x" (ge) or "at most x" for p's side to move in
// t's tree depth plies deep below p. memo may be nil.
func countStrategies[P comparable](t strategyTree[P], p P, depth int, ge bool, x int8, limit int, memo strategyMemo[P]) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	key := strategyKey[P]{p, depth, ge, x}
	if c, ok := memo[key]; ok && (c.exact || c.n >= limit) {
		return min(c.n, limit), nil
	}
	v, err := t.Outcome(p)
	if err != nil {
		return 0, err
	}
	if (ge && v < x) || (!ge && v > x) {
		return 0, nil
	}
	if depth <= 0 {
		return 1, nil
	}
	kids, err := t.Children(p, nil)
	if err != nil {
		return 0, err
	}
	if len(kids) == 0 {
		return 1, nil
	}
	var k int
	if ge { // CUT: any child keeping the bound starts strategies
		for _, c := range kids {
			n, err := countStrategies(t, c, depth-1, false, -x, limit-k, memo)
			if err != nil {
				return 0, err
			}
			if k += n; k >= limit {
				break
			}
		}
	} else { // ALL: every child must keep it
		k = limit
		for _, c := range kids {
			n, err := countStrategies(t, c, depth-1, true, -x, k, memo)
			if err != nil {
				return 0, err
			}
			if k = min(k, n); k <= 1 {
				break
			}
		}
	}
	k = min(k, limit)
	if memo != nil {
		memo[key] = strategyCount{k, k < limit}
	}
	return k, nil
}

// dbTree is the game tree with the database's values.
type dbTree struct{ db layers.Prober }

// Children returns the positions after each legal move.
func (d dbTree) Children(p muehle.Position, dst []muehle.Position) ([]muehle.Position, error) {
	for _, m := range p.Moves() {
		dst = append(dst, p.Play(m))
	}
	return dst, nil
}

// Outcome returns p's database outcome; a position whose side to move has
// lost is lost without asking.
func (d dbTree) Outcome(p muehle.Position) (int8, error) {
	if p.IsOver() {
		return -1, nil
	}
	if p.IsDrawn() {
		return 0, nil
	}
	v, err := d.db.Probe(p)
	if err != nil {
		return 0, err
	}
	if o := v.Outcome(); o != layers.NoOutcome {
		return int8(o), nil
	}
	return 0, fmt.Errorf("search: strategies: %v: %w", layers.KeyOf(p), layers.ErrMissing)
}

// Outcome returns the true value of pos for its side to move: lost when
// that side has lost by the rules, drawn on a full board where that is a
// draw, else db's outcome.
func Outcome(db layers.Prober, pos muehle.Position) (layers.Outcome, error) {
	v, err := dbTree{db}.Outcome(pos)
	if err != nil {
		return layers.NoOutcome, err
	}
	return layers.Outcome(v), nil
}

// Strategies returns the true value of pos from db (for its side to move)
// and the number of leaf-disjoint strategies for it, at most limit, in the
// full-width tree depth plies deep below pos (see the comment above
// countStrategies). Every position of the tree must be in db.
func Strategies(db layers.Prober, pos muehle.Position, depth, limit int) (layers.Outcome, int, error) {
	t := dbTree{db}
	v, err := t.Outcome(pos)
	if err != nil {
		return layers.NoOutcome, 0, err
	}
	n := limit
	for _, ge := range []bool{true, false} {
		if (ge && v == -1) || (!ge && v == 1) {
			continue // "at least lost", "at most won": no bound
		}
		k, err := countStrategies(t, pos, depth, ge, v, n, strategyMemo[muehle.Position]{})
		if err != nil {
			return layers.NoOutcome, 0, err
		}
		n = min(n, k)
	}
	return layers.Outcome(v), n, nil
}
