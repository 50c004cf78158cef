package layers

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"muehle/muehle"
)

// The layout of a database folder. This file is the one place that names
// the files and folders in it; the solver (retro), the players
// (retro/play) and the programs ask it for their paths.
//
//	DIR/                       the database folder (DefaultDir, or --db)
//	  k<stones>/               Nine Men's Morris with stones per side:
//	                           GameDir (another game's is DIR/<game>/k<stones>,
//	                           e.g. DIR/twelve/k12, its jobs in
//	                           DIR/<game>/slurm-k<stones>)
//	    m3-4.layer             moving layer 3-4 (Path; the format in doc.go)
//	    p5+2-4+2.layer         placement layer 5+2-4+2
//	    m3-4.blocks            the CRC-64 of each 64 KiB block of the body
//	                           of m3-4.layer (blocks.go)
//	    m3-4.verified          the record that m3-4.layer passed
//	                           verification (status.go)
//	    p5+2-4+2.reach         the slots of placement layer 5+2-4+2 a game
//	                           can reach from the empty board, one bit
//	                           each (ReachPath; written by retro's
//	                           forward pass, retro/reachfile.go; the
//	                           format layers/reach.go)
//	    UNIT.claim             held by the one solver computing the unit
//	                           of work called UNIT (ClaimPath; the solver
//	                           chooses the names: retro.UnitName); a lock
//	                           file (lock.go)
//	    solve-record.tsv       a line per unit a solver finished: its
//	                           times, memory and version (RecordPath;
//	                           the fields in layers/record.go)
//	    placement.book         the perfect player's book of placement
//	                           positions it searched (BookPath; the
//	                           format book.go, the cache retro/play/book.go),
//	                           and placement.book.lock
//	                           while a player writes it
//	    NAME.tmp, NAME.*.tmp, NAME.beat
//	                           a file being written, renamed over NAME
//	                           when complete; left only by a killed process,
//	                           and removed with its claim by the next solve
//	                           or import (DB.TidyClaims)
//	    NAME.*.replaced        (Windows) the old NAME, replaced or removed
//	                           while another program had it open or
//	                           mapped; removed by the next ReplaceFile in
//	                           the folder once that program let it go
//	                           (rename_windows.go)
//	  tmp/                     the solver's work lists and spilled state
//	                           while it computes a unit (TempDir), removed
//	                           when empty
//	  slurm-k<stones>/         the job scripts and logs of muehlectl slurm
//	                           (JobsDir)
//
// Nothing else is written there. The folder and k<stones> are created by
// the first write or claim, never by opening a DB.
const (
	layerSuffix    = ".layer"
	blocksSuffix   = ".blocks"
	verifiedSuffix = ".verified"
	reachSuffix    = ".reach"
	claimSuffix    = ".claim"
	recordName     = "solve-record.tsv"
	bookName       = "placement.book"
	tempName       = "tmp"
)

// GameDir returns the folder of variant v in the database folder dir:
// dir/k<stones> for the standard game (as before there were others), and
// dir/<game>/k<stones> for another, e.g. dir/twelve/k5.
func GameDir(dir string, v muehle.Variant) string {
	return filepath.Join(gameRoot(dir, v.Game), fmt.Sprintf("k%d", v.Stones))
}

// gameRoot returns the folder of game g's variants: dir for the standard
// game, dir/<game> for another.
func gameRoot(dir string, g muehle.GameID) string {
	if g == muehle.Standard {
		return dir
	}
	return filepath.Join(dir, g.String())
}

// GameFolder reports whether dir is itself the folder of one variant's
// layers (what GameDir returns), not a database folder: a person who
// gives ~/.local/share/muehle/k9 as the database means the folder above
// it. The layer files in dir say which variant (their headers: the game
// and stones); without any, its name does (k<stones>, under a folder
// named by the game for a game other than the standard one) unless dir
// holds a folder of that name itself (it is then a database folder,
// whatever its name). root is the database folder whose GameDir of v is
// dir, "" when there is none (layer files in a folder not named for
// their game).
func GameFolder(dir string) (v muehle.Variant, root string, ok bool) {
	dir = filepath.Clean(dir)
	for _, n := range layerFiles(dir) {
		if v, ok = fileVariant(n); ok {
			break
		}
	}
	if !ok {
		if v, ok = namedVariant(dir); !ok {
			return v, "", false
		}
		if fi, err := os.Stat(GameDir(dir, v)); err == nil && fi.IsDir() {
			return v, "", false
		}
	}
	root = filepath.Dir(dir)
	if v.Game != muehle.Standard {
		root = filepath.Dir(root)
	}
	if GameDir(root, v) != dir {
		root = ""
	}
	return v, root, true
}

// fileVariant returns the variant the layer file at path names in its
// header (a compressed file's too), false when it is no layer file.
func fileVariant(path string) (muehle.Variant, bool) {
	f, err := OpenRegular(path)
	if err != nil {
		return muehle.Variant{}, false
	}
	defer f.Close()
	b := make([]byte, zHead)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	if isCompressed(b) && n == zHead {
		b = b[zPreamble:]
	}
	h, err := parseHeader(b, path)
	if err != nil {
		return muehle.Variant{}, false
	}
	v := h.Game.With(h.Stones)
	return v, CheckVariant(v) == nil
}

// namedVariant returns the variant whose GameDir has the name of dir:
// k<stones>, in a folder named by the game for another game than the
// standard one.
func namedVariant(dir string) (muehle.Variant, bool) {
	var n int
	base := filepath.Base(dir)
	if _, err := fmt.Sscanf(base, "k%d", &n); err != nil || base != fmt.Sprintf("k%d", n) {
		return muehle.Variant{}, false
	}
	g := muehle.Standard
	if r, ok := muehle.GameByName(filepath.Base(filepath.Dir(dir))); ok && r.ID == filepath.Base(filepath.Dir(dir)) {
		g = r.Game()
	}
	v := g.With(n)
	return v, CheckVariant(v) == nil
}

// GameDir returns the folder of the database's game: Dir()/k<stones>.
func (d *DB) GameDir() string { return d.sub }

// Empty reports whether the game's folder holds no layer file yet: a
// solve that finds it so starts from the beginning.
func (d *DB) Empty() bool { return len(layerFiles(d.sub)) == 0 }

// layerFiles returns the layer files in dir, by their names.
func layerFiles(dir string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, "*"+layerSuffix))
	return names
}

// Path returns the file of layer k: dir/k<stones>/m3-4.layer for a moving
// layer, dir/k<stones>/p5+2-4+2.layer for a placement layer.
func (d *DB) Path(k Key) string {
	name := "m" + k.String()
	if !k.IsMoving() {
		name = k.String()
	}
	return filepath.Join(d.sub, name+layerSuffix)
}

// beside returns the file beside the layer file at path with suffix in
// place of .layer.
func beside(path, suffix string) string {
	return strings.TrimSuffix(path, layerSuffix) + suffix
}

// blocksPath returns the block file of the layer file at path:
// m3-4.blocks for m3-4.layer.
func blocksPath(path string) string { return beside(path, blocksSuffix) }

// BlocksPath returns the block file of layer k: dir/k<stones>/m3-4.blocks
// (a package copies it with a compressed layer file, layers/pack).
func (d *DB) BlocksPath(k Key) string { return blocksPath(d.Path(k)) }

// VerifiedPath returns the file of the verification record of layer k.
func (d *DB) VerifiedPath(k Key) string { return beside(d.Path(k), verifiedSuffix) }

// ReachPath returns the file of the reachable slots of placement layer k:
// dir/k<stones>/p5+2-4+2.reach. Package retro writes and reads it.
func (d *DB) ReachPath(k Key) string { return beside(d.Path(k), reachSuffix) }

// ClaimPath returns the lock file that claims the unit of work called
// name: dir/k<stones>/<name>.claim. The name is the solver's (retro
// names its units m3-4, p5+2-4+2, and its forward pass reach); this
// package only keeps it a file name.
func (d *DB) ClaimPath(name string) string {
	return filepath.Join(d.sub, name+claimSuffix)
}

// RecordPath returns the solve record of the database's game:
// dir/k<stones>/solve-record.tsv.
func (d *DB) RecordPath() string { return filepath.Join(d.sub, recordName) }

// BookPath returns the perfect player's book of variant v in the database
// folder dir: GameDir/placement.book.
func BookPath(dir string, v muehle.Variant) string {
	return filepath.Join(GameDir(dir, v), bookName)
}

// TempDir returns the folder of the solver's work files in the database
// folder dir: dir/tmp.
func TempDir(dir string) string { return filepath.Join(dir, tempName) }

// JobsDir returns the folder of the batch jobs of variant v in the
// database folder dir: dir/slurm-k<stones> for the standard game,
// dir/<game>/slurm-k<stones> for another.
func JobsDir(dir string, v muehle.Variant) string {
	return filepath.Join(gameRoot(dir, v.Game), fmt.Sprintf("slurm-k%d", v.Stones))
}

// FileKind names the kinds of files of a game's folder, for a report of
// its disk space.
type FileKind string

// The kinds of files, as DiskUsage counts them.
const (
	KindMoving    FileKind = "moving layers"
	KindPlacement FileKind = "placement layers"
	KindBlocks    FileKind = "block files"
	KindVerified  FileKind = "verification records"
	KindReach     FileKind = "reach files"
	KindRecord    FileKind = "solve record"
	KindBook      FileKind = "placement book"
	KindOther     FileKind = "other (claims, files being written)"
)

// Usage is the disk space of the files of one kind: their number and
// bytes.
type Usage struct {
	Files int
	Bytes uint64
}

// DiskUsage returns the disk space of the files in the folder of the
// database's game, by kind (sizes, not blocks allocated).
func (d *DB) DiskUsage() (map[FileKind]Usage, error) {
	ents, err := os.ReadDir(d.sub)
	if err != nil {
		return nil, fmt.Errorf("layers: %w", err)
	}
	use := map[FileKind]Usage{}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		name := e.Name()
		kind := KindOther
		switch {
		case strings.HasSuffix(name, layerSuffix) && strings.HasPrefix(name, "m"):
			kind = KindMoving
		case strings.HasSuffix(name, layerSuffix):
			kind = KindPlacement
		case strings.HasSuffix(name, blocksSuffix):
			kind = KindBlocks
		case strings.HasSuffix(name, verifiedSuffix):
			kind = KindVerified
		case strings.HasSuffix(name, reachSuffix):
			kind = KindReach
		case name == recordName:
			kind = KindRecord
		case name == bookName:
			kind = KindBook
		}
		u := use[kind]
		u.Files++
		u.Bytes += uint64(fi.Size())
		use[kind] = u
	}
	return use, nil
}
