package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"muehle/cmd/muehlectl/analysis"
	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("query", "value and depth of a position and of each of its moves", runQuery)
}

func runQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("query", "--position TEXT [--db DIR] [--stones K] [--book FILE] [--search] [--unreachable] [--mem MiB]", stderr)
	dbf := addDBFlags(fs).withCache()
	sf := addSearchFlags(fs)
	search := fs.Bool("search", false, "answer a placement position by the placement search over the moving layers even where placement layers are stored")
	text := fs.String("position", "", "the position, e.g. \"........................ w 9 9\" (see muehle/doc.go)")
	unreachable := addUnreachableFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *text == "" {
		return flagError(fs, fmt.Errorf("--position: want a position text"))
	}
	pos, err := muehle.ParsePosition(*text)
	if err != nil {
		return err
	}
	if err := play.Supported(pos.Rules()); err != nil {
		return err
	}
	dbf.adopt(pos.Game)
	if err := errors.Join(dbf.check(), sf.check()); err != nil {
		return flagError(fs, err)
	}
	if err := dbf.agrees(pos.Game); err != nil {
		return flagError(fs, err)
	}
	if err := checkReachable(stdout, pos, *dbf.stones, *unreachable); err != nil {
		return err
	}
	db, err := dbf.openVerified()
	if err != nil {
		return err
	}
	defer db.Close()

	key := layers.KeyOf(pos)
	fmt.Fprintf(stdout, "position %s\nlayer    %s", pos, key)
	if i, ok := db.Indexer().Layer(key).IndexChecked(pos); ok {
		fmt.Fprintf(stdout, " index %d", i)
	}
	fmt.Fprintln(stdout)
	// The one answer of every front end (analysis.Ask), its reachability
	// checked above with --unreachable; for a placement position under
	// --search only its values (the search answers), for the damage of the
	// position's own layer.
	placing := pos.Hand[pos.Turn] > 0
	start := time.Now()
	a, aerr := analysis.Ask(db, pos, analysis.Options{Values: *search && placing, Unreachable: true})
	elapsed := time.Since(start)
	// verr is the error of the position's own value: its layer missing,
	// damaged or not verified, or the position not stored in it.
	var verr error
	if aerr != nil && a.Value == layers.Unused {
		verr = aerr
	}
	if errors.Is(verr, analysis.ErrNotReached) && placing {
		// The solver leaves unused exactly the placement classes its reach
		// data found unreachable (game-ending positions aside): a second,
		// exact test beside CheckReachable's.
		err := fmt.Errorf("%w: the database's reach data finds no way to it from the empty board", muehle.ErrUnreachable)
		if err := checkUnreachable(stdout, err, *unreachable); err != nil {
			return err
		}
	}
	// A placement position without its layer, or not stored in it (the
	// solver stores the classes reachable from the empty board): the
	// placement search.
	if placing && !a.Over && (*search || errors.Is(verr, layers.ErrMissing)) {
		var prober layers.Prober = db
		if *search {
			prober = play.MovingOnly(db)
		}
		watch := &damageWatch{p: prober}
		if err := querySearch(ctx, stdout, stderr, db, watch, sf, pos); err != nil {
			if _, ok := layers.Damaged(verr); ok { // the damage, not a gap, is why
				return fmt.Errorf("%w; and the placement search: %w", verr, err)
			}
			return err
		}
		// A value found around a damaged layer is right, but the damage
		// must not pass unseen: exit status 1, naming it.
		if _, ok := layers.Damaged(verr); ok {
			return fmt.Errorf("the value above was found by the placement search, but %w", verr)
		}
		if watch.err != nil {
			return fmt.Errorf("the values above were found by the placement search, but %w", watch.err)
		}
		return nil
	}
	fmt.Fprintf(stdout, "value    %s (%s, every move's value included)\n", describe(a.Value, verr), took(elapsed))
	if verr != nil {
		return fmt.Errorf("no value for the position: %w", verr)
	}
	if a.Over {
		fmt.Fprintln(stdout, "no legal moves: the game is over")
		return nil
	}
	if aerr != nil { // a layer the moves lead to
		fmt.Fprintf(stdout, "moves    %s\n", describe(layers.Unused, aerr))
		if _, ok := layers.Damaged(aerr); ok {
			return fmt.Errorf("the moves cannot be valued: %w", aerr)
		}
		return nil
	}
	// The default perfect player's own evaluation ranks the moves: by
	// value, then by its tie-break score.
	mvs := a.Moves
	fmt.Fprintf(stdout, "%d moves, best first. Each shows the value it gives the side to\n", len(mvs))
	fmt.Fprintln(stdout, "  move, the opponent's replies won/drawn/lost for the opponent, and the score that breaks ties")
	if mvs[0].Value.Outcome() == layers.Draw {
		fmt.Fprintln(stdout, "  among moves of equal value: for a drawing move the share of positions won for the mover in")
		fmt.Fprintf(stdout, "  the layer after the next removal (%d plies deep), for the others the share of the opponent's\n", play.SectorPlies)
		fmt.Fprintln(stdout, "  replies that give up value. \"pick\": the moves the perfect player picks among.")
	} else {
		fmt.Fprintln(stdout, "  among moves of equal value: the share of the opponent's replies that give up value. \"pick\":")
		fmt.Fprintln(stdout, "  the moves the perfect player picks among.")
	}
	for i, mv := range mvs {
		pick := ""
		if i < a.Picks {
			pick = "  pick"
		}
		fmt.Fprintf(stdout, "  %-10s %-12s replies %d/%d/%d  score %.3f%s\n", pos.Board().MoveString(mv.Move), mv.Value,
			mv.Replies[play.ReplyWins], mv.Replies[play.ReplyDraws], mv.Replies[play.ReplyLoses], mv.Score, pick)
	}
	return nil
}

// querySearch prints the value of the placement position pos and of each
// of its moves from the placement search over prober (db, or only its
// moving layers), each with the time and nodes it took. Stored layers and
// the book answer first; new values are saved in the book.
func querySearch(ctx context.Context, stdout, stderr io.Writer, db *layers.DB, prober layers.Prober, sf searchFlags, pos muehle.Position) error {
	s, err := sf.open(db, prober)
	if err != nil {
		return err
	}
	start := time.Now()
	v, err := s.Value(ctx, pos)
	if err != nil {
		fmt.Fprintf(stdout, "value    unknown (%v)\n", err)
		return fmt.Errorf("no value for the position: %w", err)
	}
	fmt.Fprintf(stdout, "value    %s (placement search: %.3f s, %d nodes)\n", v, time.Since(start).Seconds(), s.Nodes())
	var buf [muehle.MaxMoves]muehle.Move
	ms := pos.AppendMoves(buf[:0])
	type row struct {
		m    muehle.Move
		v    layers.Value
		secs float64
		n    uint64
	}
	rows := make([]row, len(ms))
	for i, m := range ms {
		start := time.Now()
		cv, err := s.Value(ctx, pos.Play(m))
		if err != nil {
			return fmt.Errorf("query: after %s: %w", pos.Board().MoveString(m), err)
		}
		rows[i] = row{m, cv.Parent(), time.Since(start).Seconds(), s.Nodes()}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		switch {
		case a.v.Better(b.v):
			return -1
		case b.v.Better(a.v):
			return 1
		}
		return 0
	})
	fmt.Fprintf(stdout, "%d moves, best first (the value each gives the side to move, from the placement search):\n", len(rows))
	for _, r := range rows {
		fmt.Fprintf(stdout, "  %-10s %-12s %.3f s %d nodes\n", pos.Board().MoveString(r.m), r.v, r.secs, r.n)
	}
	if b := s.Book(); b != nil {
		// The answer is complete: a book that cannot be saved (a
		// read-only database, a folder that does not exist) is a warning.
		if err := b.Save(); err != nil {
			fmt.Fprintf(stderr, "muehlectl query: the book is not saved: %v\n", err)
		} else {
			fmt.Fprintf(stdout, "book     %s: %d positions\n", b.Path(), b.Len())
		}
	}
	return nil
}

// took renders a time the way query prints it, "0.004 s". The first
// look-up in a layer includes opening it: reading its header and block
// file and checking the blocks it reads, or, without a valid block file,
// checking the whole body.
func took(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

// describe renders a probed value, or why there is none.
func describe(v layers.Value, err error) string {
	if k, ok := layers.Damaged(err); ok {
		return fmt.Sprintf("layer %s damaged (solve recomputes it)", k)
	}
	switch {
	case errors.Is(err, layers.ErrUnverified):
		return "layer not verified (muehlectl verify checks it; its values are not shown)"
	case errors.Is(err, layers.ErrMissing):
		return "layer missing"
	case err != nil:
		return "error: " + err.Error()
	}
	return v.String()
}

// damageWatch passes probes to p and keeps the first damaged layer they
// meet, for query to report after a value found around it.
type damageWatch struct {
	p   layers.Prober
	mu  sync.Mutex
	err error
}

// Probe probes p and notes a damaged layer.
func (d *damageWatch) Probe(pos muehle.Position) (layers.Value, error) {
	v, err := d.p.Probe(pos)
	if _, ok := layers.Damaged(err); ok {
		d.mu.Lock()
		if d.err == nil {
			d.err = err
		}
		d.mu.Unlock()
	}
	return v, err
}
