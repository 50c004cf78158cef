package uci

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"muehle/cmd/muehlectl/analysis"
	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
	"muehle/retro/search"
)

// thinking is a go command being carried out.
type thinking struct {
	cancel   context.CancelFunc
	done     chan struct{}
	infinite bool
}

// limits are the arguments of go: "movetime MS", "depth N", "infinite"
// (others, such as wtime, are ignored).
type limits struct {
	moveTime time.Duration
	depth    int
	infinite bool
}

// parseGo reads the arguments of go.
func parseGo(f []string) (limits, error) {
	var l limits
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "infinite":
			l.infinite = true
		case "movetime", "depth":
			if i+1 >= len(f) {
				return l, fmt.Errorf("go %s: want a number", f[i])
			}
			n, err := strconv.Atoi(f[i+1])
			if err != nil || n < 1 || f[i] == "depth" && n > 64 {
				return l, fmt.Errorf("go %s %q: want a positive number (depth at most 64)", f[i], f[i+1])
			}
			if f[i] == "depth" {
				l.depth = n
			} else {
				l.moveTime = time.Duration(n) * time.Millisecond
			}
			i++
		}
	}
	return l, nil
}

// stop ends the search running, if any, and waits for its bestmove.
func (e *Engine) stop() {
	e.mu.Lock()
	s := e.search
	e.mu.Unlock()
	if s != nil {
		s.cancel()
		<-s.done
	}
}

// finish waits for the search running, if any, to print its bestmove,
// stopping it first under go infinite: a command that changes the
// position or the options lets a search end as it would have.
func (e *Engine) finish() {
	e.mu.Lock()
	s := e.search
	e.mu.Unlock()
	if s != nil {
		if s.infinite {
			s.cancel()
		}
		<-s.done
	}
}

// goCmd starts thinking on the position: a goroutine that prints info
// lines and bestmove. Under go infinite it prints bestmove only after
// stop, as UCI says.
func (e *Engine) goCmd(f []string) {
	e.finish()
	l, err := parseGo(f)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		e.printf("info string %s", oneLine(err))
	}
	if e.game == nil {
		e.printf("info string no position: send position startpos or position fen first")
		e.printf("bestmove none")
		return
	}
	spec, err := play.ParseSpec(e.opt.Player)
	if err != nil { // setoption checked it; the default is good
		spec = play.DefaultPerfect
	}
	db, dberr := e.openLocked()
	if dberr != nil {
		db = nil
		if spec.NeedsDB() {
			e.printf("info string %s; playing alpha-beta instead", oneLine(dberr))
			spec = play.Spec{Kind: play.KindAlphaBeta, Limits: search.Limits{Depth: play.FallbackDepth}}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &thinking{cancel: cancel, done: make(chan struct{}), infinite: l.infinite}
	e.search = s
	t := thinker{e: e, db: db, spec: spec, game: e.game.Clone(), pending: e.pending, lim: l, opt: e.opt}
	go func() {
		defer close(s.done)
		defer cancel()
		m, err := t.think(ctx)
		if l.infinite {
			<-ctx.Done() // bestmove waits for stop
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.search == s {
			e.search = nil
		}
		if err != nil {
			e.printf("info string %s", oneLine(err))
			e.printf("bestmove none")
			return
		}
		e.printf("bestmove %s", m)
	}()
}

// thinker is one go: what it needs of the engine, copied when it starts.
type thinker struct {
	e       *Engine
	db      *layers.DB
	spec    play.Spec
	game    *muehle.Game
	pending *muehle.Move
	lim     limits
	opt     Options
}

// info prints one line under the engine's lock.
func (t *thinker) info(format string, args ...any) {
	t.e.mu.Lock()
	defer t.e.mu.Unlock()
	t.e.printf("info "+format, args...)
}

// think returns the bestmove text, after the info lines.
func (t *thinker) think(ctx context.Context) (string, error) {
	pos := t.game.Position()
	b := pos.Board()
	if r, why := t.game.Result(); r != muehle.Ongoing && t.pending == nil {
		return "", fmt.Errorf("the game is over: %s (%s)", r, why)
	}
	var answer *analysis.Answer
	if t.db != nil {
		if a, err := analysis.Of(t.db, pos); err == nil {
			answer = &a
			t.report(a)
		} else {
			t.info("string no database value: %s", oneLine(err))
		}
	}
	if t.pending != nil {
		return t.removal(ctx, pos, answer)
	}
	m, err := t.move(ctx, answer)
	if err != nil {
		return "", err
	}
	if t.opt.SplitRemoval && m.Remove != muehle.NoPoint {
		m.Remove = muehle.NoPoint // the GUI plays it, then asks for the removal
	}
	return b.MoveString(m), nil
}

// report prints the database's answer: the position's value, then one
// line per move for the first MultiPV moves, best first.
func (t *thinker) report(a analysis.Answer) {
	pos := a.Position
	b := pos.Board()
	t.info("string value %s (database, layer %s, %d of %d moves picked)", a.Value, a.Layer, a.Picks, len(a.Moves))
	for i, mv := range a.Moves {
		if i >= t.opt.MultiPV {
			break
		}
		t.info("multipv %d %s pv %s", i+1, score(mv.Value), t.notation(b, mv.Move))
	}
}

// notation returns m as the protocol writes it: with SplitRemoval a
// removal as a move of its own ("d6-d5 xa1"), else "d6-d5xa1".
func (t *thinker) notation(b *muehle.Board, m muehle.Move) string {
	if !t.opt.SplitRemoval || m.Remove == muehle.NoPoint {
		return b.MoveString(m)
	}
	r := m.Remove
	m.Remove = muehle.NoPoint
	return b.MoveString(m) + " x" + b.PointName(r)
}

// score returns a database value in UCI's terms: "depth D score mate N"
// for a win (N > 0) or loss (N ≤ 0) in D plies, N in moves of the side to
// move, and "score cp 0" for a draw.
func score(v layers.Value) string {
	switch d := v.Depth(); v.Outcome() {
	case layers.Win:
		return fmt.Sprintf("depth %d score mate %d", d, (d+1)/2)
	case layers.Loss:
		return fmt.Sprintf("depth %d score mate -%d", d, d/2)
	}
	return "score cp 0"
}

// move returns the player's move in the game.
func (t *thinker) move(ctx context.Context, answer *analysis.Answer) (muehle.Move, error) {
	src := func(stream uint64) rand.Source { return rand.NewPCG(t.opt.Seed, stream) }
	env := play.Env{DB: t.db}
	if t.db != nil {
		env.Probe, env.Book = t.db, play.ShippedBook(t.db)
	}
	spec := t.spec
	if spec.Kind == play.KindAlphaBeta {
		m, err := t.alphaBeta(ctx, env, src)
		if errors.Is(err, errNoIteration) {
			// Stopped at once: a move all the same, as UCI wants one.
			if answer != nil && len(answer.Moves) > 0 {
				return answer.Moves[0].Move, nil
			}
			if ms := t.game.LegalMoves(); len(ms) > 0 {
				t.info("string stopped before the first iteration: the first legal move")
				return ms[0], nil
			}
		}
		return m, err
	}
	p := spec.New(env, src)
	m, err := p.Move(ctx, t.game)
	if err != nil {
		return m, err
	}
	if pf, ok := p.(*play.Perfect); ok && pf.LastFellBack() {
		t.info("string %s", pf.FallbackReason())
	}
	return m, nil
}

// alphaBeta searches with the limits of go (the player's own without
// them) and prints the search's info line.
func (t *thinker) alphaBeta(ctx context.Context, env play.Env, src play.Sources) (muehle.Move, error) {
	lim := t.spec.Limits
	if t.lim.depth > 0 || t.lim.moveTime > 0 {
		lim = search.Limits{Depth: t.lim.depth, MoveTime: t.lim.moveTime}
	}
	if t.lim.infinite {
		lim = search.Limits{MoveTime: 24 * time.Hour} // until stop
	}
	ab := search.NewAlphaBeta(lim, src(0), env.Probe)
	r, err := ab.Search(ctx, t.game)
	if err != nil && !errors.Is(err, context.Canceled) {
		return muehle.NoMove, err
	}
	if r.Move == muehle.NoMove || r.Depth == 0 {
		return muehle.NoMove, errNoIteration
	}
	b := t.game.Rules().Board
	pv := make([]string, len(r.PV))
	for i, m := range r.PV {
		pv[i] = t.notation(b, m)
	}
	sc := fmt.Sprintf("score cp %d", r.Score)
	if n := search.WinScore - abs(r.Score); n <= 1000 {
		plies := n
		if r.Score > 0 {
			sc = fmt.Sprintf("score mate %d", (plies+1)/2)
		} else {
			sc = fmt.Sprintf("score mate -%d", plies/2)
		}
	}
	t.info("depth %d %s nodes %d pv %s", r.Depth, sc, r.Nodes, strings.Join(pv, " "))
	return r.Move, nil
}

// errNoIteration says that a search was stopped before its first
// iteration ended.
var errNoIteration = errors.New("stopped before the first iteration")

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// removal answers a go after the first part of a split move: the stone
// the best move with that part takes, as "xPOINT": from the database's
// answer, else the player's own move when it has that first part (the
// seeded player chooses as it did for the bestmove before).
func (t *thinker) removal(ctx context.Context, pos muehle.Position, answer *analysis.Answer) (string, error) {
	b := pos.Board()
	p := *t.pending
	if answer != nil {
		for _, mv := range answer.Moves {
			if mv.Move.From == p.From && mv.Move.To == p.To {
				return "x" + b.PointName(mv.Move.Remove), nil
			}
		}
	}
	if m, err := t.move(ctx, nil); err == nil && m.From == p.From && m.To == p.To && m.Remove != muehle.NoPoint {
		return "x" + b.PointName(m.Remove), nil
	}
	var buf [muehle.MaxMoves]muehle.Move
	for _, m := range pos.AppendMoves(buf[:0]) {
		if m.From == p.From && m.To == p.To {
			t.info("string no database value: taking the first stone that may be taken")
			return "x" + b.PointName(m.Remove), nil
		}
	}
	return "", errors.New("no removal for the pending move")
}
