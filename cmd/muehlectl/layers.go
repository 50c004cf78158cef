package main

import (
	"context"
	"fmt"
	"io"

	"muehle/layers"
	"muehle/muehle"
)

func init() {
	register("layers", "list the layers with their slots and symmetry classes", runLayers)
}

// runLayers prints "w-b slots classes" for every moving layer of the game
// with the given stones per side (and the placement layers when asked),
// then the totals of the moving layers. The slots are those of the index
// of the game's board (layers.IndexerFor).
func runLayers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("layers", "[--game G] [--stones K] [--placement]", stderr)
	game := fs.String("game", "standard", "the game: "+muehle.GameIDs())
	stones := fs.Int("stones", 0, "stones per side, 3 up to the game's (0 = the game's: 9 for standard)")
	placement := fs.Bool("placement", false, "list the placement layers too (after the totals); in Lasker Morris the layers with stones in hand")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, err := variantFlags(*game, *stones)
	if err != nil {
		return err
	}
	x, err := layers.IndexerFor(v.Rules().Board)
	if err != nil {
		return err
	}
	table := func(keys []layers.Key, total string) {
		var slots, classes uint64
		for _, k := range keys {
			l := x.Layer(k)
			fmt.Fprintf(stdout, "%v %d %d\n", k, l.Size(), l.Classes())
			slots += l.Size()
			classes += l.Classes()
		}
		fmt.Fprintf(stdout, "%s %d %d\n", total, slots, classes)
	}
	table(layers.MovingLayers(v.Stones), "total")
	if *placement {
		var keys []layers.Key
		for _, k := range layers.OrderIn(v, true) {
			if !k.IsMoving() {
				keys = append(keys, k)
			}
		}
		table(keys, "placement total")
	}
	return ctx.Err()
}
