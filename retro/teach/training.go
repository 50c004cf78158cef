package teach

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"muehle/layers"
	"muehle/muehle"
)

// This file holds the training positions: positions drawn from the
// database where exactly one move (or at most a few) keeps the value, a
// win to find or the only drawing move, filtered by layers and difficulty,
// and the check of an answer with the refutation of a wrong one. The draw
// is seeded: the same seed, options and database give the same positions
// on every machine.

// Goal is what a training position asks the side to move to find.
type Goal uint8

// The goals. A lost position has none: every move keeps its value.
const (
	GoalAny  Goal = iota // in options: either goal
	FindWin              // the position is won: find a move that keeps the win
	HoldDraw             // the position is drawn: find a move that keeps the draw (the others lose)
)

// String returns "any", "find the win" or "hold the draw".
func (g Goal) String() string {
	switch g {
	case FindWin:
		return "find the win"
	case HoldDraw:
		return "hold the draw"
	}
	return "any"
}

// ParseGoal parses "any", "win" or "draw".
func ParseGoal(s string) (Goal, error) {
	switch s {
	case "any", "":
		return GoalAny, nil
	case "win":
		return FindWin, nil
	case "draw":
		return HoldDraw, nil
	}
	return GoalAny, fmt.Errorf("teach: goal %q: want any, win or draw", s)
}

// Band is a range of difficulty, in plies: for a win to find, the depth of
// the win (the plies to the end under perfect play); for a draw to hold,
// the depth of the slowest loss among the wrong moves (the longest
// refutation the player must see through).
type Band uint8

// The bands, from easy to deep; BandAny takes every difficulty.
const (
	BandAny    Band = iota
	BandEasy        // 1 to 5 plies
	BandMedium      // 6 to 15 plies
	BandHard        // 16 to 35 plies
	BandDeep        // 36 plies and more
)

// bands holds each band's name and range of plies, by Band.
var bands = [...]struct {
	name   string
	lo, hi int
}{
	BandAny:    {"any", 0, layers.MaxDepth},
	BandEasy:   {"easy", 0, 5},
	BandMedium: {"medium", 6, 15},
	BandHard:   {"hard", 16, 35},
	BandDeep:   {"deep", 36, layers.MaxDepth},
}

// Bands returns every band, BandAny first.
func Bands() []Band { return []Band{BandAny, BandEasy, BandMedium, BandHard, BandDeep} }

// String returns the band's name: "any", "easy", "medium", "hard" or "deep".
func (b Band) String() string {
	if int(b) < len(bands) {
		return bands[b].name
	}
	return fmt.Sprintf("Band(%d)", b)
}

// Range returns the smallest and the largest difficulty of the band, in plies.
func (b Band) Range() (lo, hi int) {
	if int(b) < len(bands) {
		return bands[b].lo, bands[b].hi
	}
	return 1, 0 // empty
}

// Contains reports whether difficulty d (plies) lies in the band.
func (b Band) Contains(d int) bool { lo, hi := b.Range(); return lo <= d && d <= hi }

// BandOf returns the band (not BandAny) that difficulty d lies in.
func BandOf(d int) Band {
	for _, b := range Bands()[1:] {
		if b.Contains(d) {
			return b
		}
	}
	return BandDeep
}

// ParseBand parses a band's name.
func ParseBand(s string) (Band, error) {
	for _, b := range Bands() {
		if b.String() == s {
			return b, nil
		}
	}
	return BandAny, fmt.Errorf("teach: difficulty %q: want any, easy (1-5 plies), medium (6-15), hard (16-35) or deep (36 and more)", s)
}

// TrainingLayers returns the layers of variant v that training positions
// may come from: the moving layers, and those with stones in hand too when
// placement is set (the placement layers, or in a game whose phases mix
// every layer with stones in hand: layers.OrderIn), with onBoard stones on
// the board in all (0: any number).
func TrainingLayers(v muehle.Variant, onBoard int, placement bool) []layers.Key {
	ks := layers.MovingLayers(v.Stones)
	if placement {
		ks = append(ks, slices.DeleteFunc(layers.OrderIn(v, true), layers.Key.IsMoving)...)
	}
	if onBoard > 0 {
		ks = slices.DeleteFunc(ks, func(k layers.Key) bool { return int(k.W)+int(k.B) != onBoard })
	}
	return ks
}

// TrainingOptions choose the training positions to draw.
type TrainingOptions struct {
	Layers     []layers.Key // the layers to draw from (TrainingLayers); absent and damaged ones are skipped
	Goal       Goal         // GoalAny: wins to find and draws to hold
	Band       Band         // the difficulty
	MaxAnswers int          // at most this many moves keep the value (at least 1); 0 means 1
	Count      int          // how many positions
	Seed       uint64
	// Tries bounds the slots drawn in all, whatever they hold; 0 means
	// 20,000 per position asked for. Fewer positions come back when the
	// database holds too few that fit.
	Tries int
}

// Exercise is one training position.
type Exercise struct {
	Pos   muehle.Position
	Layer layers.Key // the layer of Pos, and the slot its value is stored in
	Index uint64
	Value layers.Value // the value of Pos for the side to move
	Goal  Goal
	// Answers are the moves that keep the value, in generation order;
	// Moves counts the legal moves.
	Answers    []muehle.Move
	Moves      int
	Difficulty int // plies: see Band
}

// Band returns the band the exercise's difficulty lies in.
func (e Exercise) Band() Band { return BandOf(e.Difficulty) }

// TrainingDB is the database the training positions are drawn from;
// *layers.DB implements it.
type TrainingDB interface {
	layers.Prober
	Has(k layers.Key) bool
	Damage(k layers.Key) error
	Borrow(k layers.Key) (*layers.File, func(), error)
	Indexer() *layers.Indexer
	Variant() muehle.Variant // the game and its stones per side: drawn positions must arise in it
}

// SkippedLayer is a layer of the options that could not be drawn from.
type SkippedLayer struct {
	Key layers.Key
	Err error // wraps layers.ErrMissing; layers.Damaged tells a damaged one
}

// Training is the result of DrawTraining.
type Training struct {
	Exercises []Exercise
	Skipped   []SkippedLayer // layers absent or damaged: first those found at the start, in the order of the options
	Tries     int            // slots drawn
}

// trainingSeedMix is the second word of the generator's state, fixed so
// that a seed means the same everywhere.
const trainingSeedMix = 0x6d75656865747261 // "muehetra"

// DrawTraining draws training positions from db: slots drawn uniformly
// over the present, undamaged layers of opt.Layers by a PCG generator
// seeded with opt.Seed, each kept when its position is won or drawn, has
// at least two legal moves of which 1 to opt.MaxAnswers keep the value,
// fits opt.Goal and opt.Band, and was not drawn before. Every move's value
// is read from the database; a position where one cannot be read, or
// where they disagree with the position's own value, is passed over, never
// guessed. A kept position is shown under a random one of its board's
// symmetries, and a moving-phase position with a random side to move; a
// position that cannot arise in a game of db.Variant()
// (muehle.Position.CheckReachable) is passed over.
// It stops with ctx's error when ctx is done.
func DrawTraining(ctx context.Context, db TrainingDB, opt TrainingOptions) (Training, error) {
	var t Training
	maxAnswers := max(opt.MaxAnswers, 1)
	tries := opt.Tries
	if tries <= 0 {
		tries = 20000 * max(opt.Count, 1)
	}
	// The layers present are weighed by their index sizes; a layer's file
	// is opened (and its checksum checked) only when a slot of it is
	// drawn, so that a large database is not read at the start. A layer
	// that fails to open is dropped from then on.
	type source struct {
		key  layers.Key
		file *layers.File // nil until opened
		ix   *layers.LayerIndex
	}
	var srcs []source
	var total uint64
	for _, k := range opt.Layers {
		if !db.Has(k) {
			err := fmt.Errorf("teach: training: layer %v: %w", k, layers.ErrMissing)
			if derr := db.Damage(k); derr != nil {
				err = derr
			}
			t.Skipped = append(t.Skipped, SkippedLayer{k, err})
			continue
		}
		srcs = append(srcs, source{key: k, ix: db.Indexer().Layer(k)})
		total += srcs[len(srcs)-1].ix.Size()
	}
	if opt.Count <= 0 {
		return t, nil
	}
	game := db.Variant()
	r := game.Rules()
	nSyms := r.Board.NumSymmetries()
	rng := rand.New(rand.NewPCG(opt.Seed, trainingSeedMix))
	type slot struct {
		key layers.Key
		i   uint64
	}
	var seen []slot
	for t.Tries < tries && len(t.Exercises) < opt.Count && len(srcs) > 0 {
		if t.Tries%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return t, fmt.Errorf("teach: drawing training positions: %w", err)
			}
		}
		t.Tries++
		i := rng.Uint64N(total)
		n := 0
		for i >= srcs[n].ix.Size() {
			i -= srcs[n].ix.Size()
			n++
		}
		s := &srcs[n]
		if s.file == nil {
			f, release, err := db.Borrow(s.key)
			if err != nil {
				t.Skipped = append(t.Skipped, SkippedLayer{s.key, err})
				total -= s.ix.Size()
				srcs = slices.Delete(srcs, n, n+1)
				continue
			}
			defer release() // given back when the drawing is done
			s.file = f
		}
		sym := muehle.Symmetry(rng.IntN(nSyms))
		swap := rng.IntN(2) == 1
		v := s.file.Value(i)
		switch v.Outcome() {
		case layers.Win:
			if opt.Goal == HoldDraw || !opt.Band.Contains(v.Depth()) {
				continue
			}
		case layers.Draw:
			if opt.Goal == FindWin {
				continue
			}
		default:
			continue // lost, or an unused slot
		}
		if slices.Contains(seen, slot{s.key, i}) {
			continue
		}
		pos, ok := s.ix.Position(i)
		if !ok {
			continue
		}
		pos.Game = game.Game // the index numbers the boards of every game
		if !r.HandsFit(pos.Hand, pos.Turn, game.Stones) || (swap && s.key.IsMoving()) {
			pos = pos.SwapColors() // a placement layer with Black to move, or a random side
		}
		pos = sym.Position(pos)
		if pos.CheckReachable(game.Stones) != nil {
			continue // a stored position no game reaches
		}
		e, ok := exercise(db, pos, v)
		if !ok || e.Goal == GoalAny || len(e.Answers) > maxAnswers || !opt.Band.Contains(e.Difficulty) {
			continue
		}
		e.Layer, e.Index = s.key, i
		seen = append(seen, slot{s.key, i})
		t.Exercises = append(t.Exercises, e)
	}
	return t, nil
}

// exercise judges pos, whose stored value is v, as a training position:
// its goal, the moves that keep v's outcome, and the difficulty. ok is
// false when a move's value cannot be read, when the best move's value is
// not v, or when the position has fewer than two moves. The goal is
// GoalAny when every move keeps the value (a lost position, or a won or
// drawn one without a wrong move).
func exercise(db layers.Prober, pos muehle.Position, v layers.Value) (e Exercise, ok bool) {
	if pos.IsOver() {
		return e, false
	}
	e = Exercise{Pos: pos, Value: v}
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	e.Moves = len(ms)
	best, slowestLoss := layers.Unused, 0
	for _, m := range ms {
		w, err := probeValue(db, pos.Play(m))
		if err != nil {
			return e, false
		}
		w = w.Parent()
		if best == layers.Unused || w.Better(best) {
			best = w
		}
		if w.Outcome() == v.Outcome() {
			e.Answers = append(e.Answers, m)
		} else if w.Outcome() == layers.Loss {
			slowestLoss = max(slowestLoss, w.Depth())
		}
	}
	if best != v || e.Moves < 2 {
		return e, false
	}
	if len(e.Answers) == e.Moves || v.Outcome() == layers.Loss {
		return e, true // nothing to find
	}
	e.Goal, e.Difficulty = FindWin, v.Depth()
	if v.Outcome() == layers.Draw {
		e.Goal, e.Difficulty = HoldDraw, slowestLoss
	}
	return e, true
}

// Answer is the verdict on a move answering a training position.
type Answer struct {
	Verdict
	Right bool // the move keeps the position's value (its outcome)
	// Refutation is, for a wrong answer, how the opponent punishes it
	// (Refutation); LineErr says why it stops early, if it does.
	Refutation []Step
	LineErr    error
}

// ErrNotJudged is wrapped by CheckAnswer's error when the database cannot
// judge the move.
var ErrNotJudged = errors.New("the database cannot judge the move")

// CheckAnswer judges move m as the answer in pos (Judge): right when it
// keeps the position's outcome, else wrong with the refutation, at most
// max moves. The error wraps ErrNotJudged when a layer needed is missing
// or damaged (never a guess), or names the illegal move.
func CheckAnswer(db layers.Prober, pos muehle.Position, m muehle.Move, max int) (Answer, error) {
	if !pos.IsLegal(m) {
		return Answer{}, fmt.Errorf("teach: answer %s is not a legal move in %s", pos.Board().MoveString(m), pos)
	}
	v := Judge(db, pos, m)
	if v.Mark == MarkUnknown {
		return Answer{Verdict: v}, fmt.Errorf("teach: answer %s in %s: %w: %w", pos.Board().MoveString(m), pos, ErrNotJudged, v.Err)
	}
	a := Answer{Verdict: v, Right: v.Mark == MarkKept}
	if !a.Right {
		a.Refutation, a.LineErr = Refutation(db, pos, v, max)
	}
	return a, nil
}
