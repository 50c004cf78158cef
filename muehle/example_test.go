package muehle_test

import (
	"fmt"

	"muehle/muehle"
)

func ExamplePosition_String() {
	p := muehle.NewPosition(9)
	fmt.Println(p)
	p = p.Play(muehle.Place(4)).Play(muehle.Place(19))
	fmt.Println(p)
	// Output:
	// ........................ w 9 9
	// ....W..............B.... w 8 8
}

func ExampleParseRecord() {
	g, err := muehle.ParseRecord("1. d6 d2\n2. a7 g7\n*")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Position())
	fmt.Print(g.Position().Diagram())
	_, err = muehle.ParseRecord("1. d6 d2\n2. a7 a7")
	fmt.Println(err)
	// Output:
	// W.B.W..............B.... w 7 7
	// 7 W-----------.-----------B
	//   |           |           |
	// 6 |   .-------W-------.   |
	//   |   |       |       |   |
	// 5 |   |   .---.---.   |   |
	//   |   |   |       |   |   |
	// 4 .---.---.       .---.---.
	//   |   |   |       |   |   |
	// 3 |   |   .---.---.   |   |
	//   |   |       |       |   |
	// 2 |   .-------B-------.   |
	//   |           |           |
	// 1 .-----------.-----------.
	//   a   b   c   d   e   f   g
	// White to move; in hand: White 7, Black 7
	// muehle: record line 2, move 2 (Black): muehle: illegal move a7: a7 is not empty
}

func ExamplePerft() {
	for d := 1; d <= 4; d++ {
		fmt.Println(d, muehle.Perft(muehle.NewPosition(9), d))
	}
	// Output:
	// 1 24
	// 2 552
	// 3 12144
	// 4 255024
}
