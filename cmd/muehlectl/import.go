package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"muehle/layers"
	"muehle/layers/pack"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/dbservice"
)

func init() {
	register("import", "install a package written by export into the database (resumable)", runImport)
}

// importArgs are the checked flags of import.
type importArgs struct {
	file    string
	dir     string
	expect  muehle.Variant // the game asked for (Stones 0: the package's)
	force   bool
	verify  bool
	workers int
}

// parseImport parses and checks the flags of import; the package comes
// before or after the flags.
func parseImport(args []string, stderr io.Writer) (importArgs, error) {
	fs := newFlags("import", "FILE [--db DIR] [--game G] [--stones K] [--force] [--verify]", stderr)
	dir := fs.String("db", layers.DefaultDir(), "database `directory` to install into")
	game := fs.String("game", "", "refuse a package of another game than G: "+muehle.GameIDs()+` ("": take the package's)`)
	stones := fs.Int("stones", 0, "refuse a package of another stone count than K (0: take the package's, or with --game the game's own)")
	force := fs.Bool("force", false, "replace verified layers that differ from the package's (else the import is refused, nothing changed)")
	verify := fs.Bool("verify", false, "after the import, re-derive every value of the package's layers from its children (muehlectl verify)")
	workers := addWorkers(fs)
	var a importArgs
	if err := fs.Parse(args); err != nil {
		return a, parseError(err)
	}
	if fs.NArg() > 0 { // FILE first, flags after it
		a.file = fs.Arg(0)
		if err := parseFlags(fs, fs.Args()[1:]); err != nil {
			return a, err
		}
	}
	var err error
	switch {
	case a.file == "":
		err = errors.New("name the package FILE to import")
	case *dir == "":
		err = errors.New("--db: want a directory")
	case *game != "" || *stones != 0:
		name := *game
		if name == "" {
			name = muehle.Standard.Rules().ID
		}
		var r *muehle.Rules
		if r, err = gameFlag(name); err != nil {
			break
		}
		if *stones == 0 {
			*stones = r.Stones
		}
		if err = inRange("--stones", *stones, muehle.MinStones, r.Stones, "; 0 = the package's"); err == nil {
			a.expect = r.Game().With(*stones)
		}
	}
	if err == nil {
		err = checkWorkers(*workers)
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	a.dir, a.force, a.verify, a.workers = *dir, *force, *verify, *workers
	return a, nil
}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseImport(args, stderr)
	if err != nil {
		return err
	}
	p, err := pack.Open(a.file)
	if err != nil {
		return inputError("the package", a.file, 0, err)
	}
	defer p.Close()
	m := p.Manifest
	fmt.Fprintf(stdout, "package %s: %s of %s, %s of layer bodies in %s; rules %s\n",
		a.file, layerCount(len(m.Layers)), m.Variant().Name(), sizeText(int64(m.Bytes())), sizeText(p.Size()), m.Fingerprint)
	fmt.Fprintf(stdout, "written %s by %s\n", m.Created, machineText(m.Exported))
	for _, c := range m.Computed {
		fmt.Fprintf(stdout, "computed: %d units by commit %s on %d cores\n", c.Units, c.Commit, c.Cores)
	}
	if a.dir, err = databaseDir(a.dir, m.Variant()); err != nil {
		return err
	}
	show := newPackProgress(stderr)
	start := time.Now()
	res, err := dbservice.Import(ctx, p, a.dir, pack.ImportOptions{Variant: a.expect, Force: a.force, Progress: show.update, Note: show.note})
	show.finish()
	if err != nil {
		if ctx.Err() != nil {
			n := 0
			if res != nil {
				n = len(res.Installed)
			}
			return fmt.Errorf("interrupted after %s; the %d layers installed are kept, run again to resume: %w", time.Since(start).Round(time.Second), n, err)
		}
		return err
	}
	fmt.Fprintf(stdout, "imported into %s: %d layers installed, %d already there and identical, in %s\n",
		a.dir, len(res.Installed), len(res.Skipped), time.Since(start).Round(time.Millisecond))
	if len(res.Old) > 0 {
		if err := convertImported(ctx, a.dir, m.Variant().Stones, len(res.Old), stdout); err != nil {
			return err
		}
	}
	if !a.verify {
		return nil
	}
	return verifyImported(ctx, a, m, stdout)
}

// convertImported rewrites the n layers of the format before that a
// package of format 1 installed in dir in this format
// (dbservice.ConvertImported, as convert and the window do), keeping their
// verification.
func convertImported(ctx context.Context, dir string, stones, n int, stdout io.Writer) error {
	fmt.Fprintf(stdout, "the package (format 1) holds %d layers of the format before: converting them\n", n)
	start := time.Now()
	step := 0
	done, err := dbservice.ConvertImported(ctx, dir, stones, dbservice.ConvertRun{Progress: func(p dbservice.Progress) {
		if p.Step != step {
			step = p.Step
			fmt.Fprintf(stdout, "converting layer %d of %d  %s  %s\n", p.Step, p.Steps, p.Unit, p.LeftWords())
		}
	}, Skipped: func(s string) { fmt.Fprintln(stdout, s) }})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "converted %d layers in %s\n", done, time.Since(start).Round(time.Millisecond))
	return nil
}

// machineText describes a machine of the manifest.
func machineText(m pack.Machine) string {
	var parts []string
	if m.Host != "" {
		parts = append(parts, "host "+m.Host)
	}
	if m.OS != "" {
		parts = append(parts, m.OS)
	}
	if m.Cores > 0 {
		parts = append(parts, fmt.Sprintf("%d cores", m.Cores))
	}
	return fmt.Sprintf("commit %s (%s)", m.Commit, strings.Join(parts, ", "))
}

// verifyImported verifies every layer of the package, as verify does.
func verifyImported(ctx context.Context, a importArgs, m *pack.Manifest, stdout io.Writer) error {
	db, err := layers.OpenDB(a.dir, m.Variant())
	if err != nil {
		return err
	}
	defer db.Close()
	va := verifyArgs{limit: 10, workers: a.workers}
	bad := 0
	for i := range m.Layers {
		k := m.Key(i)
		start := time.Now()
		state, detail := verifyOne(ctx, db, k, va, stdout)
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while verifying %s (the import is complete): %w", k, ctx.Err())
		}
		if state != "ok" {
			bad++
		} else {
			detail += "  " + time.Since(start).Round(time.Millisecond).String()
		}
		fmt.Fprintf(stdout, "%-10s %-8s %s\n", k, state, detail)
	}
	if bad > 0 {
		return fmt.Errorf("%d of %d imported layers not verified", bad, len(m.Layers))
	}
	fmt.Fprintf(stdout, "all %d layers verified\n", len(m.Layers))
	return nil
}

// tidyClaims removes the claims of db's folder that no live process holds
// and what their killed holders left beside their layers
// (layers.DB.TidyClaims), saying so on w.
func tidyClaims(ctx context.Context, db *layers.DB, w io.Writer) {
	units := retro.Units(db.Variant(), retro.SolveOptions{Placement: true})
	keysOf := func(name string) []layers.Key {
		u, err := retro.FindUnit(units, name)
		if err != nil {
			return nil
		}
		return u.Keys
	}
	removed, err := db.TidyClaims(ctx, keysOf)
	for _, name := range removed {
		fmt.Fprintf(w, "removed the claim of %s and its files left by a process that ended\n", name)
	}
	if err != nil {
		fmt.Fprintf(w, "tidying the claims: %v\n", err)
	}
}
