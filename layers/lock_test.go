package layers

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"muehle/layers/layerstest"
)

// lockHelperEnv names the folder a re-executed test binary locks (its
// x.claim) (see
// TestMain); it then prints "locked" and holds the lock until killed.
const lockHelperEnv = "MUEHLE_TEST_LOCK_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(lockHelperEnv); dir != "" {
		l, err := AcquireLock(context.Background(), filepath.Join(dir, "x.claim"), false)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute)
		l.Release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLockTwoProcesses locks a folder from a second process, checks that
// this one is refused with a message naming that process, then kills it
// and takes the stale lock over.
func TestLockTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.claim")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper: got %q, %v, want \"locked\"", line, err)
	}

	_, err = AcquireLock(context.Background(), path, false)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("AcquireLock while another process holds it: got %v, want a LockedError", err)
	}
	if le.Holder.PID != cmd.Process.Pid || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Errorf("holder: got %q, want pid %d named", err, cmd.Process.Pid)
	}
	// Waiting gives up when the context ends.
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	if _, err := AcquireLock(ctx, path, true); !errors.Is(err, ErrLocked) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("AcquireLock waiting: got %v, want ErrLocked and the deadline", err)
	}

	cmd.Process.Kill() // kill -9: the lock file stays behind
	cmd.Wait()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("lock file of the killed process: %v", err)
	}
	l, err := AcquireLock(context.Background(), path, false)
	if err != nil {
		t.Fatalf("AcquireLock after the holder died: got %v, want the stale lock taken over", err)
	}
	if i, err := ReadLock(path); err != nil || i.PID != os.Getpid() {
		t.Errorf("ReadLock: got %+v, %v, want this process", i, err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Release: got %v, want none", err)
	}
}

// TestLockStale checks which lock files are taken over: those of a dead
// process on this host, those of a live process that is not the holder
// (another start time: its id reused), those with a heartbeat older than
// LockStale whatever their process (issue 28), and unreadable ones; and
// that the process ids of another system on this host are not taken for
// this one's.
func TestLockStale(t *testing.T) {
	host, _ := os.Hostname()
	now := time.Now()
	// A live process: the parent, where it is one of this system's
	// (under Wine a shell of Linux is not), else this one.
	live := os.Getppid()
	if !processAlive(live) {
		live = os.Getpid()
	}
	parentStart, known := processStart(live)
	otherOS := "windows"
	if runtime.GOOS == "windows" {
		otherOS = "linux"
	}
	for _, tc := range []struct {
		name     string
		info     *LockInfo // nil: garbage in the file
		takeOver bool
	}{
		{"live holder", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now}, false},
		{"dead pid", &LockInfo{Host: host, PID: layerstest.DeadPID(t), Start: now, Heartbeat: now}, true},
		{"other host, fresh", &LockInfo{Host: host + "-other", PID: 1, Start: now, Heartbeat: now}, false},
		{"other host, old heartbeat", &LockInfo{Host: host + "-other", PID: 1, Start: now, Heartbeat: now.Add(-LockStale - time.Minute)}, true},
		{"live pid, heartbeat a few beats old", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now.Add(-2 * LockHeartbeat)}, false},
		{"live pid, heartbeat missed longer than LockStale", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now.Add(-LockStale - time.Second)}, true},
		{"live pid, heartbeat hours old", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now.Add(-3 * time.Hour)}, true},
		{"live pid, heartbeat a day old (pid reused)", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now.Add(-25 * time.Hour)}, true},
		{"live pid, its start time", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now, ProcStart: parentStart}, false},
		{"live pid, another start time (pid reused)", &LockInfo{Host: host, PID: live, Start: now, Heartbeat: now, ProcStart: parentStart + 1}, known},
		{"unreadable", nil, true},
		// Another system's process ids on this host (a Windows program
		// under Wine beside a Linux one) say nothing of this system's.
		{"dead pid of another system", &LockInfo{Host: host, PID: layerstest.DeadPID(t), Start: now, Heartbeat: now, OS: otherOS}, false},
		// A lock without its system is of an older version, which ran on
		// Unix only.
		{"dead pid, no system named", &LockInfo{Host: host, PID: layerstest.DeadPID(t), Start: now, Heartbeat: now, OS: "-"}, runtime.GOOS != "windows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b := []byte("not json")
			if tc.info != nil {
				switch tc.info.OS {
				case "":
					tc.info.OS = runtime.GOOS
				case "-":
					tc.info.OS = ""
				}
				b, _ = json.Marshal(tc.info)
			}
			path := filepath.Join(dir, "x.claim")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.info == nil { // an unreadable lock counts as stale only when old
				if _, err := AcquireLock(context.Background(), path, false); !errors.Is(err, ErrLocked) {
					t.Fatalf("AcquireLock over a new unreadable lock: got %v, want ErrLocked", err)
				}
				old := time.Now().Add(-time.Minute)
				if err := os.Chtimes(path, old, old); err != nil {
					t.Fatal(err)
				}
			}
			l, err := AcquireLock(context.Background(), path, false)
			if got := err == nil; got != tc.takeOver {
				t.Fatalf("AcquireLock: got error %v, want taken over %v", err, tc.takeOver)
			}
			if l != nil {
				l.Release()
			}
		})
	}
}

// TestLockReleaseKeepsOthers checks that a Lock taken for dead leaves the
// new holder's lock file alone when released.
func TestLockReleaseKeepsOthers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.claim")
	l, err := AcquireLock(context.Background(), path, false)
	if err != nil {
		t.Fatal(err)
	}
	other := LockInfo{Host: "elsewhere", PID: 7, Start: time.Now(), Heartbeat: time.Now()}
	b, _ := json.Marshal(other)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	l.Release()
	if i, err := ReadLock(path); err != nil || i.PID != 7 {
		t.Errorf("ReadLock after Release: got %+v, %v, want the other holder", i, err)
	}
}

// TestLockRecordsProcessStart checks that a lock names its process's start
// time where the system tells it, so that a reused id is detected.
func TestLockRecordsProcessStart(t *testing.T) {
	want, ok := processStart(os.Getpid())
	if !ok {
		t.Skip("the process start time is not known here")
	}
	path := filepath.Join(t.TempDir(), "x.claim")
	l, err := AcquireLock(context.Background(), path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	i, err := ReadLock(path)
	if err != nil || i.ProcStart != want {
		t.Errorf("ReadLock: got start %d, %v; want %d", i.ProcStart, err, want)
	}
}
