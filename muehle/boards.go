package muehle

// The boards, each an entry of data: point names, edges and mills as in
// docs/rules.md, the grid whose square symmetries are the board's, and the
// drawing of Position.Diagram. newBoard derives every table from them.

// standardEdges are the 32 edges of the standard board: the rows, then the
// columns (docs/rules.md).
var standardEdges = [][2]Point{
	{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {9, 10}, {10, 11},
	{12, 13}, {13, 14}, {15, 16}, {16, 17}, {18, 19}, {19, 20}, {21, 22}, {22, 23},
	{0, 9}, {9, 21}, {3, 10}, {10, 18}, {6, 11}, {11, 15}, {1, 4}, {4, 7},
	{16, 19}, {19, 22}, {8, 12}, {12, 17}, {5, 13}, {13, 20}, {2, 14}, {14, 23},
}

// standardMills are the 16 mills of the standard board: eight rows, then
// eight columns.
var standardMills = [][3]Point{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}, {12, 13, 14}, {15, 16, 17}, {18, 19, 20}, {21, 22, 23},
	{0, 9, 21}, {3, 10, 18}, {6, 11, 15}, {1, 4, 7}, {16, 19, 22}, {8, 12, 17}, {5, 13, 20}, {2, 14, 23},
}

// standardPoints names the 24 points of the standard board in the order of
// their numbers.
const standardPoints = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1"

// StandardBoard is the board of Nine Men's Morris: three concentric
// squares joined at the middle of each side, 24 points, 32 edges, 16 mills
// and 16 symmetries (the square's 8, each with or without exchanging the
// outer and the inner ring). Lasker Morris is played on it too.
var StandardBoard = newBoard(boardSpec{
	id:     "standard",
	name:   "three squares",
	points: standardPoints,
	edges:  standardEdges,
	mills:  standardMills,
	size:   7,
	swap:   [2]int8{1, 3},
	diagram: `7 *-----------*-----------*
  |           |           |
6 |   *-------*-------*   |
  |   |       |       |   |
5 |   |   *---*---*   |   |
  |   |   |       |   |   |
4 *---*---*       *---*---*
  |   |   |       |   |   |
3 |   |   *---*---*   |   |
  |   |       |       |   |
2 |   *-------*-------*   |
  |           |           |
1 *-----------*-----------*
  a   b   c   d   e   f   g
`,
})

// DiagonalBoard is the board of Twelve Men's Morris (and Morabaraba): the
// standard board with the four corner diagonals a7-c5, g7-e5, a1-c3 and
// g1-e3, 8 more edges and 4 more mills. The standard board's 16
// symmetries map the diagonals onto each other.
var DiagonalBoard = newBoard(boardSpec{
	id:     "diagonals",
	name:   "three squares with diagonals",
	points: standardPoints,
	edges: append(append([][2]Point(nil), standardEdges...),
		[2]Point{0, 3}, [2]Point{3, 6}, [2]Point{2, 5}, [2]Point{5, 8},
		[2]Point{21, 18}, [2]Point{18, 15}, [2]Point{23, 20}, [2]Point{20, 17}),
	mills: append(append([][3]Point(nil), standardMills...),
		[3]Point{0, 3, 6}, [3]Point{2, 5, 8}, [3]Point{21, 18, 15}, [3]Point{23, 20, 17}),
	size: 7,
	swap: [2]int8{1, 3},
	diagram: `7 *-----------*-----------*
  | \         |         / |
6 |   *-------*-------*   |
  |   | \     |     / |   |
5 |   |   *---*---*   |   |
  |   |   |       |   |   |
4 *---*---*       *---*---*
  |   |   |       |   |   |
3 |   |   *---*---*   |   |
  |   | /     |     \ |   |
2 |   *-------*-------*   |
  | /         |         \ |
1 *-----------*-----------*
  a   b   c   d   e   f   g
`,
})

// SixBoard is the board of Six Men's Morris: two concentric squares joined
// at the middle of each side, 16 points on a 5×5 grid (a5 to e1), 20 edges,
// 8 mills (the sides of the squares) and 16 symmetries (the square's 8,
// each with or without exchanging the two squares).
var SixBoard = newBoard(boardSpec{
	id:     "six",
	name:   "two squares",
	points: "a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1",
	edges: [][2]Point{
		{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {11, 12}, {13, 14}, {14, 15},
		{0, 6}, {6, 13}, {3, 7}, {7, 10}, {1, 4}, {11, 14}, {5, 8}, {8, 12}, {2, 9}, {9, 15},
	},
	mills: [][3]Point{
		{0, 1, 2}, {3, 4, 5}, {10, 11, 12}, {13, 14, 15},
		{0, 6, 13}, {3, 7, 10}, {5, 8, 12}, {2, 9, 15},
	},
	size: 5,
	swap: [2]int8{1, 2},
	diagram: `5 *-----------*-----------*
  |           |           |
4 |   *-------*-------*   |
  |   |               |   |
3 *---*               *---*
  |   |               |   |
2 |   *-------*-------*   |
  |           |           |
1 *-----------*-----------*
  a   b       c       d   e
`,
})

// threeEdges are the 12 lines of the 3×3 board: the rows, then the
// columns.
var threeEdges = [][2]Point{
	{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8},
	{0, 3}, {3, 6}, {1, 4}, {4, 7}, {2, 5}, {5, 8},
}

// threeMills are the 6 mills of the 3×3 board: the rows, then the columns.
var threeMills = [][3]Point{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8},
}

// ThreeBoard is the board of Three Men's Morris: a 3×3 grid (a3 b3 c3 a2
// b2 c2 a1 b1 c1) with both diagonals, 9 points, 16 edges (the rows, the
// columns and the four half-diagonals through b2), 8 mills (the rows, the
// columns and both diagonals; b2 lies on four) and the square's 8
// symmetries.
var ThreeBoard = newBoard(boardSpec{
	id:     "three",
	name:   "3×3 with diagonals",
	points: "a3 b3 c3 a2 b2 c2 a1 b1 c1",
	edges: append(append([][2]Point(nil), threeEdges...),
		[2]Point{0, 4}, [2]Point{4, 8}, [2]Point{2, 4}, [2]Point{4, 6}),
	mills: append(append([][3]Point(nil), threeMills...),
		[3]Point{0, 4, 8}, [3]Point{2, 4, 6}),
	size: 3,
	diagram: `3 *-------*-------*
  | \     |     / |
  |   \   |   /   |
2 *-------*-------*
  |   /   |   \   |
  | /     |     \ |
1 *-------*-------*
  a       b       c
`,
})

// ThreePlainBoard is the 3×3 board without diagonals: 9 points, 12 edges,
// 6 mills (the rows and the columns) and the square's 8 symmetries.
var ThreePlainBoard = newBoard(boardSpec{
	id:     "three-plain",
	name:   "3×3 without diagonals",
	points: "a3 b3 c3 a2 b2 c2 a1 b1 c1",
	edges:  threeEdges,
	mills:  threeMills,
	size:   3,
	diagram: `3 *-------*-------*
  |       |       |
  |       |       |
2 *-------*-------*
  |       |       |
  |       |       |
1 *-------*-------*
  a       b       c
`,
})

// Boards lists every board.
var Boards = []*Board{StandardBoard, DiagonalBoard, SixBoard, ThreeBoard, ThreePlainBoard}
