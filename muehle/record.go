package muehle

import (
	"fmt"
	"strconv"
	"strings"
)

// The result tokens that end a game record.
const (
	tokenOngoing   = "*"
	tokenWhiteWins = "1-0"
	tokenBlackWins = "0-1"
	tokenDraw      = "1/2-1/2"
)

// Token returns the result as it ends a game record: "1-0", "0-1",
// "1/2-1/2" or "*" for a game still running.
func (r Result) Token() string {
	switch r {
	case WhiteWins:
		return tokenWhiteWins
	case BlackWins:
		return tokenBlackWins
	case Draw:
		return tokenDraw
	}
	return tokenOngoing
}

// resultOfToken is the inverse of Result.Token.
func resultOfToken(t string) (Result, bool) {
	switch t {
	case tokenOngoing:
		return Ongoing, true
	case tokenWhiteWins:
		return WhiteWins, true
	case tokenBlackWins:
		return BlackWins, true
	case tokenDraw:
		return Draw, true
	}
	return Ongoing, false
}

// Record returns the game record text of doc.go: the headers that differ
// from the defaults (the game when it is not the standard one, the start
// position, stones per side, no-removal limit), the moves played numbered in
// pairs, one pair a line, and the result token. Undone moves are not part
// of it. ParseRecord reads it back.
func (g *Game) Record() string { return g.RecordWithComments(nil) }

// RecordWithComments returns the game record of Record with comments[i],
// where not empty, written in braces after move i: "1. d6 {text} d2". A
// brace inside a comment is written as a parenthesis, and a line break as
// a space, so that the comment reads back as it was meant.
// ParseRecordWithComments reads the comments back; ParseRecord skips them.
func (g *Game) RecordWithComments(comments []string) string {
	var b strings.Builder
	r := g.Rules()
	if r.game != Standard {
		fmt.Fprintf(&b, "[Variant %q]\n", r.ID)
	}
	if start := g.Start(); start != r.NewPosition(g.stones) {
		fmt.Fprintf(&b, "[Position %q]\n", start.String())
	}
	if g.stones != r.Stones {
		fmt.Fprintf(&b, "[Stones \"%d\"]\n", g.stones)
	}
	if g.NoRemovalLimit > 0 {
		fmt.Fprintf(&b, "[NoRemovalLimit \"%d\"]\n", g.NoRemovalLimit)
	}
	for i, m := range g.moves {
		p := g.positions[i]
		n := g.moveNumber(i)
		text := r.Board.MoveString(m)
		switch {
		case p.Turn == White:
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%d. %s", n, text)
		case i == 0:
			fmt.Fprintf(&b, "%d. ... %s", n, text)
		default:
			fmt.Fprintf(&b, " %s", text)
		}
		if i < len(comments) && comments[i] != "" {
			fmt.Fprintf(&b, " {%s}", commentReplacer.Replace(comments[i]))
		}
	}
	if len(g.moves) > 0 {
		b.WriteByte('\n')
	}
	res, _ := g.Result()
	b.WriteString(res.Token())
	b.WriteByte('\n')
	return b.String()
}

// moveNumber returns the number of the move pair that ply i (0 for the
// first move from the start) belongs to: White's move and Black's reply
// share a number, and the numbers start at 1.
func (g *Game) moveNumber(i int) int {
	if g.positions[0].Turn == Black {
		i++
	}
	return i/2 + 1
}

// ParseRecord reads a game record (doc.go) and replays it: optional header
// lines [Variant "game"], [Position "..."], [Stones "k"] and
// [NoRemovalLimit "n"] in any order, then the moves, with or without their
// numbers ("1.", "1...", "1. ..."), then optionally the result token, which
// must agree with the replayed game. The game is the one the Variant header
// names, else the one the Position text names, else the standard game.
// Errors say on which line, at which move number and why: malformed text
// wraps ErrSyntax, an illegal move ErrIllegalMove, a move after the end
// ErrGameOver, an impossible start position ErrPosition.
func ParseRecord(s string) (*Game, error) {
	g, _, err := ParseRecordWithComments(s)
	return g, err
}

// ParseRecordWithComments reads a game record as ParseRecord does and
// returns the comments too: comments[i] is the text in braces after move i
// ("" for none; several comments after one move are joined by a space). A
// comment may span lines; one before the first move, or a brace that is not
// closed, is a syntax error. A '{' inside a comment reads as '(', as
// RecordWithComments writes it.
func ParseRecordWithComments(s string) (*Game, []string, error) {
	var rules *Rules
	var start *Position
	position, positionLine := "", 0
	stones, stonesLine := "", 0
	limit := 0
	lines := strings.Split(s, "\n")
	ln := 0
	for ; ln < len(lines); ln++ {
		line := strings.TrimSpace(lines[ln])
		if line == "" {
			continue
		}
		if line[0] != '[' {
			break
		}
		name, value, err := parseTag(line)
		if err != nil {
			return nil, nil, fmt.Errorf("muehle: record line %d: %w", ln+1, err)
		}
		switch name {
		case "Variant":
			r, ok := GameByName(value)
			if !ok {
				return nil, nil, fmt.Errorf("%w: record line %d: variant %q names no game (want one of %s)", ErrSyntax, ln+1, value, GameIDs())
			}
			rules = r
		case "Position":
			position, positionLine = value, ln+1
		case "Stones":
			stones, stonesLine = value, ln+1
		case "NoRemovalLimit":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, nil, fmt.Errorf("%w: record line %d: no-removal limit %q, want a number of moves (0 for none)", ErrSyntax, ln+1, value)
			}
			limit = n
		default:
			return nil, nil, fmt.Errorf("%w: record line %d: unknown header %q (want Variant, Position, Stones or NoRemovalLimit)", ErrSyntax, ln+1, name)
		}
	}
	if positionLine > 0 {
		// Without a Variant header the position text names the game.
		p, err := parsePosition(position, rules)
		if err != nil {
			return nil, nil, fmt.Errorf("muehle: record line %d: %w", positionLine, err)
		}
		start, rules = &p, p.Rules()
	}
	if rules == nil {
		rules = Standard.Rules()
	}
	k := rules.Stones
	if stonesLine > 0 {
		n, err := strconv.Atoi(stones)
		if err != nil || n < MinStones || n > rules.Stones {
			return nil, nil, fmt.Errorf("%w: record line %d: stones per side %q, want a number from %d to %d", ErrSyntax, stonesLine, stones, MinStones, rules.Stones)
		}
		k = n
	}
	g := rules.NewGame(k)
	if start != nil {
		var err error
		if g, err = NewGameFrom(*start, k); err != nil {
			return nil, nil, fmt.Errorf("muehle: record: start position: %w", err)
		}
	}
	g.NoRemovalLimit = limit

	result, haveResult := Ongoing, false
	toks, err := tokenizeMoves(lines, ln)
	if err != nil {
		return nil, nil, err
	}
	var comments []string
	for _, t := range toks {
		where := func() string {
			return fmt.Sprintf("record line %d, move %d (%s)", t.line+1, g.moveNumber(len(g.moves)), g.Position().Turn)
		}
		if t.comment {
			n := len(g.moves)
			if n == 0 {
				return nil, nil, fmt.Errorf("%w: record line %d: a comment before the first move", ErrSyntax, t.line+1)
			}
			comments = append(comments, make([]string, n-len(comments))...)
			if comments[n-1] != "" {
				comments[n-1] += " "
			}
			comments[n-1] += t.text
			continue
		}
		tok := t.text
		if haveResult {
			return nil, nil, fmt.Errorf("%w: %s: %q after the result", ErrSyntax, where(), tok)
		}
		if r, ok := resultOfToken(tok); ok {
			result, haveResult = r, true
			continue
		}
		if tok == "..." {
			continue
		}
		if n, rest, ok := cutMoveNumber(tok); ok {
			if want := g.moveNumber(len(g.moves)); n != want {
				return nil, nil, fmt.Errorf("%w: %s: move number %d, want %d", ErrSyntax, where(), n, want)
			}
			if tok = rest; tok == "" {
				continue
			}
		}
		m, err := rules.Board.ParseMove(tok)
		if err != nil {
			return nil, nil, fmt.Errorf("muehle: %s: %w", where(), err)
		}
		w := where()
		if err := g.Play(m); err != nil {
			return nil, nil, fmt.Errorf("muehle: %s: %w", w, err)
		}
	}
	if haveResult {
		if r, why := g.Result(); r != result {
			if why == "" {
				why = "the game is not over"
			}
			return nil, nil, fmt.Errorf("%w: record: the result is %s but the replayed game says %s (%s)", ErrSyntax, result.Token(), r.Token(), why)
		}
	}
	if len(g.moves) > 0 {
		comments = append(comments, make([]string, len(g.moves)-len(comments))...)
	}
	return g, comments, nil
}

// parseTag splits a header line [Name "value"].
func parseTag(line string) (name, value string, err error) {
	inner, ok := strings.CutSuffix(line[1:], "]")
	if !ok {
		return "", "", fmt.Errorf("%w: header %q does not end with ']'", ErrSyntax, line)
	}
	name, quoted, ok := strings.Cut(strings.TrimSpace(inner), " ")
	quoted = strings.TrimSpace(quoted)
	if !ok || name == "" || len(quoted) < 2 || quoted[0] != '"' {
		return "", "", fmt.Errorf("%w: header %q, want [Name \"value\"]", ErrSyntax, line)
	}
	value, err = strconv.Unquote(quoted)
	if err != nil {
		return "", "", fmt.Errorf("%w: header %q: value %s is not a quoted string", ErrSyntax, line, quoted)
	}
	return name, value, nil
}

// cutMoveNumber splits a token that starts with a move number, "12." or
// "12...", into the number and the rest ("12.d6" gives 12 and "d6").
func cutMoveNumber(tok string) (n int, rest string, ok bool) {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 0 || i > 6 || i == len(tok) || tok[i] != '.' {
		return 0, tok, false
	}
	n, err := strconv.Atoi(tok[:i])
	if err != nil {
		return 0, tok, false
	}
	rest = strings.TrimPrefix(tok[i:], "...")
	rest = strings.TrimPrefix(rest, ".")
	return n, rest, true
}

// commentReplacer keeps a comment inside its braces and on its line.
var commentReplacer = strings.NewReplacer("{", "(", "}", ")", "\r\n", " ", "\n", " ", "\r", " ")

// recordToken is a word of a record's move text, or the text of a comment.
type recordToken struct {
	text    string
	line    int // where it starts, from 0
	comment bool
}

// tokenizeMoves splits lines[first:] into words and comments in braces.
func tokenizeMoves(lines []string, first int) ([]recordToken, error) {
	var toks []recordToken
	var cur strings.Builder
	inComment, start := false, 0
	flush := func(ln int) {
		if cur.Len() > 0 {
			toks = append(toks, recordToken{text: cur.String(), line: ln})
			cur.Reset()
		}
	}
	for ln := first; ln < len(lines); ln++ {
		for _, r := range lines[ln] {
			switch {
			case inComment && r == '}':
				toks = append(toks, recordToken{text: strings.TrimSpace(commentReplacer.Replace(cur.String())), line: start, comment: true})
				cur.Reset()
				inComment = false
			case inComment:
				cur.WriteRune(r)
			case r == '{':
				flush(ln)
				inComment, start = true, ln
			case r == '}':
				return nil, fmt.Errorf("%w: record line %d: '}' without '{'", ErrSyntax, ln+1)
			case r == ' ' || r == '\t' || r == '\r':
				flush(ln)
			default:
				cur.WriteRune(r)
			}
		}
		if inComment {
			cur.WriteByte(' ')
		} else {
			flush(ln)
		}
	}
	if inComment {
		return nil, fmt.Errorf("%w: record line %d: a comment '{' that is never closed", ErrSyntax, start+1)
	}
	return toks, nil
}
