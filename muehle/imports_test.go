package muehle

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// importRule says what the packages under pkg (the package and its
// sub-packages) may import: the module and third-party packages in allow
// (prefixes; the standard library is always allowed), or anything when any
// is set; and what must not appear even among their indirect
// dependencies (deny). A package obeys the last rule whose pkg covers it,
// so a sub-package's rule follows its parent's. A deny prefix covers the
// packages below it except those of the rule's own tree, unless the denied
// prefix itself lies inside that tree, or an allow entry inside the
// denied prefix makes an exception (excepted): the players
// (muehle/retro/search, play and teach) may not import the solver
// (muehle/retro), and the solver may not import the players. This is the
// dependency direction of docs/design.md: muehle ← layers ← {retro, the
// players: retro/search ← retro/play ← retro/teach} ← ui ← cmd, Fyne only
// in ui and cmd/muehle, and the game flow (ui/game) without Fyne.
//
// testOnly names packages of testOnlyPackages that the tests of the
// packages under pkg may import although allow or deny would refuse them.
type importRule struct {
	pkg      string
	allow    []string
	any      bool
	deny     []string
	testOnly []string
}

// The third-party modules allowed below the UI are the CGO-free ones of
// go.mod: mmap-go and golang.org/x/sys for files and memory (layers, and
// retro's spilled solver state), golang.org/x/sync for parallel loops,
// and github.com/klauspost/compress (zstd, FSE: one well-kept library
// without cgo) for the layers kept compressed and the packages.
var importRules = []importRule{
	{pkg: "muehle/muehle", allow: []string{"muehle/muehle"}, deny: []string{"fyne.io", "muehle/layers", "muehle/retro", "muehle/ui", "muehle/cmd"}},
	{pkg: "muehle/layers", allow: []string{"muehle/muehle", "muehle/layers", "github.com/edsrzf/mmap-go", "golang.org/x/sync", "golang.org/x/sys", "github.com/klauspost/compress/zstd", "github.com/klauspost/compress/fse"},
		deny: []string{"fyne.io", "muehle/retro", "muehle/ui", "muehle/cmd"}},
	// The database packages: the layers compressed with zstd and coded by
	// FSE, both from one well-kept library without cgo.
	{pkg: "muehle/layers/pack", allow: []string{"muehle/muehle", "muehle/layers", "github.com/klauspost/compress/zstd", "github.com/klauspost/compress/fse"},
		deny: []string{"fyne.io", "muehle/retro", "muehle/ui", "muehle/cmd"}},
	{pkg: "muehle/retro", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro", "github.com/edsrzf/mmap-go", "golang.org/x/sync", "golang.org/x/sys"},
		deny: []string{"fyne.io", "muehle/retro/search", "muehle/retro/play", "muehle/retro/teach", "muehle/retro/playtest", "muehle/ui", "muehle/cmd"}},
	// The database service the window and muehlectl share: the solver
	// and the layers, never the players, no Fyne (it tests without cgo).
	{pkg: "muehle/retro/dbservice", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro", "golang.org/x/sys"},
		deny: []string{"fyne.io", "muehle/retro/search", "muehle/retro/play", "muehle/retro/teach", "muehle/retro/playtest", "muehle/ui", "muehle/cmd"}},
	// The players read the database through layers.Prober and never import
	// the solver (as a probing library never imports the tablebase
	// generator); their tests get small solved databases from retrotest
	// and fakes from playtest. Their three packages import one way:
	// teach → play → search (the search, the perfect players and their
	// names, the teaching); an allow entry inside the denied muehle/retro
	// is the exception to that deny.
	{pkg: "muehle/retro/search", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro/search"},
		deny: []string{"fyne.io", "muehle/retro", "muehle/ui", "muehle/cmd"}, testOnly: []string{"muehle/retro/retrotest", "muehle/retro/playtest"}},
	{pkg: "muehle/retro/play", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro/search", "muehle/retro/play"},
		deny: []string{"fyne.io", "muehle/retro", "muehle/ui", "muehle/cmd"}, testOnly: []string{"muehle/retro/retrotest", "muehle/retro/playtest"}},
	{pkg: "muehle/retro/teach", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro/search", "muehle/retro/play", "muehle/retro/teach"},
		deny: []string{"fyne.io", "muehle/retro", "muehle/ui", "muehle/cmd"}, testOnly: []string{"muehle/retro/retrotest", "muehle/retro/playtest"}},
	{pkg: "muehle/retro/playtest", allow: []string{"muehle/muehle", "muehle/layers"},
		deny: []string{"fyne.io", "muehle/retro", "muehle/ui", "muehle/cmd"}},
	{pkg: "muehle/ui", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro", "muehle/ui", "fyne.io/fyne/v2"},
		deny: []string{"muehle/cmd"}},
	// The game flow: no Fyne, so that it builds and tests without cgo; the
	// players come in through its Engines interface. It imports retro/play
	// for the grammar of player names (play.Spec), never the solver: the
	// allow list keeps retro out of its imports, retro/play's rule out of
	// its dependencies.
	{pkg: "muehle/ui/game", allow: []string{"muehle/muehle", "muehle/layers", "muehle/retro/play", "muehle/ui/game"},
		deny: []string{"fyne.io", "muehle/ui", "muehle/cmd"}},
	{pkg: "muehle/assets", deny: []string{"fyne.io", "muehle/ui", "muehle/cmd"}}, // embedded files, standard library only
	{pkg: "muehle/cmd/muehle", any: true},
	{pkg: "muehle/cmd/muehlectl", any: true, deny: []string{"fyne.io", "muehle/ui"}},
}

// testOnlyPackages are the helpers of tests: only tests may import them.
// retrotest gives the players' tests small solved databases, playtest
// their fakes; testenv (standard library only, so any package's tests may
// import it) marks long tests and tells whether the race detector is on.
var testOnlyPackages = []string{"muehle/muehle/testenv", "muehle/layers/layerstest", "muehle/retro/retrotest", "muehle/retro/playtest"}

// under reports whether path is prefix or inside it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// denied reports whether the dependency d falls under the deny prefix bad
// of the rule for root: inside bad and outside root's own tree, or inside
// bad where bad itself is a sub-tree of root's tree.
func denied(d, bad, root string) bool {
	return under(d, bad) && (!under(d, root) || bad != root && under(bad, root))
}

// excepted reports whether the dependency d, inside the deny prefix bad,
// is allowed all the same by an allow prefix that lies inside bad: the
// players' packages deny muehle/retro, the solver, but play may import
// search.
func excepted(d, bad string, allow []string) bool {
	for _, a := range allow {
		if a != bad && under(a, bad) && under(d, a) {
			return true
		}
	}
	return false
}

// TestImportGraph lists the packages of the module with go list and checks
// every import (of the package and of its tests) and every indirect
// dependency against importRules, and that the test-only packages
// (testOnlyPackages) are imported by tests alone. Only packages that exist are checked; a
// package no rule covers is an error, so a new folder gets a rule. It is
// skipped when the go tool is not available.
func TestImportGraph(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go tool not found: %v", err)
	}
	const format = `{{if not .Standard}}{{.ImportPath}}` + "\t" + `{{join .Imports " "}}` + "\t" +
		`{{join .TestImports " "}} {{join .XTestImports " "}}` + "\t" +
		`{{join .Deps " "}}` + "\n{{end}}"
	cmd := exec.Command(gotool, "list", "-e", "-f", format, "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	std := standardPackages(t, gotool)
	checked := 0
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 4 {
			continue
		}
		pkg, deps := f[0], strings.Fields(f[3])
		for _, imp := range strings.Fields(f[1]) {
			if slices.Contains(testOnlyPackages, imp) {
				t.Errorf("package %s imports %s, which only tests may import", pkg, imp)
			}
		}
		imports := append(strings.Fields(f[1]), strings.Fields(f[2])...)
		slices.Sort(imports)
		imports = slices.Compact(imports) // a test may import what the package does
		var rule *importRule
		for i := range importRules {
			if under(pkg, importRules[i].pkg) {
				rule = &importRules[i]
			}
		}
		if rule == nil {
			t.Errorf("package %s: no rule in importRules; add one", pkg)
			continue
		}
		checked++
		imports = slices.DeleteFunc(imports, func(imp string) bool { return slices.Contains(rule.testOnly, imp) })
		for _, imp := range imports {
			if std[imp] || imp == "C" || rule.any || imp == pkg {
				continue
			}
			ok := false
			for _, a := range rule.allow {
				ok = ok || under(imp, a)
			}
			if !ok {
				t.Errorf("package %s imports %s; allowed besides the standard library: %v", pkg, imp, rule.allow)
			}
		}
		for _, d := range append(imports, deps...) {
			for _, bad := range rule.deny {
				if denied(d, bad, rule.pkg) && !excepted(d, bad, rule.allow) {
					t.Errorf("package %s depends on %s, which it must not (%s)", pkg, d, bad)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatalf("go list gave no packages of the module:\n%s", out)
	}
	t.Logf("%d packages checked", checked)
}

// standardPackages returns the import paths of the standard library.
func standardPackages(t *testing.T, gotool string) map[string]bool {
	t.Helper()
	out, err := exec.Command(gotool, "list", "-e", "std").Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	std := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		std[p] = true
	}
	return std
}

// TestImportDenied checks how deny prefixes treat a rule's own tree.
func TestImportDenied(t *testing.T) {
	for _, tc := range []struct {
		d, bad, root string
		want         bool
	}{
		{"muehle/retro", "muehle/retro", "muehle/retro/play", true},        // the players import the solver
		{"muehle/retro/play", "muehle/retro", "muehle/retro/play", false},  // a package of its own tree
		{"muehle/retro/play", "muehle/retro/play", "muehle/retro", true},   // the solver imports the players
		{"muehle/retro/other", "muehle/retro/play", "muehle/retro", false}, // not denied at all
		{"fyne.io/fyne/v2", "fyne.io", "muehle/ui/game", true},
		{"muehle/layers", "muehle/layers", "muehle/muehle", true},
		{"muehle/ui", "muehle/ui", "muehle/ui", false},
	} {
		if got := denied(tc.d, tc.bad, tc.root); got != tc.want {
			t.Errorf("denied(%q, %q, %q): got %v, want %v", tc.d, tc.bad, tc.root, got, tc.want)
		}
	}
}

// TestImportExcepted checks the exceptions allow entries make to a deny.
func TestImportExcepted(t *testing.T) {
	allow := []string{"muehle/muehle", "muehle/retro/search", "muehle/retro/play"}
	for _, tc := range []struct {
		d, bad string
		want   bool
	}{
		{"muehle/retro/search", "muehle/retro", true}, // play imports search
		{"muehle/retro", "muehle/retro", false},       // not the solver
		{"muehle/retro/retrotest", "muehle/retro", false},
		{"muehle/muehle", "muehle/muehle", false}, // an allow entry equal to the deny is no exception
	} {
		if got := excepted(tc.d, tc.bad, allow); got != tc.want {
			t.Errorf("excepted(%q, %q): got %v, want %v", tc.d, tc.bad, got, tc.want)
		}
	}
}

// TestImportRuleMatching checks the prefix matching the rules rely on.
func TestImportRuleMatching(t *testing.T) {
	for _, tc := range []struct {
		path, prefix string
		want         bool
	}{
		{"muehle/layers", "muehle/layers", true},
		{"muehle/layers/index", "muehle/layers", true},
		{"muehle/layersx", "muehle/layers", false},
		{"fyne.io/fyne/v2/widget", "fyne.io", true},
		{"golang.org/x/sync/errgroup", "golang.org/x/sync", true},
		{"golang.org/x/syncx", "golang.org/x/sync", false},
	} {
		if got := under(tc.path, tc.prefix); got != tc.want {
			t.Errorf("under(%q, %q): got %v, want %v", tc.path, tc.prefix, got, tc.want)
		}
	}
}
