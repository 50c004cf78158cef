package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"muehle/muehle"
)

// addUnreachableFlag adds --unreachable, which lets a command go on with a
// position that no game can reach (docs/rules.md, "Which positions are
// legal input").
func addUnreachableFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("unreachable", false, "go on with a position that no game from the empty board can reach instead of refusing it (docs/rules.md)")
}

// checkReachable returns nil when pos may arise in a game of k stones per
// side (muehle.Position.CheckReachable), and Validate's error when pos is
// not a position at all. A position that is valid but unreachable is
// refused with the reason and a hint at --unreachable, or, with allow
// set, accepted with a warning line on w: "note     cannot arise in a
// game: ...".
func checkReachable(w io.Writer, pos muehle.Position, k int, allow bool) error {
	err := pos.CheckReachable(k)
	if err == nil || !errors.Is(err, muehle.ErrUnreachable) {
		return err
	}
	return checkUnreachable(w, err, allow)
}

// checkUnreachable refuses a position found unreachable for the reason
// err, or, with allow set, prints the warning and returns nil.
func checkUnreachable(w io.Writer, err error, allow bool) error {
	if !allow {
		return fmt.Errorf("%w (--unreachable goes on anyway)", err)
	}
	fmt.Fprintf(w, "note     %s; going on as --unreachable asks\n", muehle.Reason(err))
	return nil
}
