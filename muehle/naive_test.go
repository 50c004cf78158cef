package muehle

import (
	"slices"
	"strconv"
	"strings"
)

// This file is a deliberately naive move generator written from docs/rules.md
// alone: a board array, loops over points, the edge and mill lists copied
// as text, the rules of each game as four plain values, no bitboards and no
// tables of this package. The differential tests compare the fast generator
// against it.

// The edges and mills of each board, copied from docs/rules.md.
const (
	naiveEdgesText = "0-1 1-2 3-4 4-5 6-7 7-8 9-10 10-11 12-13 13-14 15-16 16-17 18-19 19-20 21-22 22-23 " +
		"0-9 9-21 3-10 10-18 6-11 11-15 1-4 4-7 16-19 19-22 8-12 12-17 5-13 13-20 2-14 14-23"
	naiveMillsText = "0,1,2 3,4,5 6,7,8 9,10,11 12,13,14 15,16,17 18,19,20 21,22,23 " +
		"0,9,21 3,10,18 6,11,15 1,4,7 16,19,22 8,12,17 5,13,20 2,14,23"
	naiveDiagonalEdgesText = "0-3 3-6 2-5 5-8 21-18 18-15 23-20 20-17"
	naiveDiagonalMillsText = "0,3,6 2,5,8 21,18,15 23,20,17"
	naiveSixEdgesText      = "0-1 1-2 3-4 4-5 6-7 8-9 10-11 11-12 13-14 14-15 " +
		"0-6 6-13 3-7 7-10 1-4 11-14 5-8 8-12 2-9 9-15"
	naiveSixMillsText       = "0,1,2 3,4,5 10,11,12 13,14,15 0,6,13 3,7,10 5,8,12 2,9,15"
	naiveThreeEdgesText     = "0-1 1-2 3-4 4-5 6-7 7-8 0-3 3-6 1-4 4-7 2-5 5-8"
	naiveThreeMillsText     = "0,1,2 3,4,5 6,7,8 0,3,6 1,4,7 2,5,8"
	naiveThreeDiagEdgesText = "0-4 4-8 2-4 4-6"
	naiveThreeDiagMillsText = "0,4,8 2,4,6"
)

// naiveGame is a game as docs/rules.md states it: the board's points,
// lines and mills, and the rules.
type naiveGame struct {
	points   int
	adjacent [32][32]bool
	mills    [][3]int
	naiveRules
}

// naiveRules are the rules of a game as plain values.
type naiveRules struct {
	stones   int
	flyAt    int  // a side with at most this many stones, on the board and in hand, jumps
	fullDraw bool // a full board is drawn
	mixed    bool // a side with stones in hand may place or move
	takeAny  bool // a mill may take a stone in a mill while others are not
}

// naiveGames are the games of docs/rules.md by their GameID.
var naiveGames = map[GameID]*naiveGame{
	Standard: newNaiveGame(24, naiveEdgesText, naiveMillsText, naiveRules{stones: 9, flyAt: 3}),
	Twelve: newNaiveGame(24, naiveEdgesText+" "+naiveDiagonalEdgesText, naiveMillsText+" "+naiveDiagonalMillsText,
		naiveRules{stones: 12, flyAt: 3, fullDraw: true}),
	Lasker:     newNaiveGame(24, naiveEdgesText, naiveMillsText, naiveRules{stones: 10, flyAt: 3, mixed: true}),
	Six:        newNaiveGame(16, naiveSixEdgesText, naiveSixMillsText, naiveRules{stones: 6}),
	SixFlying:  newNaiveGame(16, naiveSixEdgesText, naiveSixMillsText, naiveRules{stones: 6, flyAt: 3}),
	Five:       newNaiveGame(16, naiveSixEdgesText, naiveSixMillsText, naiveRules{stones: 5}),
	FiveFlying: newNaiveGame(16, naiveSixEdgesText, naiveSixMillsText, naiveRules{stones: 5, flyAt: 3}),
	Three: newNaiveGame(9, naiveThreeEdgesText+" "+naiveThreeDiagEdgesText, naiveThreeMillsText+" "+naiveThreeDiagMillsText,
		naiveRules{stones: 3}),
	ThreePlain: newNaiveGame(9, naiveThreeEdgesText, naiveThreeMillsText, naiveRules{stones: 3}),
	Ten:        newNaiveGame(24, naiveEdgesText, naiveMillsText, naiveRules{stones: 10, flyAt: 3}),
	Eleven: newNaiveGame(24, naiveEdgesText+" "+naiveDiagonalEdgesText, naiveMillsText+" "+naiveDiagonalMillsText,
		naiveRules{stones: 11, flyAt: 3}),
	// A game of the tests only (rules_test.go): a mill takes any stone.
	testTakeAny: newNaiveGame(24, naiveEdgesText, naiveMillsText, naiveRules{stones: 9, flyAt: 3, takeAny: true}),
}

// newNaiveGame parses the edge and mill lists.
func newNaiveGame(points int, edges, mills string, rules naiveRules) *naiveGame {
	g := &naiveGame{points: points, naiveRules: rules}
	for _, e := range strings.Fields(edges) {
		a, b, _ := strings.Cut(e, "-")
		i, _ := strconv.Atoi(a)
		j, _ := strconv.Atoi(b)
		g.adjacent[i][j] = true
		g.adjacent[j][i] = true
	}
	for _, m := range strings.Fields(mills) {
		f := strings.Split(m, ",")
		var mill [3]int
		for i := range 3 {
			mill[i], _ = strconv.Atoi(f[i])
		}
		g.mills = append(g.mills, mill)
	}
	return g
}

// naiveAdjacent is the standard board's adjacency.
var naiveAdjacent = naiveGames[Standard].adjacent

// naivePos is a position as a board array: 0 empty, 1 White, 2 Black.
type naivePos struct {
	g     *naiveGame
	board [32]int
	hand  [2]int
	turn  int // 0 White, 1 Black
}

func toNaive(p Position) naivePos {
	n := naivePos{g: naiveGames[p.Game]}
	for i := range n.g.points {
		if p.Stones[White]&(1<<i) != 0 {
			n.board[i] = 1
		}
		if p.Stones[Black]&(1<<i) != 0 {
			n.board[i] = 2
		}
	}
	n.hand = [2]int{int(p.Hand[White]), int(p.Hand[Black])}
	n.turn = int(p.Turn)
	return n
}

// count returns the stones of side c (0 or 1) on the board.
func (n *naivePos) count(c int) int {
	k := 0
	for i := range n.g.points {
		if n.board[i] == c+1 {
			k++
		}
	}
	return k
}

// full reports whether every point holds a stone.
func (n *naivePos) full() bool {
	for i := range n.g.points {
		if n.board[i] == 0 {
			return false
		}
	}
	return true
}

// inMill reports whether the stone on point i is part of a complete mill.
func (n *naivePos) inMill(i int) bool {
	for _, m := range n.g.mills {
		if (m[0] == i || m[1] == i || m[2] == i) && n.board[m[0]] == n.board[i] && n.board[m[1]] == n.board[i] && n.board[m[2]] == n.board[i] {
			return true
		}
	}
	return false
}

// naiveDrawn reports whether p is drawn by the rules alone: a full board
// in a game where that is a draw.
func naiveDrawn(p Position) bool {
	n := toNaive(p)
	return n.g.fullDraw && n.full()
}

// naiveMoves lists the legal moves of p by the rules of docs/rules.md, in no
// particular order.
func naiveMoves(p Position) []Move {
	n := toNaive(p)
	me, them := n.turn+1, 2-n.turn
	stones := n.count(n.turn) + n.hand[n.turn]
	if stones < 3 {
		return nil // lost: fewer than three stones
	}
	type step struct{ from, to int } // from -1: placement
	var steps []step
	if n.hand[n.turn] > 0 {
		for to := range n.g.points {
			if n.board[to] == 0 {
				steps = append(steps, step{-1, to})
			}
		}
	}
	if n.hand[n.turn] == 0 || n.g.mixed {
		flying := stones <= n.g.flyAt
		for from := range n.g.points {
			if n.board[from] != me {
				continue
			}
			for to := range n.g.points {
				if n.board[to] == 0 && (flying || n.g.adjacent[from][to]) {
					steps = append(steps, step{from, to})
				}
			}
		}
	}
	var moves []Move
	for _, s := range steps {
		after := n
		if s.from >= 0 {
			after.board[s.from] = 0
		}
		after.board[s.to] = me
		m := Move{From: Point(s.from), To: Point(s.to), Remove: NoPoint}
		if !after.inMill(s.to) {
			moves = append(moves, m)
			continue
		}
		var all, free []int
		for i := range n.g.points {
			if after.board[i] == them {
				all = append(all, i)
				if !after.inMill(i) {
					free = append(free, i)
				}
			}
		}
		if len(all) == 0 {
			moves = append(moves, m) // nothing to remove
			continue
		}
		if len(free) == 0 || n.g.takeAny {
			free = all // every opponent stone is in a mill, or any may be taken
		}
		for _, r := range free {
			m.Remove = Point(r)
			moves = append(moves, m)
		}
	}
	return moves
}

// sortMoves sorts moves in place by (From, To, Remove) and returns them.
func sortMoves(ms []Move) []Move {
	slices.SortFunc(ms, func(a, b Move) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		if a.To != b.To {
			return int(a.To) - int(b.To)
		}
		return int(a.Remove) - int(b.Remove)
	})
	return ms
}

// naivePlay returns p after m, moving stones on a board array.
func naivePlay(p Position, m Move) Position {
	n := toNaive(p)
	me := n.turn + 1
	if m.From == NoPoint {
		n.hand[n.turn]--
	} else {
		n.board[m.From] = 0
	}
	n.board[m.To] = me
	if m.Remove != NoPoint {
		n.board[m.Remove] = 0
	}
	q := Position{Game: p.Game}
	for i := range n.g.points {
		switch n.board[i] {
		case 1:
			q.Stones[White] |= 1 << i
		case 2:
			q.Stones[Black] |= 1 << i
		}
	}
	q.Hand = [2]uint8{uint8(n.hand[0]), uint8(n.hand[1])}
	q.Turn = Color(1 - n.turn)
	return q
}

// naivePerft counts move sequences of length depth with the naive generator.
func naivePerft(p Position, depth int) uint64 {
	switch depth {
	case 0:
		return 1
	case 1:
		return uint64(len(naiveMoves(p)))
	}
	var n uint64
	for _, m := range naiveMoves(p) {
		n += naivePerft(naivePlay(p, m), depth-1)
	}
	return n
}
