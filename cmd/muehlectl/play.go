package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"muehle/muehle"
	"muehle/retro/play"
)

func init() {
	register("play", "play a game in the terminal against a computer player (random by default)", runPlay)
}

// playInput is where play reads the person's moves; tests replace it.
var playInput io.Reader = os.Stdin

const playHelp = `Type a move: a placement "d6", a slide or jump "d6-d5", and when it
closes a mill the stone to remove: "d6xa1", "b4-b6xd7". Other commands:
  moves     list the legal moves
  undo      take back your last move (and the reply)
  board     print the board again
  position  print the position text
  record    print the game record so far
  help      this text
  quit      end the game
`

func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("play", "[--color white|black] [--opponent P [--db DIR]] [--seed N] [--game G] [--stones K] [--position TEXT [--unreachable]] [--no-removal-limit N]", stderr)
	color := fs.String("color", "white", "your `colour`: white (moves first) or black")
	opponent := fs.String("opponent", "random", "the computer player, as match takes it: random, ab:DEPTH, level:N (1 to 10), perfect, ...")
	dbf := addDBFlags(fs)
	fs.Lookup("db").Usage = "database `directory`, used when it holds the game's layers"
	seed := fs.Uint64("seed", 0, "seed of the computer's random choices (0: a different game each time)")
	text := fs.String("position", "", "start `position` (default the empty board; see muehle/doc.go)")
	limit := fs.Int("no-removal-limit", 0, "draw after this many moves without a removal (0: off)")
	unreachable := addUnreachableFlag(fs)
	mem := addCacheFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var start muehle.Position
	if *text != "" {
		var err error
		if start, err = muehle.ParsePosition(*text); err != nil {
			return err
		}
		if err := play.Supported(start.Rules()); err != nil {
			return err
		}
		dbf.adopt(start.Game)
	}
	if err := errors.Join(dbf.check(), mem.check()); err != nil {
		return flagError(fs, err)
	}
	stones := dbf.stones
	if *text == "" {
		start = dbf.variant().NewPosition()
	} else if err := dbf.agrees(start.Game); err != nil {
		return flagError(fs, err)
	}
	if err := inRange("--no-removal-limit", *limit, 0, math.MaxInt32, " (0: off)"); err != nil {
		return flagError(fs, err)
	}
	var human muehle.Color
	switch strings.ToLower(*color) {
	case "white", "w":
		human = muehle.White
	case "black", "b":
		human = muehle.Black
	default:
		fmt.Fprintf(stderr, "--color must be white or black, not %q\n", *color)
		return errUsage
	}
	if *text != "" {
		if err := checkReachable(stdout, start, *stones, *unreachable); err != nil {
			return err
		}
	}
	g, err := muehle.NewGameFrom(start, *stones)
	if err != nil {
		return err
	}
	g.NoRemovalLimit = *limit
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	var computer muehle.Player = muehle.NewSeededRandom(*seed)
	if *opponent != "random" {
		db, err := openGameDB(*dbf.dir, dbf.variant())
		if err != nil {
			return err
		}
		if db != nil {
			defer db.Close()
			mem.apply(db)
		}
		mp, err := newMatchPlayer(*opponent, *stones, *seed, playerEnv(db, true))
		if err != nil {
			return err
		}
		computer = mp.newPlayer(human.Other(), 0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the goroutine of lines when the game ends first
	fmt.Fprintf(stdout, "You play %s against %s (seed %d). Type \"help\" for help.\n", human, computer.Name(), *seed)
	return playGame(ctx, g, human, computer, lines(ctx, playInput), stdout)
}

// inputLine is a line of the person's input, or the error that ended
// reading it.
type inputLine struct {
	text string
	err  error
}

// maxInputLine bounds a line of play's input: a move or a command is a
// few bytes.
const maxInputLine = 64 << 10

// lines delivers the lines of r on a channel, closed at the end of r, so
// that waiting for the person can be interrupted through ctx. An error
// reading r (a line longer than maxInputLine included) comes as the last
// line's err.
func lines(ctx context.Context, r io.Reader) <-chan inputLine {
	ch := make(chan inputLine)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, maxInputLine)
		for sc.Scan() {
			select {
			case ch <- inputLine{text: sc.Text()}:
			case <-ctx.Done():
				return
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("a line of more than %d KiB, not a move", maxInputLine>>10)
			}
			select {
			case ch <- inputLine{err: err}:
			case <-ctx.Done():
			}
		}
	}()
	return ch
}

// playGame runs g to its end: the computer moves for the side that is not
// human, the person's lines are moves or commands, and the board is printed
// after every move. It returns nil when the game ends, the person quits or
// the input ends, ctx.Err() when ctx is cancelled, and the error of
// reading the input.
func playGame(ctx context.Context, g *muehle.Game, human muehle.Color, computer muehle.Player, input <-chan inputLine, out io.Writer) error {
	fmt.Fprint(out, g.Position().Diagram())
	for {
		if r, why := g.Result(); r != muehle.Ongoing {
			fmt.Fprintf(out, "Game over: %s (%s).\n%s", r, why, g.Record())
			return nil
		}
		p := g.Position()
		if p.Turn != human {
			m, err := computer.Move(ctx, g.Clone())
			if err != nil {
				return fmt.Errorf("%s: %w", computer.Name(), err)
			}
			if err := g.Play(m); err != nil {
				return fmt.Errorf("%s played an illegal move: %w", computer.Name(), err)
			}
			fmt.Fprintf(out, "%s plays %s.\n%s", computer.Name(), p.Board().MoveString(m), g.Position().Diagram())
			continue
		}
		fmt.Fprintf(out, "%s to move (%s)> ", p.Turn, p.Phase())
		var line string
		select {
		case <-ctx.Done():
			fmt.Fprintln(out)
			return ctx.Err()
		case l, ok := <-input:
			if !ok {
				fmt.Fprintf(out, "\nEnd of input; the game so far:\n%s", g.Record())
				return nil
			}
			if l.err != nil {
				fmt.Fprintf(out, "\nThe input could not be read; the game so far:\n%s", g.Record())
				return fmt.Errorf("reading the input: %w", l.err)
			}
			line = strings.TrimSpace(l.text)
		}
		switch strings.ToLower(line) {
		case "":
		case "help", "?":
			fmt.Fprint(out, playHelp)
		case "moves":
			fmt.Fprintf(out, "Legal moves: %s\n", moveList(p.Board(), g.LegalMoves()))
		case "board":
			fmt.Fprint(out, p.Diagram())
		case "position":
			fmt.Fprintln(out, p)
		case "record":
			fmt.Fprint(out, g.Record())
		case "quit", "exit", "resign":
			fmt.Fprintf(out, "You stop. The game so far:\n%s", g.Record())
			return nil
		case "undo":
			if g.UndoTurn(func(c muehle.Color) bool { return c == human }) == 0 {
				fmt.Fprintln(out, "Nothing to undo.")
			}
			fmt.Fprint(out, g.Position().Diagram())
		default:
			m, err := p.Board().ParseMove(line)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				fmt.Fprintf(out, "%s\nLegal moves: %s\n", muehle.Reason(err), moveList(p.Board(), g.LegalMoves()))
				continue
			}
			fmt.Fprint(out, g.Position().Diagram())
		}
	}
}

// moveList joins moves, named on board b, with spaces.
func moveList(b *muehle.Board, ms []muehle.Move) string {
	ss := make([]string, len(ms))
	for i, m := range ms {
		ss[i] = b.MoveString(m)
	}
	return strings.Join(ss, " ")
}
