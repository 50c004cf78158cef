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
// then the totals of the moving layers.
func runLayers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("layers", "[--stones K] [--placement]", stderr)
	stones := fs.Int("stones", 9, "stones per side (3 to 9)")
	placement := fs.Bool("placement", false, "list the placement layers too (after the totals)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *stones < muehle.MinStones || *stones > muehle.StonesPerSide {
		return fmt.Errorf("--stones %d: want %d to %d", *stones, muehle.MinStones, muehle.StonesPerSide)
	}
	x, err := layers.DefaultIndexer()
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
	table(layers.MovingLayers(*stones), "total")
	if *placement {
		table(layers.PlacementLayers(*stones), "placement total")
	}
	return ctx.Err()
}
