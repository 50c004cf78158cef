package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"muehle/muehle"
)

// command is one sub-command: its name, a one-line summary and the function
// that runs it with the arguments after the name.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands []command

// register adds a sub-command; called from the init function of its file.
func register(name, summary string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	commands = append(commands, command{name, summary, run})
}

// errUsage is returned by a command whose flags were wrong; the flag package
// has already printed the reason and the usage.
var errUsage = fmt.Errorf("usage")

// errHelp is returned by a command asked for its flags (-h, --help): the
// usage is printed, and the exit status is 0, as for muehlectl alone.
var errHelp = fmt.Errorf("help")

// parseError maps an error of flag.FlagSet.Parse to errHelp or errUsage.
func parseError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	return errUsage
}

// newFlags returns a flag set for a command that reports errors instead of exiting.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("muehlectl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: muehlectl %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseFlags parses args into fs and maps a bad flag to errUsage. A
// negative duration is a bad flag, whichever command takes it.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return parseError(err)
	}
	var neg error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && neg == nil {
			if d, ok := g.Get().(time.Duration); ok && d < 0 {
				neg = fmt.Errorf("--%s %v: want a time of 0 or more", f.Name, d)
			}
		}
	})
	if neg != nil {
		return flagError(fs, neg)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		fs.Usage()
		return errUsage
	}
	return nil
}

// stopGrace is how long a command may take to end after Ctrl-C or
// SIGTERM before main ends the process itself: less than a second, so
// that with the process's own exit every command ends within a second of
// the signal in every phase (TestSignalEveryCommand).
const stopGrace = 700 * time.Millisecond

func main() {
	// Ctrl-C and SIGTERM cancel the command's context: a solve stops,
	// removes its work files and says what it kept. A command still
	// running stopGrace later is waiting on something that does not see
	// the context (a file that blocks its open or read, a terminal): the
	// process ends then with exit status 1. What the database holds
	// survives that as it survives a kill (files are written under a
	// temporary name and renamed when complete). On Windows, Ctrl-C and
	// Ctrl-Break arrive as os.Interrupt; closing the console window,
	// logging off and shutting down as SIGTERM (Windows ends the process
	// a few seconds later whatever it does).
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cancel()
		time.Sleep(stopGrace)
		fmt.Fprintf(os.Stderr, "muehlectl: %v: the command did not stop within %v; ending it\n", s, stopGrace)
		os.Exit(1)
	}()
	stopProfile := startProfile()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	os.Exit(code)
}

// run executes the command line args and returns the exit status. An
// output that fails (a full disk, /dev/full, a closed pipe) makes it 1,
// whatever the command did.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	if err := muehle.CheckGames(); err != nil {
		fmt.Fprintf(stderr, "muehlectl: games left out: %v\n", err)
	}
	code := runCommand(ctx, args, out, stderr)
	if out.err != nil && code == 0 {
		name := "muehlectl"
		if len(args) > 0 {
			name += " " + args[0]
		}
		fmt.Fprintf(stderr, "%s: writing the output: %v\n", name, out.err)
		code = 1
	}
	return code
}

// checkedWriter passes writes to w and keeps the first error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// runCommand is run without the check of the output.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	slices.SortFunc(commands, func(a, b command) int { return strings.Compare(a.name, b.name) })
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stdout, "usage: muehlectl COMMAND [flags]\n\ncommands:")
		for _, c := range commands {
			fmt.Fprintf(stdout, "  %-8s %s\n", c.name, c.summary)
		}
		fmt.Fprintln(stdout, "\nRun \"muehlectl COMMAND -h\" for the flags of a command.")
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case err == errHelp:
				return 0
			case err == errUsage:
				return 2
			default:
				fmt.Fprintf(stderr, "muehlectl %s: %v\n", c.name, err)
				return 1
			}
		}
	}
	fmt.Fprintf(stderr, "muehlectl: unknown command %q (see \"muehlectl help\")\n", args[0])
	return 2
}
