// What the sandbox status means for the user, in words.
import type { SandboxCheck, SandboxStatus, SandboxTest } from './types';
import { plural } from './words';

export type Tone = 'safe' | 'caution' | 'danger' | 'blocked' | 'pending';

export interface Verdict {
  tone: Tone;
  headline: string;
  detail: string;
}

export const HOST_HEADLINE = 'Commands run ON THIS MACHINE (no sandbox)';
export const PODMAN_HEADLINE = 'Commands run in rootless Podman containers';
export const TESTING_HEADLINE = 'Testing the sandbox…';
export const FAILED_HEADLINE = 'Commands are refused: the sandbox test failed';

/** Podman can run commands now: available and nothing reported in the way. */
export function sandboxReady(s: SandboxStatus): boolean {
  return s.available && problemLines(s).length === 0;
}

/** Why sandboxed commands cannot run, one line each. */
export function problemLines(s: SandboxStatus): string[] {
  return (s.problems ?? []).filter(Boolean);
}

// What each doctor check's failure means, as a person would say it.
const CHECK_SENTENCES: Record<string, string> = {
  socket: 'Warren cannot reach the Podman service.',
  service: 'The Podman service does not work as the sandbox needs.',
  subuid: 'The sandbox user has no subordinate user ids for rootless containers.',
  subgid: 'The sandbox user has no subordinate group ids for rootless containers.',
  'user namespaces': 'The kernel does not allow unprivileged user namespaces.',
  'cgroup limits': 'This host does not enforce the sandbox’s resource limits.',
  'tun device': 'Sandboxes with network cannot get one: the tun device is not usable.',
  slirp4netns: 'Sandboxes with network cannot get one: slirp4netns is not installed.',
  image: 'The sandbox image is missing.',
  runner: 'Warren’s sandbox helper (warren-runner) is missing.',
  workspace: 'The sandbox user cannot use the workspace folder.',
  run: 'A test command failed inside a sandbox container.',
  'network run': 'A test command with network failed inside a sandbox container.',
};

/** A failed check in one sentence: "The sandbox image is missing." */
export function checkSentence(c: SandboxCheck): string {
  return CHECK_SENTENCES[c.name] ?? `The sandbox check “${c.name}” failed.`;
}

/**
 * Where commands run right now. The Podman side says it works only after the
 * real test (a command in a real container) passed: status alone said
 * "ready" while the first command failed (issue 15). Without a test yet it
 * says the test is running; with a failed test, that the check failed.
 */
export function whereCommandsRun(s: SandboxStatus, test?: SandboxTest | null): Verdict {
  if (s.mode === 'host') {
    return {
      tone: 'danger',
      headline: HOST_HEADLINE,
      detail: 'Sandbox mode is “host”: agents’ commands run as your user, with your files and your network.',
    };
  }
  const failed = test && !test.ok ? checkSentence(test.failed ?? { name: 'run', ok: false, detail: '' }) : null;
  if (failed || !sandboxReady(s)) {
    const why = failed ? `The sandbox test failed. ${failed}` : 'The Podman sandbox is not ready (see the problem below).';
    if (s.fallback === 'host') {
      return {
        tone: 'danger',
        headline: HOST_HEADLINE,
        detail: `${why} The fallback is “host”, so commands run directly on this machine.`,
      };
    }
    return {
      tone: 'blocked',
      headline: failed ? FAILED_HEADLINE : 'Commands are refused: the sandbox is not ready',
      detail: failed
        ? `${failed} The fallback is “deny”, so nothing runs until it is fixed.`
        : 'The fallback is “deny”, so nothing runs until the Podman sandbox is ready: see the problem below and its fix.',
    };
  }
  if (!test) {
    return {
      tone: 'pending',
      headline: TESTING_HEADLINE,
      detail: 'Warren runs a test command in a real container before saying the sandbox works.',
    };
  }
  if (!s.rootless) {
    return {
      tone: 'caution',
      headline: 'Commands run in Podman containers (rootful)',
      detail: 'The Podman service runs as root: containers are isolated, but a container escape would be root on this machine.',
    };
  }
  return {
    tone: 'safe',
    headline: PODMAN_HEADLINE,
    detail: 'Each session gets its own container: read-only root, all capabilities dropped, only the workspace writable, no network unless a tool asks for one.',
  };
}

/** When the test ran and what it proved: "Tested at 14:03 (1.2 s): a command ran in a container." */
export function testedText(t: SandboxTest): string {
  const at = new Date(t.at);
  const when = Number.isNaN(at.getTime()) ? '' : ` at ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })}`;
  const took = t.seconds >= 0.1 ? ` (${t.seconds < 10 ? t.seconds.toFixed(1) : Math.round(t.seconds)} s)` : '';
  return t.ok
    ? `Tested${when}${took}: a command ran in a container, with the workspace writable.`
    : `Tested${when}${took}: the check “${t.failed?.name ?? 'run'}” failed.`;
}

/** Docker-style short container id. */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 12) : id;
}

/** A problem or warning line split into what is wrong and what to do. */
export interface Advice {
  /** What is wrong; the whole line when it says no fix. */
  cause: string;
  /** What to do, "" when the line has none. */
  fix: string;
}

const FIX_MARK = '. Fix: ';

/**
 * Splits "<cause>. Fix: <fix>" at the last ". Fix: " (a cause may quote an
 * error that has its own); the cause keeps its full stop.
 */
export function splitFix(line: string): Advice {
  const at = line.lastIndexOf(FIX_MARK);
  if (at < 0) return { cause: line.trim(), fix: '' };
  return { cause: line.slice(0, at + 1).trim(), fix: line.slice(at + FIX_MARK.length).trim() };
}

/** A run of text, or of a command to show as copyable code. */
export interface Segment {
  text: string;
  code: boolean;
}

// A command in a fix: a known program followed by an argument, or one of the
// set-up scripts. Fixes are prose written in Go ("sudo modprobe tun, then sudo
// chmod 0666 /dev/net/tun, or turn the agent's network off"), so a program
// name only counts with an argument after it ("install podman, uidmap" is prose).
const COMMAND =
  /(^|[\s(])((?:sudo|chmod|chown|chgrp|systemctl|sysctl|modprobe|usermod|apt-get|dnf|podman|warren|make) (?=[^\s,;.)])|scripts\/[\w.-]+\.sh)/g;
// Where a command's arguments end: a clause break, a parenthesis or the end.
const COMMAND_END = /, |; | \(|\)|\.(?:\s|$)|$/g;

/**
 * Cuts text into prose and code: `backticked` spans always, and with commands
 * also the commands a fix spells out without backticks.
 */
export function segments(text: string, commands = true): Segment[] {
  const out: Segment[] = [];
  const push = (t: string, code: boolean) => {
    if (!t) return;
    const last = out[out.length - 1];
    if (last && last.code === code && !code) last.text += t;
    else out.push({ text: t, code });
  };
  const parts = text.split('`');
  parts.forEach((part, i) => {
    // Odd parts were between backticks; an unpaired last one stays prose.
    const quoted = i % 2 === 1;
    if (quoted && i < parts.length - 1) return push(part, true);
    if (quoted) part = '`' + part;
    if (!commands) return push(part, false);
    let from = 0;
    for (const m of part.matchAll(COMMAND)) {
      const start = m.index + m[1].length;
      if (start < from) continue;
      let end = start + m[2].length;
      if (!m[2].startsWith('scripts/')) {
        COMMAND_END.lastIndex = end;
        end = COMMAND_END.exec(part)?.index ?? part.length;
      }
      push(part.slice(from, start), false);
      push(part.slice(start, end), true);
      from = end;
    }
    push(part.slice(from), false);
  });
  return out;
}

export type CheckResult = 'pass' | 'warn' | 'fail';

/** A doctor check's badge. */
export function checkResult(c: SandboxCheck): CheckResult {
  if (!c.ok) return 'fail';
  return c.warn ? 'warn' : 'pass';
}

/** One line over the doctor's results: "2 of 13 checks failed, 1 warning". */
export function doctorSummary(checks: SandboxCheck[]): string {
  const n = checks.length;
  const failed = checks.filter((c) => checkResult(c) === 'fail').length;
  const warned = checks.filter((c) => checkResult(c) === 'warn').length;
  const warnings = warned ? `, ${plural(warned, 'warning')}` : '';
  if (n === 0) return 'The doctor ran no checks.';
  if (failed) return `${failed} of ${plural(n, 'check')} failed${warnings}.`;
  return `${n === 1 ? 'The check passed' : `All ${n} checks passed`}${warnings}.`;
}
