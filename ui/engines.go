package ui

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"fyne.io/fyne/v2"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/dbservice"
	"muehle/retro/play"
	"muehle/ui/game"
)

// SmallMaxStones is the largest number of stones on the board of the small
// endgame layers offered on the first start (3-3, 3-4 and 4-3; under half a
// minute on two cores).
const SmallMaxStones = 7

// DBEngines makes the alpha-beta and perfect players and the perfect-move
// marks from a database directory, and is the database behind the
// database panel. It implements Engines and Database.
//
// A database folder holds one database per variant (a game and its stones
// per side, layers.GameDir). The players, the marks, the state number, the
// review and the search tree read the one of the game on the board, which
// the window names with SetVariant; the database panel shows and computes
// the one it names with SetGame (the game on the board, or the one whose
// computation runs); training draws from the one of the game on the
// board when it starts.
type DBEngines struct {
	mu  sync.Mutex
	dir string
	// variant is the game on the board (SetVariant), game the database
	// panel's (SetGame); dbs holds the databases of the variants opened
	// in dir, and errs why one could not be opened.
	variant muehle.Variant
	game    muehle.Variant
	dbs     map[muehle.Variant]*layers.DB
	errs    map[muehle.Variant]error
	// reads holds, beside each of dbs, the database the players, marks,
	// reviews and training read: verified layers only (docs/records.md,
	// "Unverified layers"); dbs computes, repairs and shows them all.
	reads  map[muehle.Variant]*layers.DB
	speed  float64    // this machine's speed relative to the cost model, 0: not measured
	busy   layers.Key // the layer being computed, when busyOn
	busyOn bool
	busyIn muehle.Variant // the variant of the layer being computed
	// busyConvert says busy is being converted (Convert), not computed.
	busyConvert bool
	// busyCompress says the conversion compresses busy (Compress).
	busyCompress bool
	// cacheBytes bounds every open database's memory for compressed
	// layers (SetCacheBytes; 0: layers.DefaultCacheBytes).
	cacheBytes int64
}

// NewEngines opens the database of the standard game in dir (created by
// the first computation). When it cannot be opened, the players still work (alpha-beta
// without exact values; the perfect player falls back to alpha-beta) and the
// error is reported where the database is needed.
func NewEngines(dir string) *DBEngines {
	e := &DBEngines{}
	e.variant = muehle.NineMensMorris
	e.game = e.variant
	e.SetDir(dir)
	return e
}

// database returns the open database of the panel's game (SetGame), or
// the error of opening it.
func (e *DBEngines) database() (*layers.DB, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	db, _, err := e.databaseLocked(e.game)
	return db, err
}

// Game returns the variant whose database the panel shows and computes.
func (e *DBEngines) Game() muehle.Variant {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.game
}

// SetGame makes the panel show and compute the database of v: the game on
// the board, or the one whose computation is resumed. The panel calls it
// only while it computes nothing.
func (e *DBEngines) SetGame(v muehle.Variant) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.game = v
	e.openLocked(v)
}

// SetVariant makes the players, the marks and the rest that read the
// database of the game on the board read the database of v. Players made
// before keep the database they were made with.
func (e *DBEngines) SetVariant(v muehle.Variant) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.variant = v
	e.openLocked(v)
}

// Variant returns the variant of the game on the board (SetVariant).
func (e *DBEngines) Variant() muehle.Variant {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.variant
}

// openLocked opens the database of v in e.dir unless it is open or failed
// already. e.mu is held.
func (e *DBEngines) openLocked(v muehle.Variant) {
	if _, ok := e.dbs[v]; ok {
		return
	}
	if _, ok := e.errs[v]; ok {
		return
	}
	db, err := layers.OpenDB(e.dir, v)
	if err != nil {
		e.errs[v] = err
		return
	}
	db.SetCacheBytes(e.cacheBytes)
	e.dbs[v] = db
}

// readsLocked returns the database of v that the players read, verified
// layers only, opening it if need be. e.mu is held.
func (e *DBEngines) readsLocked(v muehle.Variant) (*layers.DB, muehle.Variant, error) {
	if db := e.reads[v]; db != nil {
		return db, v, nil
	}
	if _, _, err := e.databaseLocked(v); err != nil {
		return nil, v, err
	}
	db, err := layers.OpenDB(e.dir, v)
	if err != nil {
		return nil, v, err
	}
	db.VerifiedOnly() // the players present values as the truth
	db.SetCacheBytes(e.cacheBytes)
	e.reads[v] = db
	return db, v, nil
}

// SetCacheBytes bounds the memory compressed layers take decoded in each
// database open now and opened later (layers.DB.SetCacheBytes; n ≤ 0:
// layers.DefaultCacheBytes).
func (e *DBEngines) SetCacheBytes(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cacheBytes = max(n, 0)
	for _, m := range []map[muehle.Variant]*layers.DB{e.dbs, e.reads} {
		for _, db := range m {
			db.SetCacheBytes(e.cacheBytes)
		}
	}
}

// CacheBytes returns the bound of SetCacheBytes of each database.
func (e *DBEngines) CacheBytes() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cacheBytes == 0 {
		return layers.DefaultCacheBytes
	}
	return e.cacheBytes
}

// recheckReads makes the players' databases look again at every layer
// they found missing, unverified or damaged: a computation, a repair, a
// conversion or an import has written layers.
func (e *DBEngines) recheckReads() {
	for v, db := range e.reads {
		for _, k := range layers.OrderIn(v, true) {
			db.Recheck(k)
		}
	}
}

// gameDatabase returns the database of the game on the board that the
// players read (verified layers only), its variant, or the error of
// opening it.
func (e *DBEngines) gameDatabase() (*layers.DB, muehle.Variant, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.readsLocked(e.variant)
}

// databaseOf returns the database of variant v that the players read
// (verified layers only), opening it if need be.
func (e *DBEngines) databaseOf(v muehle.Variant) (*layers.DB, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	db, _, err := e.readsLocked(v)
	return db, err
}

// databaseLocked returns the database of v, opening it if need be. e.mu is
// held.
func (e *DBEngines) databaseLocked(v muehle.Variant) (*layers.DB, muehle.Variant, error) {
	e.openLocked(v)
	if db := e.dbs[v]; db != nil {
		return db, v, nil
	}
	return nil, v, fmt.Errorf("ui: database of %s in %s: %w", v.Name(), e.dir, e.errs[v])
}

// prober returns the database of the game on the board as a prober, nil
// when it is not open.
func (e *DBEngines) prober() layers.Prober {
	if db, _, err := e.gameDatabase(); err == nil {
		return db
	}
	return nil
}

// Player returns the computer player sp (game.Engines). Alpha-beta and
// the conspiracy number player read the database of the game on the board
// where it has the layer (alpha-beta without a depth deepens for a
// second, the conspiracy number player takes search.DefaultMoveTime). The
// perfect player and the levels need the database of the game on the
// board: the shipped perfect player (play.NewShipped, as muehlectl's match
// plays it), with the placement search and the book beside the layers
// where the database has no placement layer and alpha-beta to
// play.FallbackDepth where the search cannot decide (a moving layer
// missing, play.PlacementTime spent), saying so; its draw rules look as
// deep as retro/play's defaults (SectorPlies, BahnsenDepth), and outside
// drawn positions all break ties by the trap share. A level plays a
// random legal move instead with the level's probability (play.LevelRate).
func (e *DBEngines) Player(sp play.Spec, src rand.Source) (muehle.Player, error) {
	if !sp.NeedsDB() {
		return sp.New(play.Env{Probe: e.prober()}, sources(src)), nil
	}
	if sp.Kind == play.KindLevel {
		sp.Level = min(max(sp.Level, 1), play.Levels)
	}
	db, _, err := e.gameDatabase()
	if err != nil {
		return nil, err
	}
	return sp.New(play.Env{DB: db, Probe: db, Book: play.ShippedBook(db)}, sources(src)), nil
}

// sources returns the streams of a player (play.Sources) from src: src
// itself breaks ties, the others are seeded from it.
func sources(src rand.Source) play.Sources {
	r := rand.New(src)
	seeds := [3]uint64{0, r.Uint64(), r.Uint64()}
	return func(stream uint64) rand.Source {
		if stream == 0 {
			return src
		}
		return rand.NewPCG(seeds[stream%3], stream)
	}
}

// Evaluator returns the source of perfect-move marks, on the database of
// the game on the board.
func (e *DBEngines) Evaluator() (game.Evaluator, error) {
	db, v, err := e.gameDatabase()
	if err != nil {
		return nil, err
	}
	return perfectEvaluator{db, v}, nil
}

// perfectEvaluator evaluates with a new perfect player per call: the
// player is not safe for concurrent use, the database is.
type perfectEvaluator struct {
	db *layers.DB
	v  muehle.Variant // the database's
}

// Evaluate returns every legal move's value and reply counts, with the
// default perfect player's win chance for the drawing moves and its picks.
func (pe perfectEvaluator) Evaluate(ctx context.Context, pos muehle.Position) ([]game.MoveMark, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mv, err := play.NewPerfect(pe.db, nil, nil).Evaluate(pos)
	if err != nil {
		if k, ok := layers.Damaged(err); ok && errors.Is(err, layers.ErrOldFormat) {
			return nil, fmt.Errorf("this position needs layer %s, which is of the older file format: convert it in the Database tab", k)
		} else if ok {
			return nil, fmt.Errorf("this position needs layer %s, which is damaged: recompute it in the Database tab (%v)", k, err)
		}
		if errors.Is(err, layers.ErrMissing) {
			return nil, errors.New(missingWords(layers.KeyOf(pos), pe.v, pe.db.Dir()))
		}
		return nil, err
	}
	out := make([]game.MoveMark, len(mv))
	best := play.BestCount(mv)
	drawn := len(mv) > 0 && mv[0].Value.Outcome() == layers.Draw
	for i, m := range mv {
		out[i] = game.MoveMark{Move: m.Move, Value: m.Value, Replies: m.Replies, Pick: i < best}
		if drawn && m.Value.Outcome() == layers.Draw {
			out[i].Chance = m.Score
		}
	}
	return out, ctx.Err()
}

// missingWords says in a person's terms which part of the database of
// variant v in folder dir a position of layer k needs: "the opening is
// not in the database yet …", and what computes it: the Database tab, and
// for another game than Nine Men's Morris with nine stones also muehlectl.
func missingWords(k layers.Key, v muehle.Variant, dir string) string {
	where, compute := "the database", " (the Database tab computes it)"
	if v != muehle.NineMensMorris {
		where = "the database of " + v.Name()
		compute = fmt.Sprintf(" (the Database tab computes it, as does %s)", solveCommand(v, dir))
	}
	var what string
	switch placed := 2*v.Stones - int(k.WH) - int(k.BH); {
	case k.IsMoving():
		what = fmt.Sprintf("the endgame of %d against %d stones, or one it leads to,", k.W, k.B)
	case placed == 0:
		what = "the opening"
	case v.Rules().Mixed:
		// No placement phase: a layer of stones on the board and in hand.
		what = fmt.Sprintf("the layer of %d on the board and %d in hand against %d and %d (%s), or one it leads to,",
			k.W, k.WH, k.B, k.BH, k)
	default:
		what = fmt.Sprintf("the placement phase after %d stones placed", placed)
	}
	return what + " is not in " + where + " yet" + compute
}

// solveCommand returns the command that computes the database of v in
// folder dir: "muehlectl solve --game twelve --stones 5 --all-phases --db
// DIR".
func solveCommand(v muehle.Variant, dir string) string {
	return fmt.Sprintf("muehlectl solve --game %s --stones %d --all-phases --db %s", v.Rules().ID, v.Stones, dir)
}

// StateNumber returns the layer and index of pos, and whether the layer is
// in the database of the game on the board.
func (e *DBEngines) StateNumber(pos muehle.Position) (string, error) {
	db, v, err := e.gameDatabase()
	if err != nil {
		return "", err
	}
	if pos.Game != v.Game {
		return "", fmt.Errorf("a position of %s; the database open is the one of %s", pos.Rules().Name, v.Name())
	}
	if r := pos.Rules(); r.Lost(pos.Total(pos.Turn)) || r.Lost(pos.Total(pos.Turn.Other())) {
		return "", fmt.Errorf("the game is over: a side has fewer than %d stones, so the position has no layer", r.LoseBelow)
	}
	k := layers.KeyOf(pos)
	i, ok := db.Indexer().Layer(k).IndexChecked(pos)
	if !ok {
		return "", fmt.Errorf("position %v has no index in layer %s", pos, k)
	}
	s := fmt.Sprintf("layer %s, index %d", k, i)
	if err := db.Damage(k); errors.Is(err, layers.ErrOldFormat) {
		return s + " (layer of the older file format: convert it in the Database tab)", nil
	} else if err != nil {
		return s + " (layer damaged: recompute it in the Database tab)", nil
	}
	if db.Has(k) {
		v, err := db.Probe(pos)
		if err != nil {
			return "", err
		}
		return s + fmt.Sprintf(" (%s for %s)", v, pos.Turn), nil
	}
	return s + " (layer not computed)", nil
}

// Dir returns the database directory.
func (e *DBEngines) Dir() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dir
}

// SetDir switches to the databases in dir, and returns the error of
// opening the panel's (SetGame). The old databases stay open: players in
// other goroutines may still read them.
func (e *DBEngines) SetDir(dir string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dir = dir
	e.dbs, e.errs = map[muehle.Variant]*layers.DB{}, map[muehle.Variant]error{}
	e.reads = map[muehle.Variant]*layers.DB{}
	e.openLocked(e.variant)
	e.openLocked(e.game)
	return e.errs[e.game]
}

// damaged returns the layers of the database known to be damaged, by db
// or the players' database of its game (dbservice.DamagedBy, e.damage).
func (e *DBEngines) damaged(db *layers.DB) []layers.Key {
	return dbservice.DamagedBy(db.Variant(), func(k layers.Key) error { return e.damage(db, k) })
}

// Summary says what the folder of the panel's game holds
// (dbservice.Describe), and what the perfect player does with it.
func (e *DBEngines) Summary() string {
	db, err := e.database()
	if err != nil {
		return err.Error()
	}
	busy, on, converting := e.computingIn(db.Variant())
	e.mu.Lock()
	compressing := e.busyCompress
	e.mu.Unlock()
	h := dbservice.Describe(db, dbservice.Busy{Key: busy, On: on, Converting: converting, Compressing: compressing,
		Damage: func(k layers.Key) error { return e.damage(db, k) }})
	return h.Text + "\n\n" + playerWords(db.Variant(), h.Moving, h.MovingAll, h.Placement, h.PlacementAll)
}

// damage returns why layer k of db is damaged (layers.DB.Damage), as db
// or the players' database of its game (which reads other layers, and
// may have found damage db has not looked for) knows it; nil when
// neither does.
func (e *DBEngines) damage(db *layers.DB, k layers.Key) error {
	if err := db.Damage(k); err != nil {
		return err
	}
	e.mu.Lock()
	reads := e.reads[db.Variant()]
	e.mu.Unlock()
	if reads == nil || reads == db {
		return nil
	}
	return reads.Damage(k)
}

// Damaged names the damaged layers ("3-4, p5+2-4+2"), "" when none is
// known.
func (e *DBEngines) Damaged() string {
	db, err := e.database()
	if err != nil {
		return ""
	}
	return dbservice.KeyNames(e.damaged(db))
}

// Repair recomputes the damaged layers, and the missing layers they
// depend on (dbservice.RepairFor).
func (e *DBEngines) Repair(ctx context.Context, progress func(DBProgress)) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	opts, ok := dbservice.RepairFor(e.damaged(db))
	if !ok {
		return nil // nothing damaged
	}
	return e.solve(ctx, db, opts, progress)
}

// Empty reports whether no layer has been computed, in this format or the
// one before.
func (e *DBEngines) Empty() bool {
	db, err := e.database()
	if err != nil {
		return false // nothing to offer: the folder itself is the problem
	}
	for _, k := range layers.OrderIn(db.Variant(), true) {
		if db.Has(k) {
			return false
		}
		if _, err := db.OldHeader(k); err == nil {
			return false
		}
	}
	return true
}

// SmallDescription names the small endgame layers of the panel's game:
// "3-3, 3-4 and 4-3", or "3-3" in a game of three stones.
func (e *DBEngines) SmallDescription() string { return smallWords(e.Game()) }

// smallWords names the moving layers of v of at most SmallMaxStones
// stones on the board: "3-3, 3-4 and 4-3".
func smallWords(v muehle.Variant) string {
	var names []string
	for _, k := range layers.OrderIn(v, false) {
		if int(k.W+k.B) <= SmallMaxStones {
			names = append(names, k.String())
		}
	}
	return andList(names)
}

// Compute solves the missing layers of the panel's game: the small
// endgames, or everything (moving layers, then placement, or in a game
// whose phases mix the layers with stones in hand).
func (e *DBEngines) Compute(ctx context.Context, small bool, progress func(DBProgress)) error {
	db, err := e.database()
	if err != nil {
		return err
	}
	return e.solve(ctx, db, computeOptions(small), progress)
}

// solve runs the service's solver run with opts (dbservice.Solve: its
// units recorded in the folder's solve record), passing its progress on,
// noting the layer being computed, and keeping the speed the run
// measured for the next estimate. When what is left waits for units
// another solver holds, the error names it.
func (e *DBEngines) solve(ctx context.Context, db *layers.DB, opts retro.SolveOptions, progress func(DBProgress)) error {
	defer e.notComputing(ctx)
	v := db.Variant()
	speed, err := dbservice.Solve(ctx, db, dbservice.Run{Opts: opts, Speed: e.Speed(),
		Progress: func(p retro.Progress, pr DBProgress) {
			e.mu.Lock()
			e.busy, e.busyOn, e.busyIn = p.Layer, true, v
			e.mu.Unlock()
			progress(pr)
		}})
	if speed > 0 {
		e.SetSpeed(speed)
	}
	var le *layers.LockedError
	switch {
	case ctx.Err() != nil:
	case errors.As(err, &le):
		return fmt.Errorf("another program is computing in this folder (%v); the layers it computes are shared, try again when it has finished", le.Holder)
	case errors.Is(err, layers.ErrLocked):
		return fmt.Errorf("another program is computing in this folder; the layers it computes are shared, try again when it has finished (%w)", err)
	}
	return err
}

// DefaultOptions returns the options of the program: engines and the
// database panel on dir, or when dir is "" on the folder saved in the
// preferences, else layers.DefaultDir().
func DefaultOptions(a fyne.App, dir string) Options {
	if dir == "" {
		dir = a.Preferences().StringWithFallback(prefDBDir, layers.DefaultDir())
	}
	e := NewEngines(dir)
	return Options{Engines: e, Database: e}
}
