package muehle

import "testing"

func TestUndoRedoTurn(t *testing.T) {
	people := func(white, black bool) func(Color) bool {
		return func(c Color) bool { return c == White && white || c == Black && black }
	}
	tests := []struct {
		name         string
		person       func(Color) bool
		plies        int // moves played before UndoTurn
		wantUndone   int
		wantPly      int
		wantRedone   int // by RedoTurn right after
		wantPlyAfter int
	}{
		{"person to move: the last move and the reply", people(true, false), 4, 2, 2, 2, 4},
		{"computer to move: the person's last move", people(true, false), 3, 1, 2, 1, 3},
		{"the computer opened: nothing", people(false, true), 1, 0, 1, 0, 1},
		{"the computer opened, later", people(false, true), 3, 2, 1, 2, 3},
		{"two people: one move", people(true, true), 3, 1, 2, 1, 3},
		{"two computers: one move", people(false, false), 3, 1, 2, 1, 3},
		{"no move yet", people(true, false), 0, 0, 0, 0, 0},
	}
	moves := []Move{Place(4), Place(19), Place(10), Place(13)}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGame(9)
			for _, m := range moves[:tc.plies] {
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			if got := g.UndoTurn(tc.person); got != tc.wantUndone || g.Ply() != tc.wantPly {
				t.Errorf("UndoTurn: got %d taken back, ply %d; want %d, ply %d", got, g.Ply(), tc.wantUndone, tc.wantPly)
			}
			if got := g.RedoTurn(tc.person); got != tc.wantRedone || g.Ply() != tc.wantPlyAfter {
				t.Errorf("RedoTurn: got %d played, ply %d; want %d, ply %d", got, g.Ply(), tc.wantRedone, tc.wantPlyAfter)
			}
		})
	}
}
