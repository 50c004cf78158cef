package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("tree", "print the alpha-beta player's search tree of a position, beside minimax", runTree)
}

func runTree(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tree", "[--position TEXT] [--depth D] [--minimax] [--limit N] [--max-nodes N] [--db DIR] [--stones K] [--search-db] [--legend] [--unreachable]", stderr)
	dbf := addDBFlags(fs)
	text := fs.String("position", "", "the `position` (default the empty board; see muehle/doc.go)")
	depth := fs.Int("depth", 3, fmt.Sprintf("search `depth` in plies (1 to %d)", play.MaxTreeDepth))
	minimax := fs.Bool("minimax", false, "print the minimax tree (no pruning) instead of the alpha-beta tree")
	limit := fs.Int("limit", play.DefaultTreeLimit, "record at most `N` searched nodes (the counts cover all)")
	maxNodes := fs.Uint64("max-nodes", 20_000_000, "stop a search beyond `N` nodes (minimax with its quiescence step can take millions)")
	searchDB := fs.Bool("search-db", false, "let the search read the database too, as the player with a database does (default: the database only annotates)")
	legend := fs.Bool("legend", false, "explain the marks first")
	unreachable := addUnreachableFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var pos muehle.Position
	if *text != "" {
		var err error
		if pos, err = muehle.ParsePosition(*text); err != nil {
			return err
		}
		if err := play.Supported(pos.Rules()); err != nil {
			return err
		}
		dbf.adopt(pos.Game)
	}
	if err := errors.Join(dbf.check(), inRange("--depth", *depth, 1, play.MaxTreeDepth, ""),
		inRange("--limit", *limit, 1, 10_000_000, "")); err != nil {
		return flagError(fs, err)
	}
	if *text == "" {
		pos = dbf.variant().NewPosition()
	} else if err := dbf.agrees(pos.Game); err != nil {
		return flagError(fs, err)
	}
	if err := checkReachable(stdout, pos, *dbf.stones, *unreachable); err != nil {
		return err
	}
	g, err := muehle.NewGameFrom(pos, *dbf.stones)
	if err != nil {
		return err
	}
	o := play.TreeOptions{Depth: *depth, Limit: *limit, SearchDB: *searchDB, MaxNodes: *maxNodes}
	// The database annotates when its folder exists; without one the
	// tree has no database values.
	if _, err := os.Stat(*dbf.dir); err == nil {
		db, err := dbf.open()
		if err != nil {
			return err
		}
		defer db.Close()
		o.DB = db
	} else if *searchDB {
		return fmt.Errorf("--search-db: no database in %s", *dbf.dir)
	}

	ab, err := play.TraceTree(ctx, g, o)
	if err != nil {
		return err
	}
	o.Minimax = true
	mm, err := play.TraceTree(ctx, g, o)
	if err != nil && (*minimax || !errors.Is(err, play.ErrTreeTooLarge)) {
		return err
	}
	shown := ab
	if *minimax {
		shown = mm
	}
	fmt.Fprintf(stdout, "position %s\n", pos)
	if *legend {
		fmt.Fprintf(stdout, "\n%s\n\n", play.TreeLegend)
	}
	if err := shown.WriteText(stdout); err != nil {
		return err
	}
	if shown.Truncated {
		fmt.Fprintf(stdout, "(recording stopped at %d nodes: --limit)\n", *limit)
	}
	fmt.Fprintln(stdout, ab.Summary())
	if mm != nil {
		fmt.Fprintln(stdout, mm.Summary())
		fmt.Fprintf(stdout, "alpha-beta visited %d of minimax's %d nodes (%.1f %%)\n", ab.Visited, mm.Visited, 100*float64(ab.Visited)/float64(mm.Visited))
	} else {
		fmt.Fprintf(stdout, "minimax: stopped after %d nodes (--max-nodes)\n", *maxNodes)
	}
	if o.DB == nil {
		fmt.Fprintf(stdout, "no database in %s: no database values\n", *dbf.dir)
		return nil
	}
	known, disagree := dbCounts(shown)
	fmt.Fprintf(stdout, "database values for %d of %d searched nodes recorded; %d disagree with the search (≠db)\n", known, shown.Searched(), disagree)
	return nil
}

// dbCounts counts the searched nodes of t with a database value, and
// those whose search value the database contradicts.
func dbCounts(t *play.Tree) (known, disagree int) {
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Cut || n.DB.Outcome() == layers.NoOutcome {
			continue
		}
		known++
		if n.Disagrees() {
			disagree++
		}
	}
	return known, disagree
}
