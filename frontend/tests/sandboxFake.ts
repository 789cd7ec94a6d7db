// The sandbox test as the fake WarrenApi judges it (fakeApi.ts uses it).
import type { SandboxCheck, SandboxTest } from '../src/lib/types';

/** Go's judgeSandbox: ok only when the run check ran; network-only failures are set apart (MCP/Sandbox work). */
export function judgeDoctor(checks: SandboxCheck[], at = new Date()): SandboxTest {
  const networkOnly = ['tun device', 'slirp4netns', 'network run'];
  const res: SandboxTest = { at: at.toISOString(), ok: false, checks: structuredClone(checks), seconds: 1.2 };
  let ran = false;
  for (const c of checks) {
    if (c.name === 'run' && c.ok) ran = true;
    if (c.ok) continue;
    if (networkOnly.includes(c.name)) res.network_failed ??= structuredClone(c);
    else res.failed ??= structuredClone(c);
  }
  res.ok = ran && !res.failed;
  if (!res.ok && !res.failed) res.failed = { name: 'run', ok: false, detail: 'no test command ran', fix: 'run the test again' };
  if (res.failed?.name === 'image') res.action = 'build-image';
  return res;
}
