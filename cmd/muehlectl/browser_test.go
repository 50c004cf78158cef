package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"muehle/cmd/muehlectl/analysis"
	"muehle/layers"
	"muehle/muehle"
)

// chromium returns the path of a Chromium or Chrome to drive: $CHROMIUM,
// or the first of Debian's chromium and its other names on PATH; "" when
// there is none.
func chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium with the flags of a test run (no
// sandbox, no GPU, no network of its own, a fresh profile) and returns
// its context; the test is skipped, saying so, without Chromium.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium()
	if path == "" {
		t.Skip("SKIP: no Chromium installed (apt-get install chromium, or set $CHROMIUM): the analysis page is not tested in a browser")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1000, 720),
		// Its scratch folders (org.chromium.Chromium.*) in the test's
		// own, removed after it, not left in /tmp.
		chromedp.Env("TMPDIR=" + t.TempDir()),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// A bound on the whole browser's life: starting Chromium alone took
	// close to a minute on the shared 2-core machine under the race
	// detector (load average 19); about 10 s on the whole test otherwise.
	ctx, cancel3 := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel3)
	return ctx
}

// ready is the page's mark that it shows an answer.
const ready = chromedp.CSS(`body[data-ready="yes"]`)

// badgesJS returns the value shown on each point of the page's board.
const badgesJS = `Object.fromEntries([...document.querySelectorAll('#board text.badge')].map(e => [e.dataset.point, e.textContent]))`

// wantBadges returns what the page must show on each point for the
// answer of pos with no stone picked up: each move's value, W7, L4 or D,
// on the point it starts from (a placement: its point), the best move's
// where several start there.
func wantBadges(t *testing.T, db *layers.DB, pos muehle.Position) map[string]string {
	t.Helper()
	a, err := analysis.Of(db, pos)
	if err != nil {
		t.Fatal(err)
	}
	b := pos.Board()
	out := map[string]string{}
	for _, mv := range a.Moves {
		p := mv.Move.From
		if p == muehle.NoPoint {
			p = mv.Move.To
		}
		name := b.PointName(p)
		if _, ok := out[name]; ok {
			continue
		}
		switch v := mv.Value; v.Outcome() {
		case layers.Win:
			out[name] = fmt.Sprintf("W%d", v.Depth())
		case layers.Loss:
			out[name] = fmt.Sprintf("L%d", v.Depth())
		default:
			out[name] = "D"
		}
	}
	return out
}

// TestBrowserAnalysisPage loads the analysis page in headless Chromium,
// checks the values it shows on the board against the database, clicks a
// move (a placement, then a stone and its target), checks the new
// position in the address and its values, and undoes.
func TestBrowserAnalysisPage(t *testing.T) {
	ctx := browser(t)
	dir := engineDB(t)
	db := openEngineDB(t, "standard")
	base := startServer(t, dir, 100, nil)
	start := muehle.Standard.With(3).NewPosition()
	pos := start.Play(muehle.Move{From: muehle.NoPoint, To: 4, Remove: muehle.NoPoint}) // d6
	var shown map[string]string
	var loc string
	open := func(p muehle.Position) {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Navigate(base+"/?game=standard-k3&position="+url.QueryEscape(p.String())),
			chromedp.WaitVisible(ready))
		if err == nil {
			shown, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]string](badgesJS))
		}
		if err != nil {
			t.Fatalf("open %s: %v", p, err)
		}
	}
	// tap clicks a point (or a button) without waiting for an answer.
	tap := func(sel string) {
		t.Helper()
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
		if err == nil {
			shown, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]string](badgesJS))
		}
		if err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	open(pos)
	if want := wantBadges(t, db, pos); fmt.Sprint(shown) != fmt.Sprint(want) {
		t.Errorf("%s: the page shows %v; the database says %v", pos, shown, want)
	}
	// Click a placement: Black places on d2.
	// click clicks and waits for the page's next answer.
	click := func(sel string) {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Evaluate[chromedp.Void](`document.body.dataset.ready = ""`),
			chromedp.Click(chromedp.CSS(sel)),
			chromedp.WaitVisible(ready))
		if err == nil {
			shown, err = chromedp.Run(ctx, chromedp.Evaluate[map[string]string](badgesJS))
		}
		if err == nil {
			loc, err = chromedp.Run(ctx, chromedp.Evaluate[string](`new URLSearchParams(location.search).get("position")`))
		}
		if err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	click("#pt-d2")
	next := pos.Play(muehle.Move{From: muehle.NoPoint, To: 19, Remove: muehle.NoPoint})
	if loc != next.String() {
		t.Errorf("after d2 the address has position %q, want %q", loc, next)
	}
	if want := wantBadges(t, db, next); fmt.Sprint(shown) != fmt.Sprint(want) {
		t.Errorf("%s: the page shows %v; the database says %v", next, shown, want)
	}
	// A moving position: pick up a stone, then click its target.
	moving, err := muehle.ParsePosition("WW.BB....W.............B w 0 0")
	if err != nil {
		t.Fatal(err)
	}
	open(moving)
	if want := wantBadges(t, db, moving); fmt.Sprint(shown) != fmt.Sprint(want) {
		t.Errorf("%s: the page shows %v; the database says %v", moving, shown, want)
	}
	// a4 jumps to g7 and closes a mill; then the stone to take, b6.
	tap("#pt-a4")
	if shown["g7"] != "W1" {
		t.Errorf("a4 picked up: g7 shows %q, want W1 (shown: %v)", shown["g7"], shown)
	}
	tap("#pt-g7")
	if shown["b6"] != "W1" || shown["d6"] != "W1" || shown["g1"] != "W1" {
		t.Errorf("mill closed: the stones to take show %v, want W1 on b6, d6 and g1", shown)
	}
	click("#pt-b6")
	won := moving.Play(muehle.Move{From: 9, To: 2, Remove: 3})
	if loc != won.String() {
		t.Errorf("after a4-g7xb6 the address has position %q, want %q", loc, won)
	}
	value, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#value")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(value, "lost in 0") {
		t.Errorf("after the winning move the page says %q, want lost in 0", value)
	}
	click("#undo")
	if loc != moving.String() {
		t.Errorf("after undo the address has position %q, want %q", loc, moving)
	}
	if path := os.Getenv("SHOT_ANALYSIS"); path != "" {
		shot(t, ctx, path)
	}
}

// shot saves a screenshot of the page as PNG at path.
func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnalysisScreenshot draws the page for the README when
// $SHOT_ANALYSIS names the PNG to write, $SHOT_DB a database folder and
// $SHOT_QUERY the page's query (game and position); skipped otherwise.
func TestAnalysisScreenshot(t *testing.T) {
	path, dir, query := os.Getenv("SHOT_ANALYSIS"), os.Getenv("SHOT_DB"), os.Getenv("SHOT_QUERY")
	if path == "" || dir == "" || query == "" {
		t.Skip("set SHOT_ANALYSIS, SHOT_DB and SHOT_QUERY to draw the README's screenshot of the page")
	}
	ctx := browser(t)
	base := startServer(t, dir, 100, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?"+query), chromedp.WaitVisible(ready)); err != nil {
		t.Fatal(err)
	}
	shot(t, ctx, path)
}
