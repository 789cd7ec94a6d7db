// Process plumbing shared by the end-to-end scripts: a private Xvfb, the
// Warren binary on it, a headless Debian Chromium driven by playwright-core,
// and cleanup that always runs. Every process we start leads its own process
// group, so cleanup kills exactly the groups we created (the app's WebKit
// helpers included) and nothing else.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// playwright-core is a dev dependency of the frontend; resolve it from there so
// the repository has one node_modules.
const requireFromFrontend = createRequire(path.join(repoRoot, 'frontend', 'package.json'));

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Flags that keep Chromium quiet on a machine with a closed network.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const cleanups = [];

/** Registers fn to run (last registered first) on exit, error or signal. */
export function onCleanup(fn) {
  cleanups.push(fn);
}

export async function cleanup() {
  while (cleanups.length) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (err) {
      log(`cleanup: ${err?.message ?? err}`);
    }
  }
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, async () => {
    log(`got ${sig}, cleaning up`);
    await cleanup();
    process.exit(130);
  });
}

const t0 = Date.now();
export function log(msg) {
  const s = ((Date.now() - t0) / 1000).toFixed(1).padStart(5);
  process.stderr.write(`[e2e ${s}s] ${msg}\n`);
}

export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Kills a process group we started: TERM, then KILL after graceMs. */
async function killGroup(child, name, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const timer = new Promise((r) => setTimeout(r, graceMs, 'timeout'));
  if ((await Promise.race([exited, timer])) === 'timeout') {
    log(`${name} ignored SIGTERM; killing`);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
  }
}

/** Spawns cmd in its own process group, logging its output to logFile. */
export function startProcess(name, cmd, args, { env = {}, logFile, cwd = repoRoot } = {}) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true, // own process group → killGroup reaches its children
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  child.on('error', (err) => log(`${name}: ${err.message}`));
  onCleanup(() => killGroup(child, name));
  return child;
}

/** Starts Xvfb on a free display (-displayfd) and returns ":N". */
export async function startXvfb({ logDir, width = 1280, height = 860 }) {
  if (process.env.E2E_DISPLAY) return process.env.E2E_DISPLAY;
  const logFile = path.join(logDir, 'xvfb.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'], {
    detached: true,
    stdio: ['ignore', out, out, 'pipe'],
  });
  fs.closeSync(out);
  onCleanup(() => killGroup(child, 'Xvfb'));
  let buf = '';
  const display = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb did not report a display in 15 s (see ${logFile})`)), 15000);
    child.stdio[3].on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${buf.trim()}`);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with ${code} (see ${logFile})`));
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot start Xvfb: ${err.message} (install the xvfb package)`));
    });
  });
  child.removeAllListeners('exit');
  log(`Xvfb on ${display}`);
  return display;
}

/** Returns a TCP port that was free on 127.0.0.1 a moment ago. */
export async function freePort() {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

/** Waits until host:port accepts connections, failing early if child exits. */
export async function waitForPort(host, port, { child, timeoutMs = 90000, logFile } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`the app exited (${child.exitCode ?? child.signalCode}) before listening on ${port}; log:\n${tail(logFile)}`);
    }
    const ok = await new Promise((resolve) => {
      const sock = net.connect({ host, port });
      sock.once('connect', () => {
        sock.destroy();
        resolve(true);
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs / 1000} s; log:\n${tail(logFile)}`);
}

export function tail(file, lines = 40) {
  if (!file) return '';
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Launches headless Debian Chromium through playwright-core. */
export async function launchChromium() {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} not found: install Debian's chromium package (scripts/bootstrap.sh does)`);
  }
  const { chromium } = requireFromFrontend('playwright-core');
  // launch() gives Chromium a fresh temporary --user-data-dir of its own.
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  onCleanup(() => browser.close());
  return browser;
}
