package main

import (
	"flag"

	"muehle/layers"
)

// dbFlags are the flags of the commands that read or write the database:
// its directory and the stones per side of the game.
type dbFlags struct {
	dir    *string
	stones *int
}

// addDBFlags declares --db and --stones on fs.
func addDBFlags(fs *flag.FlagSet) dbFlags {
	return dbFlags{
		dir:    fs.String("db", layers.DefaultDir(), "database `directory`"),
		stones: fs.Int("stones", 9, "stones per side (3 to 9)"),
	}
}

// open opens the database the flags name.
func (f dbFlags) open() (*layers.DB, error) { return layers.OpenDB(*f.dir, *f.stones) }

// present returns the layers db holds, in the order of computation; with
// placement false, only the moving layers.
func present(db *layers.DB, placement bool) []layers.Key {
	var keys []layers.Key
	for _, k := range layers.Order(db.Stones(), placement) {
		if db.Has(k) {
			keys = append(keys, k)
		}
	}
	return keys
}
