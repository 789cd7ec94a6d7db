// Package shell decides whether a shell script may run. It parses the script
// with a real shell parser (mvdan.cc/sh, bash dialect) and judges every
// simple command that would execute — not the raw text — so
// `grep -n "rm -rf" notes.txt` runs while `env rm -rf x` is blocked.
//
// Analyze is pure (no I/O, no globals), deterministic and bounded: scripts
// over MaxScriptBytes, nested more than a few code strings deep, or too
// costly to expand are Ask, never Allow.
//
// # What is walked
//
// Lists, pipelines, subshells, blocks, if/while/for/case, command and process
// substitutions (also inside arithmetic, tests, assignments, redirections and
// heredocs); `sh -c` / `bash -c` strings and heredocs or here-strings fed to
// shells (recursively); eval of literal text; trap and alias bodies; calls to
// aliases and functions (bodies are judged once; functions never called are
// judged at the end); `find -exec … ;`; `xargs CMD`; and wrappers, which are
// stripped and reported in Command.Via and in reasons: env (incl. -S), nice,
// nohup, timeout, stdbuf, setsid, ionice, chrt, taskset, time, command,
// builtin, exec, xargs, sudo, doas, su/runuser -c, pkexec, run0, gosu,
// busybox/toybox, watch, script -c, flock, strace, chroot, unshare, cmd /c.
//
// Words are normalised as the shell would: quotes and backslashes removed,
// $'…' decoded, braces expanded ({rm,-rf,x}), $(which X) read as X, and
// variables assigned exactly once to a literal, unconditionally, before use
// (X=rm; $X -rf) resolved. Anything else is a placeholder and not literal.
// The script's own files are followed: a file it downloads (curl -o, wget,
// > redirect) or writes (cat > x.sh <<EOF) is judged when it is run.
//
// # Decisions on borderline cases
//
//   - rm is denied only with both recursive and force, in any spelling (the
//     seed's pattern); `rm -r build` and `rm -f x` are allowed. An rm
//     argument only known at run time ($OPTS) is Ask, since it could be -rf;
//     `rm -f -- "$f"` is allowed.
//   - /dev/tcp and /dev/udp are denied where they open sockets: redirections
//     and script operands. As plain text (`echo /dev/tcp …`) they are allowed.
//   - eval of anything built at run time is denied, as the seed says, even
//     common idioms like eval "$(ssh-agent -s)"; eval of literal text is
//     analysed. `sh -c "… $VAR …"` is Ask (the value is re-parsed), and its
//     text is still analysed with the expansion left in place.
//   - Text piped into a shell is analysed when it is a literal echo, printf
//     or heredoc; downloaded, network, decoded or expansion-built text is
//     denied; any other producer (cat file | sh) is Ask.
//   - Running a local script (bash build.sh, ./x.sh, python3 x.py) is allowed;
//     `source`/`.` of a file is Ask because it changes the session's shell.
//   - Inline code of other languages (python -c, perl -e, node -e, ruby -e,
//     php -r, pwsh -Command, heredocs fed to them) is Ask: it is not
//     analysed, except that classic reverse-shell one-liners are denied.
//     awk is allowed unless its program runs commands (Ask) or opens
//     /inet/ sockets (Deny).
//   - sudo, doas, su, pkexec, run0 are always at least Ask; a denied command
//     under them stays denied (approvals cannot un-deny).
//   - A function calling itself (directly or through others) is a fork bomb
//     when any call in the cycle is backgrounded or in a pipeline; other
//     recursion is Ask.
//   - Setting LD_PRELOAD, BASH_ENV, ENV, PROMPT_COMMAND, NODE_OPTIONS or
//     PERL5OPT is Ask: they make programs load other code.
//
// # Known limits
//
// Programs with their own command languages (sed's e command, vim -c, git
// aliases, make, ssh host CMD, docker run) are not looked into; neither is
// bash's arithmetic evaluation of run-time values (a[$(cmd)] inside a
// variable). Windows cmd.exe syntax is only handled for del/erase, rmdir/rd,
// format and cmd /c.
package shell
