package shell

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxScriptBytes is the largest script Analyze reads; longer ones are Ask.
const MaxScriptBytes = 64 << 10

// Limits that keep the worst case small: nested code strings (sh -c, eval),
// total work, and total text parsed (brace expansion can copy code strings).
const (
	maxDepth    = 8
	maxNesting  = 200 // brackets deep; the parser recurses per level
	maxSteps    = 50_000
	maxParsed   = 1 << 20
	maxFrames   = 64
	maxFindings = 200
	maxCommands = 5_000
)

// Analyze parses script as bash and judges every command that would run.
// It never panics and never does I/O; equal inputs give equal results.
func Analyze(script string) (res Analysis) {
	if len(script) > MaxScriptBytes {
		return Analysis{Verdict: Ask, Findings: []Finding{{
			Category: Unanalysable, Verdict: Ask,
			Reason: fmt.Sprintf("script too long to analyse (%d bytes, limit %d)", len(script), MaxScriptBytes),
		}}}
	}
	defer func() {
		// A parser or analyser bug must never turn into a silent Allow.
		if r := recover(); r != nil {
			res = Analysis{Verdict: Ask, Findings: []Finding{{
				Category: Unanalysable, Verdict: Ask, Reason: fmt.Sprintf("analyser error: %v", r),
			}}}
		}
	}()
	a := &analyzer{}
	a.child(script, "", ctx{})
	res = Analysis{Findings: a.findings, Commands: a.commands}
	for _, f := range a.findings {
		res.Verdict = max(res.Verdict, f.Verdict)
	}
	return res
}

// analyzer holds the results and budgets shared by every nested shell.
type analyzer struct {
	findings []Finding
	commands []Command
	steps    int
	parsed   int
	nest     []string // code strings being analysed, outermost first (sh -c, eval)
	spent    bool     // the step budget ran out (reported once)
	parser   *syntax.Parser
	printer  *syntax.Printer
}

// scope is one shell process: the script itself or a nested `sh -c` string.
// eval, trap and alias text run in the scope that defines them.
type scope struct {
	a         *analyzer
	text      string               // source, for counting writes to variables
	vars      map[string]string    // variables with one statically known value
	writes    map[string]int       // writeCounts of text, computed on first use
	noResolve bool                 // IFS or namerefs in play: never resolve variables
	funcs     map[string]*funcInfo // defined functions by name
	order     []string             // function names in definition order
	frames    []frame              // function call stack
	files     map[string]fileInfo  // files this script wrote, by base name
	taints    map[string]flags     // variables assigned from downloads or decoders
	aliases   map[string]field     // alias values by name
	expanding map[string]bool      // aliases being expanded (they never recurse)
}

// fileInfo is what the script wrote to a file, so running it later is judged
// by its content (cat > x.sh <<EOF … ; sh x.sh) or origin (curl -o x.sh).
type fileInfo struct {
	text  string
	known bool  // text is the whole content
	taint flags // downloaded, decoded, built from expansions
}

type funcInfo struct {
	body *syntax.Stmt
	done bool
	st   stage
}

type frame struct {
	name  string
	spawn bool // the call that entered this frame was in a pipeline or background job
}

// ctx is what the walker knows about where a statement sits.
type ctx struct {
	cond  bool  // may not run, may run many times, or runs in a subshell: assignments are not tracked
	spawn bool  // runs in a pipeline stage or background job (a recursive call here forks)
	up    flags // taint of what earlier pipeline stages write to this one's stdin
}

// step counts a unit of work; false means the budget is spent and walking
// should stop.
func (a *analyzer) step() bool { return a.spend(1) }

// spend counts n units of work.
func (a *analyzer) spend(n int) bool {
	a.steps += n
	if a.steps <= maxSteps {
		return true
	}
	if !a.spent {
		a.spent = true
		a.add(Finding{Category: Unanalysable, Verdict: Ask, Reason: "script too complex to analyse fully"})
	}
	return false
}

func (a *analyzer) add(f Finding) {
	for _, g := range a.findings {
		if g.Category == f.Category && g.Verdict == f.Verdict && g.Reason == f.Reason && slices.Equal(g.Argv, f.Argv) {
			return
		}
	}
	if len(a.findings) >= maxFindings {
		// Keep the strictest verdict visible even when findings overflow.
		if last := &a.findings[len(a.findings)-1]; f.Verdict > last.Verdict {
			*last = f
		}
		return
	}
	a.findings = append(a.findings, f)
}

// find records a finding about argv, naming the wrappers it was reached through.
func (s *scope) find(v Verdict, c Category, argv []string, in inv, reason string) {
	if len(in.via) > 0 {
		reason += " via " + strings.Join(in.via, ", ")
	}
	if len(s.a.nest) > 0 {
		reason += " (in " + strings.Join(s.a.nest, " > ") + ")"
	}
	s.a.add(Finding{Category: c, Verdict: v, Argv: argv, Reason: reason})
}

// record appends a command that would run.
func (s *scope) record(argv []field, in inv) {
	if len(s.a.commands) >= maxCommands {
		s.a.steps = maxSteps // too many to list faithfully: report as too complex
		s.a.step()
		return
	}
	c := Command{Argv: texts(argv), Literal: true}
	for _, f := range argv {
		c.Literal = c.Literal && f.literal
	}
	if len(in.via) > 0 {
		c.Via = slices.Clone(in.via)
	}
	s.a.commands = append(s.a.commands, c)
}

// parse parses bash source; failures become Ask findings.
func (a *analyzer) parse(src, what string) (*syntax.File, bool) {
	if what == "" {
		what = "script"
	}
	a.parsed += len(src)
	if a.parsed > maxParsed {
		a.add(Finding{Category: Unanalysable, Verdict: Ask, Reason: "script too complex to analyse fully"})
		return nil, false
	}
	if nesting(src) > maxNesting {
		a.add(Finding{Category: Unanalysable, Verdict: Ask, Reason: what + " is nested too deeply to analyse"})
		return nil, false
	}
	if a.parser == nil {
		a.parser = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	f, err := a.parser.Parse(strings.NewReader(src), "")
	if err != nil {
		a.add(Finding{Category: Unanalysable, Verdict: Ask, Reason: "cannot parse " + what + ": " + err.Error()})
		return nil, false
	}
	return f, true
}

// nesting is an upper bound on bracket depth, ignoring quotes; it keeps
// pathological input away from the recursive parser.
func nesting(src string) int {
	depth, most := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[', '`':
			depth++
			most = max(most, depth)
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return most
}

// child analyses src as a new shell process (the script, or sh -c text).
func (a *analyzer) child(src, what string, c ctx) stage {
	f, ok := a.enter(src, what)
	if !ok {
		return stage{}
	}
	defer a.leave(what)
	s := &scope{
		a: a, text: src,
		vars: map[string]string{}, funcs: map[string]*funcInfo{}, files: map[string]fileInfo{},
		// A script that touches IFS can split words anywhere; don't guess.
		noResolve: strings.Contains(src, "IFS"),
	}
	st := s.list(f.Stmts, ctx{spawn: c.spawn})
	// Functions that are defined but never called are still judged: they
	// could be called in ways the analyser does not see.
	for _, name := range s.order {
		if fi := s.funcs[name]; fi != nil && !fi.done {
			s.callFunc(name, fi, ctx{})
		}
	}
	return st
}

// same analyses src in the current shell (eval, trap, alias).
func (s *scope) same(src, what string, c ctx) stage {
	f, ok := s.a.enter(src, what)
	if !ok {
		return stage{}
	}
	defer s.a.leave(what)
	return s.list(f.Stmts, c)
}

// enter parses nested code and records where findings come from.
func (a *analyzer) enter(src, what string) (*syntax.File, bool) {
	if len(a.nest) >= maxDepth {
		a.add(Finding{Category: Unanalysable, Verdict: Ask, Reason: "code nested too deeply to analyse (" + what + ")"})
		return nil, false
	}
	f, ok := a.parse(src, what)
	if ok && what != "" {
		a.nest = append(a.nest, what)
	}
	return f, ok
}

func (a *analyzer) leave(what string) {
	if what != "" {
		a.nest = a.nest[:len(a.nest)-1]
	}
}

// callFunc analyses a function body once, detecting recursion through the
// call stack: recursion that forks (pipeline or background) is a fork bomb.
func (s *scope) callFunc(name string, fi *funcInfo, c ctx) stage {
	for i, fr := range s.frames {
		if fr.name != name {
			continue
		}
		spawned := c.spawn
		for _, g := range s.frames[i+1:] {
			spawned = spawned || g.spawn
		}
		if spawned {
			s.find(Deny, ForkBomb, []string{name}, inv{}, "function "+name+" calls itself in a pipeline or background job")
		} else {
			s.find(Ask, Unanalysable, []string{name}, inv{}, "function "+name+" calls itself recursively")
		}
		return stage{}
	}
	if fi.done {
		return fi.st
	}
	if len(s.frames) >= maxFrames {
		s.find(Ask, Unanalysable, []string{name}, inv{}, "function calls nested too deeply to analyse")
		return stage{}
	}
	fi.done = true
	s.frames = append(s.frames, frame{name: name, spawn: c.spawn})
	fi.st = s.stmt(fi.body, ctx{cond: true})
	s.frames = s.frames[:len(s.frames)-1]
	return fi.st
}
