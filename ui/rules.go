package ui

import (
	"fmt"
	"strings"

	"muehle/muehle"
)

// This file writes the rules of a game for players (Help ▸ Rules of the
// Game) from the game's entry of data, muehle.Games: its board, its stones
// and its rule switches, each section with a picture where one says it
// better, drawn from the board's own points, lines and mills (rulespic.go).
// A game of the family added as data gets its rules here without a change;
// gameNotes adds a short paragraph of its own about each game.

// gameNotes holds a paragraph about each game, by its ID: where it comes
// from and what makes it different. A game without one gets the rules
// alone.
var gameNotes = map[string]string{
	"standard": "Nine Men's Morris (Mühle in German) has been played for about two thousand years. " +
		"Each player has nine stones and tries to form rows of three, mills, which take the opponent's stones. " +
		"With perfect play by both sides the game is a draw (Ralph Gasser, 1996).",
	"twelve": "Twelve Men's Morris adds the four diagonals of the corners to the board, so more mills can be " +
		"made, and gives each player twelve stones. Played in southern Africa as Morabaraba. The stones " +
		"can fill the board during placing; that game is drawn. With perfect play the first player wins.",
	"lasker": "Lasker Morris is the variant of Emanuel Lasker, chess world champion: ten stones each, " +
		"and no separate placing phase, so from the first move a player may place a stone or move one.",
	"six":         "Six Men's Morris was popular in medieval Europe: a smaller board of two squares and six stones each.",
	"six-flying":  "Six Men's Morris as in some rule books, with flying at three stones.",
	"five":        "Five Men's Morris is played on the board of Six Men's Morris with five stones each.",
	"five-flying": "Five Men's Morris with flying at three stones.",
	"three": "Three Men's Morris is the oldest and the smallest of the family, close to noughts and crosses, " +
		"but the stones move once placed. A row of three, along a line or a diagonal, wins.",
	"three-plain": "Three Men's Morris on the board without diagonals: only the rows and the columns are mills.",
	"ten":         "Ten Men's Morris is Nine Men's Morris with ten stones each.",
	"eleven":      "Eleven Men's Morris is played on the board of Twelve Men's Morris, with eleven stones each.",
}

// The rule switches as the help reads them (muehle.Rules has each as a
// field; DoubleMillRemoves is read directly).

// flyAt returns how many stones a side has, at most, when its stones fly;
// 0 when they never do.
func flyAt(r *muehle.Rules) int { return r.FlyAt }

// loseBelow returns the number of stones below which a side has lost.
func loseBelow(r *muehle.Rules) int { return r.LoseBelow }

// takeFromMills reports whether a mill may take a stone of the opponent's
// mills while the opponent has others.
func takeFromMills(r *muehle.Rules) bool { return r.TakeFromMills }

// rulesSection is one section of a game's rules: Markdown text and, where
// a picture says it better, a picture beside it.
type rulesSection struct {
	text    string
	picture *rulesPicture
}

// rulesPicture is a drawing of a position on a game's board: stones,
// points ringed as targets or as the stone to remove, and a caption.
type rulesPicture struct {
	board        *muehle.Board
	white, black muehle.Bitboard
	from         muehle.Bitboard // framed in blue: the stone that moves
	targets      muehle.Bitboard // ringed in blue: where the stone may go
	remove       muehle.Bitboard // ringed in red: the stone a mill takes
	caption      string
}

// rulesSections returns the rules of the game r for players, section by
// section, from its entry of data.
func rulesSections(r *muehle.Rules) []rulesSection {
	b, k := r.Board, r.Stones
	mills := b.Mills()
	var s []rulesSection
	add := func(text string, p *rulesPicture) { s = append(s, rulesSection{text, p}) }

	head := "# " + r.Name + "\n\n"
	if note := gameNotes[r.ID]; note != "" {
		head += note + "\n\n"
	}
	add(head+"Two players, **White** and **Black**, each have "+countOf(k, "stone")+
		". White begins, then they take turns. A **ply** is one turn of either player.", nil)

	add("## The board\n\n"+fmt.Sprintf("The board (%s) has %d points, joined by lines. "+
		"Three points in a row on one line form a **mill** when they hold stones of one colour; the board has %s.",
		b.Name(), b.NumPoints(), countOf(len(mills), "such row")), boardPicture(b))

	if r.Mixed {
		add("## Placing and moving\n\nThere is no separate placing phase. On their turn, a player with stones in hand "+
			"either **places** one on any free point or **moves** a stone of theirs on the board along a line to the "+
			"free point next to it. A player with none left in hand moves.", nil)
	} else {
		add("## Placing\n\n"+fmt.Sprintf("The game begins with an empty board. The players take turns placing one of "+
			"their stones on any free point, until all %d are placed. Then White moves first.", 2*k), nil)
		add("## Moving\n\nOn their turn a player moves one of their stones along a line to the free point next to it. "+
			"A stone cannot jump over another or move to a taken point.", movingPicture(b))
	}
	if n := flyAt(r); n > 0 {
		add("## Flying\n\n"+fmt.Sprintf("A player left with only %d stones (on the board and in hand together) may "+
			"move a stone to **any** free point, not just to the next one along a line: their stones fly.", n),
			flyingPicture(b, n))
	}

	mill := "## Mills\n\nA player who closes a mill, by placing or moving the third stone into it, " +
		"removes one of the opponent's stones from the board."
	switch {
	case k < loseBelow(r)+1:
		mill = "## Mills\n\n" + fmt.Sprintf("With %s each, closing a mill wins at once: the opponent would be left with %s.",
			countOf(k, "stone"), countOf(k-1, "stone"))
	case takeFromMills(r):
		mill += " Any of them may be taken."
	default:
		mill += " A stone in one of the opponent's mills may be taken only when all of the opponent's stones on " +
			"the board are in mills."
	}
	if k >= loseBelow(r)+1 {
		if n := r.DoubleMillRemoves; n > 1 {
			mill += fmt.Sprintf(" Closing two mills with one stone removes %d stones.", n)
		} else {
			mill += " Closing two mills with one stone still removes one stone."
		}
		mill += " A removed stone leaves the game. " +
			"A mill may be opened by moving a stone out of it and closed again, and then it takes a stone again."
	}
	add(mill, millPicture(r))

	end := "## The end of the game\n\n" + fmt.Sprintf("A player **loses** when they have fewer than %d stones left, ", loseBelow(r)) +
		"or when it is their turn and they cannot move any stone (all are blocked). " +
		"The game is **drawn** when the same position, with the same player to move, occurs for the third time."
	if r.FullBoardDraw {
		end += " If the placing fills every point of the board, the game is drawn as well."
	}
	end += "\n\n" + fmt.Sprintf("As in tournaments, the game can also be drawn after %d plies in a row without a "+
		"removal: Game ▸ Draw After %d Plies Without a Removal switches this on (New Game offers it too).",
		noRemovalMoves, noRemovalMoves)
	add(end, nil)

	if supported(r) != nil {
		add("## Playing in this window\n\nThe window does not play this game yet.", nil)
		return s
	}
	if k > muehle.MinStones {
		add("## Fewer stones\n\n"+fmt.Sprintf("New Game can start the game with fewer stones, from %d to %d each. "+
			"The rules stay the same.", muehle.MinStones, k), nil)
	}
	add("## Playing in this window\n\nClick a free point to place a stone. To move, click your stone, then the "+
		"point it goes to; the possible points are ringed. After closing a mill, click the stone to remove.", nil)
	return s
}

// rulesMarkdown returns the text of the sections, for tests and a
// reader without pictures.
func rulesMarkdown(ss []rulesSection) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.text + "\n\n")
		if s.picture != nil {
			b.WriteString("(Picture: " + s.picture.caption + ")\n\n")
		}
	}
	return b.String()
}

// pointNames returns the names of the points of x on b: "a7, d7 and g7".
func pointNames(b *muehle.Board, x muehle.Bitboard) string {
	var ns []string
	for _, p := range x.Points() {
		ns = append(ns, b.PointName(p))
	}
	if len(ns) == 0 {
		return "none"
	}
	return andList(ns)
}

// andList joins words as a sentence lists them: "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// boardPicture is the empty board with its point names.
func boardPicture(b *muehle.Board) *rulesPicture {
	return &rulesPicture{board: b, caption: fmt.Sprintf("The %d points and the lines between them. A point is named "+
		"by its column, a letter, and its row, a number: %s is at the bottom left.", b.NumPoints(), b.PointName(bottomLeft(b)))}
}

// bottomLeft returns the point of b in the lowest row, leftmost.
func bottomLeft(b *muehle.Board) muehle.Point {
	best := muehle.Point(0)
	for p := range muehle.Point(b.NumPoints()) {
		c, r := b.Coord(p)
		bc, br := b.Coord(best)
		if r < br || r == br && c < bc {
			best = p
		}
	}
	return best
}

// movingPicture shows a White stone on the point with the most
// neighbours, one of them taken by Black: the others are its moves.
func movingPicture(b *muehle.Board) *rulesPicture {
	p := muehle.Point(0)
	for q := range muehle.Point(b.NumPoints()) {
		if b.Neighbors(q).Count() > b.Neighbors(p).Count() {
			p = q
		}
	}
	n := b.Neighbors(p)
	black := n.First().Bit()
	return &rulesPicture{board: b, white: p.Bit(), black: black, from: p.Bit(), targets: n &^ black,
		caption: fmt.Sprintf("White's stone on %s may move to %s (ringed), the free points next to it along a line; "+
			"%s is taken.", b.PointName(p), pointNames(b, n&^black), pointNames(b, black))}
}

// flyingPicture shows White with n stones, none in a mill, whose stone may
// fly to every free point; Black has one more.
func flyingPicture(b *muehle.Board, n int) *rulesPicture {
	white := spread(b, 0, n)
	black := spread(b, white, n+1)
	from := white.First()
	free := b.All() &^ white &^ black
	return &rulesPicture{board: b, white: white, black: black, from: from.Bit(), targets: free,
		caption: fmt.Sprintf("White has %d stones left, so its stone on %s may fly to any free point (ringed).",
			n, b.PointName(from))}
}

// spread returns n points of b outside taken, chosen greedily from the
// last point back, of which no three form a mill and no two a mill with
// its third point free: a quiet position.
func spread(b *muehle.Board, taken muehle.Bitboard, n int) muehle.Bitboard {
	var x muehle.Bitboard
	for p := muehle.Point(b.NumPoints() - 1); p >= 0 && x.Count() < n; p-- {
		y := x | p.Bit()
		if taken.Has(p) || b.InMill(y) != 0 || b.MillTargets(y, b.All()&^taken&^y) != 0 {
			continue
		}
		x = y
	}
	// A small board may not hold n quiet points: take any.
	for p := muehle.Point(0); p < muehle.Point(b.NumPoints()) && x.Count() < n; p++ {
		if !taken.Has(p) {
			x |= p.Bit()
		}
	}
	return x
}

// millPicture shows White's first mill closed. With more stones than a
// mill leaves a loser, Black has a mill of its own apart from it, which
// protects its stones, and one stone outside, ringed as the one White
// removes; with fewer, the mill wins.
func millPicture(r *muehle.Rules) *rulesPicture {
	b := r.Board
	mills := b.Mills()
	white := mills[0]
	if r.Stones < loseBelow(r)+1 {
		black := spread(b, white, r.Stones)
		return &rulesPicture{board: b, white: white, black: black,
			caption: fmt.Sprintf("White's mill %s wins.", pointNames(b, white))}
	}
	var black, protected muehle.Bitboard
	for _, m := range mills[1:] {
		if m&white == 0 && b.Neighbors(m.First())&white == 0 {
			protected = m
			break
		}
	}
	black = protected
	loose := spread(b, white|protected, 1)
	black |= loose
	p := &rulesPicture{board: b, white: white, black: black, remove: loose}
	switch {
	case takeFromMills(r):
		p.remove = black
		p.caption = fmt.Sprintf("White has closed the mill %s and removes any one of Black's stones (ringed).", pointNames(b, white))
	case protected != 0:
		p.caption = fmt.Sprintf("White has closed the mill %s and removes a Black stone: the ringed one on %s. "+
			"Black's stones in its mill %s are safe while Black has a stone outside its mills.",
			pointNames(b, white), pointNames(b, loose), pointNames(b, protected))
	default:
		p.caption = fmt.Sprintf("White has closed the mill %s and removes Black's stone on %s (ringed).",
			pointNames(b, white), pointNames(b, loose))
	}
	return p
}
