package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

// MaxLine bounds a command line: a longer one is cut there (a game's moves
// fit many times over).
const MaxLine = 1 << 20

// Options are the engine's settings, the options it announces on uci.
type Options struct {
	DB     string // the database folder (Database)
	Game   string // the game's ID (Game)
	Stones int    // stones per side, 0: the game's own (Stones)
	Player string // a player name of play.ParseSpec (Player)
	Seed   uint64 // the seed of the player's random choices (Seed)
	// MultiPV is how many of the perfect player's moves, best first, go
	// prints an info line for (1: the best only; a large number: all).
	MultiPV int
	// SplitRemoval writes a move that takes a stone as two moves, the
	// move and then "xPOINT", as the mill protocol does (a removal is an
	// action of its own there); bestmove then gives the first part, and
	// the next go (after the GUI has played it) the removal. Off: one
	// move, "d6-d5xa1", this program's notation.
	SplitRemoval bool
	// Hash bounds in MiB the memory the database's compressed layers take
	// decoded (layers.DB.SetCacheBytes; 0: layers.DefaultCacheBytes), as
	// a chess engine's Hash option bounds its table.
	Hash int64
}

// Engine is one protocol session.
type Engine struct {
	out io.Writer
	mu  sync.Mutex // guards writes to out and the fields below

	opt     Options
	db      *layers.DB
	dbFor   Options // the options db was opened with
	game    *muehle.Game
	pending *muehle.Move // the first part of a split move whose removal is still to come
	search  *thinking    // the go running, nil when idle
}

// New returns an engine writing to out with the options opt (the command
// line's --db, --game and --stones, --player, --seed and --split-removal).
func New(out io.Writer, opt Options) *Engine {
	if opt.Player == "" {
		opt.Player = "perfect"
	}
	if opt.MultiPV < 1 {
		opt.MultiPV = 1
	}
	return &Engine{out: out, opt: opt}
}

// Close closes the database.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.db != nil {
		err := e.db.Close()
		e.db = nil
		return err
	}
	return nil
}

// printf writes one line to out.
func (e *Engine) printf(format string, args ...any) {
	fmt.Fprintf(e.out, format+"\n", args...)
}

// Run reads commands from in until quit, the end of in or ctx's end,
// and waits for a search still running to stop.
func (e *Engine) Run(ctx context.Context, in io.Reader) error {
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), MaxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		errc <- sc.Err()
		close(lines)
	}()
	defer e.stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				if err := <-errc; err != nil {
					return fmt.Errorf("uci: reading commands: %w", err)
				}
				return nil
			}
			if !e.Do(line) {
				return nil
			}
		}
	}
}

// Do carries out one command line and reports false for quit.
func (e *Engine) Do(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "uci":
		e.uci()
	case "isready":
		e.isready()
	case "setoption":
		e.setoption(f[1:])
	case "ucinewgame":
		e.finish()
		e.mu.Lock()
		e.game, e.pending = nil, nil
		e.mu.Unlock()
	case "position":
		e.finish()
		e.position(f[1:])
	case "go":
		e.goCmd(f[1:])
	case "stop":
		e.stop()
	case "quit":
		return false
	case "d":
		e.display()
	}
	return true // unknown commands are ignored, as UCI says
}

// uci announces the engine and its options.
func (e *Engine) uci() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.printf("id name muehle perfect player")
	e.printf("id author the muehle authors")
	e.printf("option name Database type string default %s", e.opt.DB)
	e.printf("option name Game type combo default %s%s", e.opt.Game, gameVars())
	e.printf("option name Stones type spin default %d min 0 max %d", e.opt.Stones, muehle.MaxStones)
	e.printf("option name Player type string default %s", e.opt.Player)
	e.printf("option name Seed type spin default %d min 0 max 2147483647", e.opt.Seed)
	e.printf("option name MultiPV type spin default %d min 1 max %d", e.opt.MultiPV, muehle.MaxMoves)
	e.printf("option name SplitRemoval type check default %t", e.opt.SplitRemoval)
	e.printf("option name Hash type spin default %d min 0 max %d", e.opt.Hash, MaxHash)
	e.printf("uciok")
}

// gameVars lists the games as a combo option's values.
func gameVars() string {
	var b strings.Builder
	for _, r := range muehle.Games {
		if play.Supported(r) != nil {
			continue // a game the database cannot hold
		}
		b.WriteString(" var ")
		b.WriteString(r.ID)
	}
	return b.String()
}

// isready opens the database the options name, if it is not open, and
// answers readyok; while thinking it answers at once.
func (e *Engine) isready() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.search == nil {
		if _, err := e.openLocked(); err != nil {
			e.printf("info string %s", oneLine(err))
		}
	}
	e.printf("readyok")
}

// setoption sets an option: "name NAME value VALUE".
func (e *Engine) setoption(f []string) {
	name, value := optionArgs(f)
	e.finish()
	e.mu.Lock()
	defer e.mu.Unlock()
	var err error
	switch strings.ToLower(name) {
	case "database":
		e.opt.DB = value
	case "game":
		if r, ok := muehle.GameByName(value); !ok || play.Supported(r) != nil {
			err = fmt.Errorf("no game %q here (want one of%s)", value, strings.ReplaceAll(gameVars(), " var", ""))
			break
		}
		e.opt.Game, e.game, e.pending = value, nil, nil
	case "stones":
		e.opt.Stones, err = strconv.Atoi(value)
		e.game, e.pending = nil, nil
	case "player":
		if _, err = play.ParseSpec(value); err == nil {
			e.opt.Player = value
		}
	case "seed":
		e.opt.Seed, err = strconv.ParseUint(value, 10, 64)
	case "multipv":
		e.opt.MultiPV, err = strconv.Atoi(value)
		e.opt.MultiPV = max(e.opt.MultiPV, 1)
	case "hash":
		var n int64
		if n, err = strconv.ParseInt(value, 10, 64); err == nil && (n < 0 || n > MaxHash) {
			err = fmt.Errorf("%d MiB: want 0 to %d", n, MaxHash)
		}
		if err == nil {
			e.opt.Hash = n
			if e.db != nil {
				setHash(e.db, n)
			}
		}
	case "splitremoval":
		e.opt.SplitRemoval = value == "true"
	default:
		err = fmt.Errorf("no option %q", name)
	}
	if err != nil {
		e.printf("info string setoption %s: %s", name, oneLine(err))
	}
}

// MaxHash is the largest Hash option in MiB (1 TiB).
const MaxHash = 1 << 20

// setHash bounds db's memory for compressed layers to mib MiB, 0 being
// layers.DefaultCacheBytes.
func setHash(db *layers.DB, mib int64) {
	db.SetCacheBytes(mib << 20)
}

// optionArgs splits "name NAME value VALUE" (names and values may hold
// spaces).
func optionArgs(f []string) (name, value string) {
	var n, v []string
	cur := &n
	for i, w := range f {
		switch {
		case i == 0 && w == "name":
		case w == "value" && cur == &n:
			cur = &v
		default:
			*cur = append(*cur, w)
		}
	}
	return strings.Join(n, " "), strings.Join(v, " ")
}

// variant returns the game and stones the options name.
func (e *Engine) variantLocked() (muehle.Variant, error) {
	r, ok := muehle.GameByName(e.opt.Game)
	if !ok {
		return muehle.Variant{}, fmt.Errorf("no game %q (want one of %s)", e.opt.Game, muehle.GameIDs())
	}
	k := e.opt.Stones
	if k == 0 {
		k = r.Stones
	}
	v := r.Game().With(k)
	if err := v.Check(); err != nil {
		return v, err
	}
	return v, layers.CheckVariant(v)
}

// openLocked returns the database the options name, opening it when they
// changed since it was opened.
func (e *Engine) openLocked() (*layers.DB, error) {
	if e.db != nil && e.dbFor.DB == e.opt.DB && e.dbFor.Game == e.opt.Game && e.dbFor.Stones == e.opt.Stones {
		return e.db, nil
	}
	v, err := e.variantLocked()
	if err != nil {
		return nil, err
	}
	if e.db != nil {
		e.db.Close()
		e.db = nil
	}
	db, err := layers.OpenDB(e.opt.DB, v)
	if err != nil {
		return nil, err
	}
	db.VerifiedOnly() // no unverified value presented as the database's
	setHash(db, e.opt.Hash)
	e.db, e.dbFor = db, e.opt
	return db, nil
}

// display prints the position, a debugging command ("d") as chess
// engines have it.
func (e *Engine) display() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.game == nil {
		e.printf("info string no position")
		return
	}
	e.printf("info string position %s", e.game.Position())
}

// oneLine returns err's text on one line, without the package prefixes
// of muehle's errors (muehle.Reason).
func oneLine(err error) string {
	return strings.Join(strings.Fields(muehle.Reason(err)), " ")
}
