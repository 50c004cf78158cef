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
	"muehle/retro/search"
)

func init() {
	register("tree", "print the alpha-beta player's search tree of a position, beside minimax or conspiracy numbers", runTree)
}

func runTree(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tree", "[--position TEXT] [--depth D] [--minimax | --ccns] [--limit N] [--max-nodes N] [--db DIR] [--stones K] [--search-db] [--legend] [--unreachable] [--mem MiB]", stderr)
	dbf := addDBFlags(fs).withCache()
	text := fs.String("position", "", "the `position` (default the empty board; see muehle/doc.go)")
	depth := fs.Int("depth", 3, fmt.Sprintf("search `depth` in plies (1 to %d; with --ccns the safety sequence's pairs up to that depth, 1 to %d)", search.MaxTreeDepth, search.MaxCCNSTreeDepth))
	minimax := fs.Bool("minimax", false, "print the minimax tree (no pruning) instead of the alpha-beta tree")
	ccns := fs.Bool("ccns", false, "print the conspiracy number player's tree instead of the alpha-beta tree")
	limit := fs.Int("limit", search.DefaultTreeLimit, "record at most `N` searched nodes (the counts cover all)")
	maxNodes := fs.Uint64("max-nodes", 20_000_000, "stop a search beyond `N` nodes (minimax with its quiescence step can take millions)")
	searchDB := fs.Bool("search-db", false, "let the search read the database too, as the player with a database does (default: the database only annotates)")
	legend := fs.Bool("legend", false, "explain the marks first")
	unreachable := addUnreachableFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *minimax && *ccns {
		return flagError(fs, errors.New("--minimax and --ccns: choose one"))
	}
	maxDepth := search.MaxTreeDepth
	if *ccns {
		maxDepth = search.MaxCCNSTreeDepth
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
	if err := errors.Join(dbf.check(), inRange("--depth", *depth, 1, maxDepth, ""),
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
	// With --ccns alpha-beta, for its summary, searches as deep as it may.
	o := search.TreeOptions{Depth: min(*depth, search.MaxTreeDepth), Limit: *limit, SearchDB: *searchDB, MaxNodes: *maxNodes}
	// The database annotates when its folder exists; without one the
	// tree has no database values.
	if _, err := os.Stat(*dbf.dir); err == nil {
		db, err := dbf.openVerified()
		if err != nil {
			return err
		}
		defer db.Close()
		o.DB = db
	} else if *searchDB {
		return fmt.Errorf("--search-db: no database in %s", *dbf.dir)
	}

	ab, err := search.TraceTree(ctx, g, o)
	if err != nil {
		return err
	}
	var tally dbTally
	if *ccns {
		tally, err = printCCNSTree(ctx, stdout, g, *depth, o, ab, *legend)
	} else {
		tally, err = printABTree(ctx, stdout, g, o, ab, *minimax, *legend)
	}
	if err != nil {
		return err
	}
	if o.DB == nil {
		fmt.Fprintf(stdout, "no database in %s: no database values\n", *dbf.dir)
		return nil
	}
	fmt.Fprintf(stdout, "database values for %d of %d searched nodes recorded; %d disagree with the search (≠db)\n", tally.known, tally.searched, tally.disagree)
	return nil
}

// printABTree prints the tree of ab, alpha-beta's search of g with the
// options o, or with minimax that of minimax, which it searches, and the
// summaries of both and how they compare. It counts the database values
// of the tree printed.
func printABTree(ctx context.Context, stdout io.Writer, g *muehle.Game, o search.TreeOptions, ab *search.Tree, minimax, legend bool) (dbTally, error) {
	o.Minimax = true
	mm, err := search.TraceTree(ctx, g, o)
	if err != nil && (minimax || !errors.Is(err, search.ErrTreeTooLarge)) {
		return dbTally{}, err
	}
	shown := ab
	if minimax {
		shown = mm
	}
	if err := writeTreeText(stdout, g.Position(), search.TreeLegend, legend, shown, shown.Truncated, o.Limit); err != nil {
		return dbTally{}, err
	}
	fmt.Fprintln(stdout, ab.Summary())
	if mm != nil {
		fmt.Fprintln(stdout, mm.Summary())
		fmt.Fprintf(stdout, "alpha-beta visited %d of minimax's %d nodes (%.1f %%)\n", ab.Visited, mm.Visited, 100*float64(ab.Visited)/float64(mm.Visited))
	} else {
		fmt.Fprintf(stdout, "minimax: stopped after %d nodes (--max-nodes)\n", o.MaxNodes)
	}
	var tally dbTally
	for i := range shown.Nodes {
		n := &shown.Nodes[i]
		tally.add(!n.Cut, n.DB, n.Disagrees())
	}
	return tally, nil
}

// printCCNSTree prints the tree of the conspiracy number player searching
// g through the pairs of the safety sequence up to depth, with o's node
// limit and database, and the summaries of its search and of alpha-beta's,
// ab. It counts the database values of the tree.
func printCCNSTree(ctx context.Context, stdout io.Writer, g *muehle.Game, depth int, o search.TreeOptions, ab *search.Tree, legend bool) (dbTally, error) {
	cn, err := search.TraceCCNS(ctx, g, search.CCNSTreeOptions{Depth: depth, Limit: o.Limit, DB: o.DB, SearchDB: o.SearchDB})
	if err != nil {
		return dbTally{}, err
	}
	if err := writeTreeText(stdout, g.Position(), search.CCNSTreeLegend, legend, cn, cn.Truncated, o.Limit); err != nil {
		return dbTally{}, err
	}
	fmt.Fprintln(stdout, ab.Summary())
	fmt.Fprintln(stdout, cn.Summary())
	var tally dbTally
	for i := range cn.Nodes {
		n := &cn.Nodes[i]
		tally.add(n.Examined(), n.DB, n.Disagrees())
	}
	return tally, nil
}

// treeText is a recorded search tree as the command prints it.
type treeText interface{ WriteText(io.Writer) error }

// writeTreeText prints the position searched, the legend when asked for,
// the tree t, and whether the node limit stopped its recording.
func writeTreeText(stdout io.Writer, pos muehle.Position, legendText string, legend bool, t treeText, truncated bool, limit int) error {
	fmt.Fprintf(stdout, "position %s\n", pos)
	if legend {
		fmt.Fprintf(stdout, "\n%s\n\n", legendText)
	}
	if err := t.WriteText(stdout); err != nil {
		return err
	}
	if truncated {
		fmt.Fprintf(stdout, "(recording stopped at %d nodes: --limit)\n", limit)
	}
	return nil
}

// dbTally counts the nodes of a tree the search examined, those of them
// with a database value, and those whose value the database contradicts.
type dbTally struct{ searched, known, disagree int }

// add counts a node: whether it was searched, its database value, and
// whether it disagrees with it.
func (c *dbTally) add(searched bool, v layers.Value, disagrees bool) {
	if !searched {
		return
	}
	c.searched++
	if v.Outcome() == layers.NoOutcome {
		return
	}
	c.known++
	if disagrees {
		c.disagree++
	}
}
