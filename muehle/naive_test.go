package muehle

import (
	"slices"
	"strconv"
	"strings"
)

// This file is a deliberately naive move generator written from docs/rules.md
// alone: a board array, loops over points, the edge and mill lists copied
// as text, no bitboards and no tables of this package. The differential
// tests compare the fast generator against it.

// naiveEdgesText and naiveMillsText are copied from docs/rules.md.
const (
	naiveEdgesText = "0-1 1-2 3-4 4-5 6-7 7-8 9-10 10-11 12-13 13-14 15-16 16-17 18-19 19-20 21-22 22-23 " +
		"0-9 9-21 3-10 10-18 6-11 11-15 1-4 4-7 16-19 19-22 8-12 12-17 5-13 13-20 2-14 14-23"
	naiveMillsText = "0,1,2 3,4,5 6,7,8 9,10,11 12,13,14 15,16,17 18,19,20 21,22,23 " +
		"0,9,21 3,10,18 6,11,15 1,4,7 16,19,22 8,12,17 5,13,20 2,14,23"
)

// naiveAdjacent and naiveMills are parsed from the text above.
var (
	naiveAdjacent [24][24]bool
	naiveMills    [][3]int
)

func init() {
	for _, e := range strings.Fields(naiveEdgesText) {
		a, b, _ := strings.Cut(e, "-")
		i, _ := strconv.Atoi(a)
		j, _ := strconv.Atoi(b)
		naiveAdjacent[i][j] = true
		naiveAdjacent[j][i] = true
	}
	for _, m := range strings.Fields(naiveMillsText) {
		f := strings.Split(m, ",")
		var mill [3]int
		for i := range 3 {
			mill[i], _ = strconv.Atoi(f[i])
		}
		naiveMills = append(naiveMills, mill)
	}
}

// naivePos is a position as a board array: 0 empty, 1 White, 2 Black.
type naivePos struct {
	board [24]int
	hand  [2]int
	turn  int // 0 White, 1 Black
}

func toNaive(p Position) naivePos {
	var n naivePos
	for i := range 24 {
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
	for i := range 24 {
		if n.board[i] == c+1 {
			k++
		}
	}
	return k
}

// inMill reports whether the stone on point i is part of a complete mill.
func (n *naivePos) inMill(i int) bool {
	for _, m := range naiveMills {
		if (m[0] == i || m[1] == i || m[2] == i) && n.board[m[0]] == n.board[i] && n.board[m[1]] == n.board[i] && n.board[m[2]] == n.board[i] {
			return true
		}
	}
	return false
}

// naiveMoves lists the legal moves of p by the rules of docs/rules.md, in no
// particular order.
func naiveMoves(p Position) []Move {
	n := toNaive(p)
	me, them := n.turn+1, 2-n.turn
	if n.count(n.turn)+n.hand[n.turn] < 3 {
		return nil // lost: fewer than three stones
	}
	type step struct{ from, to int } // from -1: placement
	var steps []step
	switch {
	case n.hand[n.turn] > 0:
		for to := range 24 {
			if n.board[to] == 0 {
				steps = append(steps, step{-1, to})
			}
		}
	default:
		flying := n.count(n.turn) == 3
		for from := range 24 {
			if n.board[from] != me {
				continue
			}
			for to := range 24 {
				if n.board[to] == 0 && (flying || naiveAdjacent[from][to]) {
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
		for i := range 24 {
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
		if len(free) == 0 {
			free = all // every opponent stone is in a mill
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
	var q Position
	for i := range 24 {
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
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range naiveMoves(p) {
		n += naivePerft(naivePlay(p, m), depth-1)
	}
	return n
}
