package muehle

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The hand-kept lists of the documentation are checked against the files,
// so that a file moved, renamed or added without its line fails here:
//
//   - every package of more than one source file has a doc.go whose
//     package comment gives each source file (tests aside) its role, one
//     indented line each, starting with the name or a pattern such as
//     lock_*.go; every listed name must match a file, and every file a name;
//   - the README's table of folders ("Where things are") names every
//     folder that holds a package, and only folders that exist;
//   - every page of docs/ is linked from the README;
//   - every relative link of README.md and docs/*.md leads to a file or
//     folder, and so does every path in backquotes that starts with one of
//     the module's top folders (such as `retro/cost.go`).
//
// The tests walk the module from its root, the parent of this package's
// folder, and read the files directly, so they need no go tool and see the
// files of every system (lock_unix.go and lock_other.go alike).

// moduleRoot returns the module's root folder.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	return root
}

// packageDirs returns the module's folders that hold Go source files other
// than tests (slash-separated, relative to root), each with those files.
func packageDirs(t *testing.T, root string) map[string][]string {
	t.Helper()
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			dirs[rel] = append(dirs[rel], name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// listEntry is the start of a line of a file list in a package comment: a
// tab, then a file name or pattern ending in .go.
var listEntry = regexp.MustCompile(`^//\t([A-Za-z0-9_*]+\.go)\b`)

// docList returns the file names and patterns that the package comment of
// the doc.go at file lists, and whether the file exists.
func docList(t *testing.T, file string) ([]string, bool) {
	t.Helper()
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "package ") {
			break
		}
		if m := listEntry.FindStringSubmatch(line); m != nil {
			names = append(names, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names, true
}

// TestDocFileLists checks each package's doc.go file list against the
// package's source files.
func TestDocFileLists(t *testing.T) {
	root := moduleRoot(t)
	dirs := packageDirs(t, root)
	if len(dirs) < 8 {
		t.Fatalf("found %d package folders, want at least 8: %v", len(dirs), dirs)
	}
	for dir, files := range dirs {
		names, ok := docList(t, filepath.Join(root, filepath.FromSlash(dir), "doc.go"))
		if !ok {
			if len(files) > 1 {
				t.Errorf("%s: %d source files and no doc.go with their list", dir, len(files))
			}
			continue
		}
		if len(names) == 0 && len(files) > 1 {
			t.Errorf("%s/doc.go lists no files; want each of %s with its role", dir, strings.Join(files, ", "))
			continue
		}
		for _, n := range names {
			if !slices.ContainsFunc(files, func(f string) bool { ok, _ := path.Match(n, f); return ok }) {
				t.Errorf("%s/doc.go lists %s, but no source file of the folder matches it", dir, n)
			}
		}
		for _, f := range files {
			if f == "doc.go" {
				continue
			}
			if !slices.ContainsFunc(names, func(n string) bool { ok, _ := path.Match(n, f); return ok }) {
				t.Errorf("%s/%s is not in the file list of %s/doc.go", dir, f, dir)
			}
		}
	}
}

// readmeFolders returns the folders in the first column of the README's
// table under "## Where things are".
func readmeFolders(t *testing.T, readme string) []string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Where things are\n")
	if !ok {
		t.Fatal(`README.md has no section "## Where things are"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	cell := regexp.MustCompile("(?m)^\\| `([^`]+/)` \\|")
	var folders []string
	for _, m := range cell.FindAllStringSubmatch(section, -1) {
		folders = append(folders, strings.TrimSuffix(m[1], "/"))
	}
	return folders
}

// TestReadmeFolders checks the README's table of folders against the
// package folders and the pages of docs/.
func TestReadmeFolders(t *testing.T) {
	root := moduleRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	folders := readmeFolders(t, readme)
	if len(folders) == 0 {
		t.Fatal("the README's table of folders is empty")
	}
	for _, f := range folders {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err != nil || !st.IsDir() {
			t.Errorf("README.md's table names the folder %s/, which does not exist", f)
		}
	}
	for dir := range packageDirs(t, root) {
		if dir != "." && !slices.Contains(folders, dir) {
			t.Errorf("the package folder %s/ is not in README.md's table of folders", dir)
		}
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		link := "](docs/" + filepath.Base(p) + ")"
		if !strings.Contains(readme, link) {
			t.Errorf("README.md has no link to docs/%s", filepath.Base(p))
		}
	}
}

var (
	// mdLink is the target of a Markdown link or image.
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// codePath is a path in backquotes.
	codePath = regexp.MustCompile("`([A-Za-z0-9_./-]+)`")
)

// TestDocLinks checks that the relative links of README.md and docs/*.md,
// and the paths in backquotes that start with a top folder of the module,
// name files or folders that exist.
func TestDocLinks(t *testing.T) {
	root := moduleRoot(t)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var tops []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "bin" && e.Name() != ".git" {
			tops = append(tops, e.Name()+"/")
		}
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		text := string(b)
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if !exists(filepath.Join(filepath.Dir(page), filepath.FromSlash(target))) {
				t.Errorf("%s links to %s, which does not exist", rel, m[1])
			}
		}
		for _, m := range codePath.FindAllStringSubmatch(text, -1) {
			p := m[1]
			if !slices.ContainsFunc(tops, func(top string) bool { return strings.HasPrefix(p, top) }) {
				continue
			}
			if !exists(filepath.Join(root, filepath.FromSlash(p))) {
				t.Errorf("%s names `%s`, which does not exist", rel, p)
			}
		}
	}
}
