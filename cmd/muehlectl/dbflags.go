package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

// dbFlags are the flags of the commands that read or write the database:
// its directory, the game and the stones per side.
type dbFlags struct {
	dir    *string
	game   *string
	stones *int
	fs     *flag.FlagSet // to tell a --game given from its default
	mem    *cacheFlag    // --mem, for a command that reads layers (withCache); nil: none
}

// addDBFlags declares --db, --game and --stones on fs.
func addDBFlags(fs *flag.FlagSet) dbFlags {
	return dbFlags{
		dir:    fs.String("db", layers.DefaultDir(), "database `directory`"),
		game:   fs.String("game", "standard", "the game: "+muehle.GameIDs()),
		stones: fs.Int("stones", 0, "stones per side, 3 up to the game's (0 = the game's: 9 for standard, 12 for twelve)"),
		fs:     fs,
	}
}

// withCache declares --mem too (addCacheFlag), for a command that reads
// layers: open bounds the database's memory for compressed layers by it.
func (f dbFlags) withCache() dbFlags {
	c := addCacheFlag(f.fs)
	f.mem = &c
	return f
}

// check reports a bad --db, --game, --stones or --mem, and sets --stones
// 0 to the game's own count.
func (f dbFlags) check() error {
	if f.mem != nil {
		if err := f.mem.check(); err != nil {
			return err
		}
	}
	if *f.dir == "" {
		return errors.New("--db: want a directory")
	}
	if err := f.gameFolder(); err != nil {
		return err
	}
	v, err := variantFlags(*f.game, *f.stones)
	if err != nil {
		return err
	}
	*f.stones = v.Stones
	return nil
}

// gameFolder takes a --db that names the folder of one game's layers
// itself (layers.GameFolder: ~/.local/share/muehle/k9, not
// ~/.local/share/muehle) as the database folder that holds it, its game
// and stones those of the folder where --game and --stones do not name
// them; before, a solve there began afresh in k9/k9. A folder it cannot
// take so (other stones asked for, or layer files in a folder not named
// for their game) is refused with the folder to give.
func (f dbFlags) gameFolder() error {
	w, root, ok := layers.GameFolder(*f.dir)
	if !ok {
		return nil
	}
	game, stones := *f.game, *f.stones
	if !flagSet(f.fs, "game") {
		game = w.Game.String()
	}
	if r, ok := muehle.GameByName(game); stones == 0 && ok && r.Game() == w.Game {
		stones = w.Stones
	}
	asked, err := variantFlags(game, stones)
	if err != nil {
		return nil // check names the bad flag
	}
	if *f.dir, err = gameFolderRoot(*f.dir, w, root, asked); err != nil {
		return err
	}
	*f.game, *f.stones = game, stones
	return nil
}

// databaseDir returns the database folder for a --db dir of a command
// with a --db of its own (import, review, levels, serve, loadtest): dir,
// or the folder above it when dir is the folder of the layers of want
// (layers.GameFolder; the zero want: of any game); an error says which
// folder to give.
func databaseDir(dir string, want muehle.Variant) (string, error) {
	w, root, ok := layers.GameFolder(dir)
	if !ok {
		return dir, nil
	}
	if want == (muehle.Variant{}) {
		want = w
	}
	return gameFolderRoot(dir, w, root, want)
}

// gameFolderRoot returns the database folder root for a --db dir that is
// the folder of the layers of w (layers.GameFolder), the game asked for
// being asked, or an error that says which folder to give.
func gameFolderRoot(dir string, w muehle.Variant, root string, asked muehle.Variant) (string, error) {
	switch {
	case root == "":
		return dir, fmt.Errorf("--db %s holds the layer files of %s itself, where a database folder holds them in a folder of its own (%s): give a database folder, and put the layers into that folder of it",
			dir, w.Name(), layers.GameDir("", w))
	case asked != w:
		return dir, fmt.Errorf("--db %s is the folder of the layers of %s, not a database folder: give the database folder that holds it, --db %s (the layers of %s then go to %s)",
			dir, w.Name(), root, asked.Name(), layers.GameDir(root, asked))
	}
	return root, nil
}

// gameFlag returns the rule set a --game flag names, or an error that
// lists the games.
func gameFlag(name string) (*muehle.Rules, error) {
	r, ok := muehle.GameByName(name)
	if !ok {
		return nil, fmt.Errorf("--game %q: want one of %s", name, muehle.GameIDs())
	}
	return r, nil
}

// variantFlags returns the variant --game and --stones name, --stones 0
// being the game's own count, or an error for a game this program does
// not know, a count outside 3 to the game's, or a game the database
// cannot hold (layers.CheckVariant).
func variantFlags(game string, stones int) (muehle.Variant, error) {
	r, err := gameFlag(game)
	if err != nil {
		return muehle.Variant{}, err
	}
	if stones == 0 {
		stones = r.Stones
	}
	if err := inRange("--stones", stones, muehle.MinStones, r.Stones, " for "+r.Name); err != nil {
		return muehle.Variant{}, err
	}
	v := r.Game().With(stones)
	return v, layers.CheckVariant(v)
}

// adopt makes the game of a position or record the flags' game when
// --game was not given: a position text names its game, so
// `query --position "... twelve"` needs no --game, while an explicit
// --game standard conflicts with it (agrees). Call it before check.
func (f dbFlags) adopt(g muehle.GameID) {
	if !flagSet(f.fs, "game") && g.Rules() != nil {
		*f.game = g.String()
	}
}

// agrees returns an error when the game of a position or record is not
// the flags' game.
func (f dbFlags) agrees(g muehle.GameID) error {
	if v := f.variant(); v.Game != g {
		return fmt.Errorf("the position is of %s, and --game names %s", g, v.Game)
	}
	return nil
}

// perSide returns the stones per side the flags name, before check too:
// --stones, or the game's own count when it is 0 (9 when --game names
// no game; check reports that).
func (f dbFlags) perSide() int {
	if *f.stones != 0 {
		return *f.stones
	}
	if r, ok := muehle.GameByName(*f.game); ok {
		return r.Stones
	}
	return muehle.StonesPerSide
}

// label names the flags' game in messages: "k=9" for the standard game
// (as before there were others), "twelve k=12" for another.
func (f dbFlags) label() string {
	if v := f.variant(); v.Game != muehle.Standard {
		return fmt.Sprintf("%s k=%d", v.Game, v.Stones)
	}
	return fmt.Sprintf("k=%d", *f.stones)
}

// variant returns the game and stones the flags name (after check).
func (f dbFlags) variant() muehle.Variant {
	r, ok := muehle.GameByName(*f.game)
	if !ok {
		return muehle.Variant{Stones: f.perSide()} // check names the bad --game
	}
	return r.Game().With(f.perSide())
}

// layerKeys parses the --layer flag's list: keys separated by commas,
// each a layer of the flags' game.
func (f dbFlags) layerKeys(list string) ([]layers.Key, error) {
	var keys []layers.Key
	for s := range strings.SplitSeq(list, ",") {
		k, err := layers.ParseKey(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		if !layers.ValidIn(f.variant(), k) {
			return nil, fmt.Errorf("--layer %s: not a layer of the %d-stone game", k, f.perSide())
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// open opens the database the flags name, its memory for compressed
// layers bounded by --mem where the command has it. It creates nothing.
func (f dbFlags) open() (*layers.DB, error) {
	db, err := layers.OpenDB(*f.dir, f.variant())
	if err == nil && f.mem != nil {
		f.mem.apply(db)
	}
	return db, err
}

// openExisting opens the database for a command that only reads it: a
// missing folder is an error that says so.
func (f dbFlags) openExisting() (*layers.DB, error) {
	if _, err := os.Stat(*f.dir); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no database in %s: the folder does not exist", *f.dir)
	}
	return f.open()
}

// openVerified opens the database for a command that presents its values
// as the database's truth (query, the players, review, train, tree): an
// unverified layer reads as missing, with the reason
// (layers.DB.VerifiedOnly; docs/records.md, "Unverified layers").
func (f dbFlags) openVerified() (*layers.DB, error) {
	db, err := f.openExisting()
	if err == nil {
		db.VerifiedOnly()
	}
	return db, err
}

// cacheFlag is --mem of the commands that read layers for play: the bound
// in MiB of what compressed layers take decoded (layers.DB.SetCacheBytes).
type cacheFlag struct{ mib *int64 }

// addCacheFlag declares --mem on fs.
func addCacheFlag(fs *flag.FlagSet) cacheFlag {
	return cacheFlag{fs.Int64("mem", 0, fmt.Sprintf("bound in `MiB` of the memory compressed layers take decoded: the layers decoded in full and the block cache of probes together (0 = %d)", layers.DefaultCacheBytes>>20))}
}

// check reports a negative --mem or one beyond the machine's memory.
func (f cacheFlag) check() error {
	if *f.mib < 0 || *f.mib > math.MaxInt64>>20 {
		return fmt.Errorf("--mem %d: want 0 or more MiB", *f.mib)
	}
	return checkMemory("--mem", uint64(*f.mib)<<20, 1)
}

// apply bounds db's block cache as --mem says.
func (f cacheFlag) apply(db *layers.DB) {
	if *f.mib > 0 {
		db.SetCacheBytes(*f.mib << 20)
	}
}

// addSharedCacheFlag declares --mem on fs for a command that opens the
// databases of several games at once (serve): one bound for them all.
func addSharedCacheFlag(fs *flag.FlagSet) cacheFlag {
	return cacheFlag{fs.Int64("mem", 0, fmt.Sprintf("bound in `MiB` of the memory compressed layers take decoded, for all the games served together: each game's database gets an equal share (0 = %d MiB for each game)", layers.DefaultCacheBytes>>20))}
}

// applyShared bounds the databases dbs together as --mem says: each gets
// an equal share (at least a byte: the cache keeps one block whatever its
// bound).
func (f cacheFlag) applyShared(dbs []*layers.DB) {
	if *f.mib <= 0 || len(dbs) == 0 {
		return
	}
	share := max(*f.mib<<20/int64(len(dbs)), 1)
	for _, db := range dbs {
		db.SetCacheBytes(share)
	}
}

// layerFlags choose the layers of the game a command works on, as solve
// computes them: the moving layers, up to a number of stones on the board,
// and the placement layers.
type layerFlags struct {
	maxStones *int
	placement *bool
	all       *bool
}

// addLayerFlags declares --max-stones, --placement and --all-phases on fs.
func addLayerFlags(fs *flag.FlagSet) layerFlags {
	return layerFlags{
		maxStones: fs.Int("max-stones", 0, "only moving layers with at most `N` stones on the board, 6 to 2×stones (0 = all)"),
		placement: fs.Bool("placement", false, "the placement layers too (needs every moving layer)"),
		all:       fs.Bool("all-phases", false, "the whole game: all moving layers, then the placement layers"),
	}
}

// options checks the flags for a game of stones per side and returns the
// layers they choose as solve options.
func (f layerFlags) options(stones int) (retro.SolveOptions, error) {
	var o retro.SolveOptions
	if *f.placement && *f.all {
		return o, errors.New("--placement and --all-phases: give one (--all-phases is --placement over every moving layer)")
	}
	if *f.maxStones != 0 {
		if err := inRange("--max-stones", *f.maxStones, 6, 2*stones, "; 0 = all, and the smallest layer has 6"); err != nil {
			return o, err
		}
		if *f.placement || *f.all {
			return o, errors.New("--max-stones with --placement or --all-phases: the placement layers need every moving layer; drop --max-stones")
		}
	}
	o.MaxStones = *f.maxStones
	o.Placement = *f.placement || *f.all
	return o, nil
}

// maxWorkersPerCore caps --workers: more goroutines than a few per core
// only cost memory.
const maxWorkersPerCore = 4

// addWorkers declares --workers on fs.
func addWorkers(fs *flag.FlagSet) *int {
	return fs.Int("workers", 0, fmt.Sprintf("goroutines, at most %d per core (0 = one per core)", maxWorkersPerCore))
}

// checkWorkers reports a --workers value out of range.
func checkWorkers(n int) error {
	return inRange("--workers", n, 0, maxWorkersPerCore*runtime.NumCPU(),
		fmt.Sprintf("; 0 = one per core, at most %d per core on this machine of %d cores", maxWorkersPerCore, runtime.NumCPU()))
}

// machineMemory returns the machine's physical memory (layers.TotalMemory);
// tests replace it.
var machineMemory = layers.TotalMemory

// checkMemory reports a memory-sized flag that asks for more than share
// of the machine's memory: the command would map it, swap and answer
// nothing (issue 48). Where the system does not tell its memory, any size
// passes.
func checkMemory(flag string, bytes uint64, share float64) error {
	total, ok := machineMemory()
	if !ok || float64(bytes) <= share*float64(total) {
		return nil
	}
	of := fmt.Sprintf("%.0f%% of ", 100*share)
	if share >= 1 {
		of = ""
	}
	return fmt.Errorf("%s: %s of memory, more than %sthis machine's %s", flag, sizeText(int64(min(bytes, math.MaxInt64))), of, sizeText(int64(total)))
}

// inRange reports a flag value outside lo to hi, with a hint.
func inRange(name string, v, lo, hi int, hint string) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: want %d to %d%s", name, v, lo, hi, hint)
	}
	return nil
}

// flagError prints a bad flag combination and the usage, as the flag
// package does for a bad flag, and returns errUsage.
func flagError(fs *flag.FlagSet, err error) error {
	fmt.Fprintf(fs.Output(), "%v\n", err)
	fs.Usage()
	return errUsage
}
