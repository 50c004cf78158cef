// Command wineresults reads the events of a Windows test binary run under
// Wine (go tool test2json's JSON lines) and judges them as Windows would:
// Wine 8 does not implement FileDispositionInformationEx, which Go's
// os.RemoveAll (1.26) deletes files with, so every test that leaves files
// in its t.TempDir fails at the folder's cleanup ("TempDir RemoveAll
// cleanup: ... Invalid function."), on Windows it does not. A test whose
// only complaints are those cleanup lines counts as passed; any other
// failure, a test's or the package's (a panic, a timeout), fails.
//
// A test's output does not tell its logs (t.Log) and skips from its
// failures (t.Error): every line it printed counts as a complaint, but for
// the lines that the notes file (-notes) names as logs, one a line:
// the test's name, a tab, and a regular expression for the line.
//
// It prints one line per package, "N passed, N failed, N skipped", with
// how many passed but for Wine's cleanup, and the output of every real
// failure; it exits 1 when there is one.
//
// Usage: wine pkg.test.exe -test.v=test2json ... | go tool test2json -t -p PKG |
// go run ./.ci/windows/wineresults -notes .ci/windows/wine-logs.txt
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// cleanup is the complaint of t.TempDir's cleanup under Wine 8.
var cleanup = regexp.MustCompile(`TempDir RemoveAll cleanup: .*: Invalid function\.`)

// complaint is a line a test logged (t.Error, t.Log, t.Fatal): file:line.
var complaint = regexp.MustCompile(`^\s+\S+\.go:\d+: `)

type result struct {
	action string
	output []string
}

func main() {
	notesFile := flag.String("notes", "", "`file` of the lines tests log that are no complaint")
	flag.Parse()
	notes := map[string][]*regexp.Regexp{} // test → its log lines
	if *notesFile != "" {
		b, err := os.ReadFile(*notesFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for line := range strings.Lines(string(b)) {
			name, re, ok := strings.Cut(strings.TrimSpace(line), "\t")
			if !ok || strings.HasPrefix(name, "#") {
				continue
			}
			notes[name] = append(notes[name], regexp.MustCompile(re))
		}
	}
	logged := func(test, line string) bool {
		for _, re := range notes[test] {
			if re.MatchString(line) {
				return true
			}
		}
		return false
	}
	tests := map[string]map[string]*result{} // package → test → result
	pkgs := map[string]*result{}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Println(sc.Text()) // not an event: show it
			continue
		}
		if tests[e.Package] == nil {
			tests[e.Package] = map[string]*result{}
			pkgs[e.Package] = &result{}
		}
		r := pkgs[e.Package]
		if e.Test != "" {
			if r = tests[e.Package][e.Test]; r == nil {
				r = &result{}
				tests[e.Package][e.Test] = r
			}
		}
		switch e.Action {
		case "output":
			r.output = append(r.output, e.Output)
		case "pass", "fail", "skip":
			r.action = e.Action
		}
	}
	bad := false
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		var passed, failed, skipped int
		kind := map[string]string{} // failed test → "real", "wine" or "inherit"
		for name, r := range tests[p] {
			switch r.action {
			case "pass":
				passed++
			case "skip":
				skipped++
			case "fail":
				own, cleanups := 0, 0
				for _, l := range r.output {
					switch {
					case cleanup.MatchString(l):
						cleanups++
					case logged(name, l):
					case complaint.MatchString(l) || strings.Contains(l, "panic:"):
						own++
					}
				}
				switch {
				case own > 0:
					kind[name] = "real"
				case cleanups > 0:
					kind[name] = "wine"
				default:
					kind[name] = "inherit"
				}
			}
		}
		// A test that failed with no complaint of its own failed through
		// its subtests: it is what the worst of them is.
		for name, k := range kind {
			if k != "inherit" {
				continue
			}
			worst := "real" // no failed subtest: a failure unexplained
			for n, kn := range kind {
				if strings.HasPrefix(n, name+"/") && kn != "inherit" {
					if kn == "real" {
						worst = "real"
						break
					}
					worst = "wine"
				}
			}
			kind[name] = worst
		}
		var wine, real []string
		for name, k := range kind {
			if k == "real" {
				failed++
				real = append(real, name)
			} else {
				passed++
				wine = append(wine, name)
			}
		}
		sort.Strings(wine)
		sort.Strings(real)
		if pkgs[p].action == "fail" && len(real) == 0 && len(wine) == 0 {
			failed++
			real = append(real, "(the package: "+lastLines(pkgs[p].output, 20)+")")
		}
		if pkgs[p].action == "" {
			failed++
			real = append(real, "(the package did not finish: "+lastLines(pkgs[p].output, 20)+")")
		}
		fmt.Printf("%s: %d passed, %d failed, %d skipped\n", p, passed, failed, skipped)
		if len(wine) > 0 {
			fmt.Printf("  %d of them failed under Wine only at t.TempDir's cleanup\n", len(wine))
		}
		for _, name := range real {
			bad = true
			fmt.Printf("  FAIL %s\n", name)
			if r := tests[p][name]; r != nil {
				for _, l := range r.output {
					if !cleanup.MatchString(l) {
						fmt.Print("    " + l)
					}
				}
			}
		}
	}
	if bad {
		os.Exit(1)
	}
}

// lastLines returns the last n lines of lines, joined.
func lastLines(lines []string, n int) string {
	return strings.TrimSpace(strings.Join(lines[max(0, len(lines)-n):], ""))
}
