// Process plumbing shared by the end-to-end scripts: a private Xvfb, the
// Warren binary on it, a headless Debian Chromium driven by playwright-core,
// and cleanup that always runs. Every process we start leads its own process
// group, so cleanup kills exactly the groups we created (the app's WebKit
// helpers included) and nothing else.
import { execFileSync, spawn } from 'node:child_process';
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

// A stray rejected promise must not end node before cleanup: the Xvfb and
// app we started would outlive the test.
process.on('unhandledRejection', async (err) => {
  log(`unhandled rejection: ${err?.stack ?? err}`);
  await cleanup();
  process.exit(1);
});

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

/**
 * Starts the Warren dev build on a private Xvfb with a fresh WARREN_HOME and
 * waits until its dev server listens. Returns what the tests need to reach it.
 * The first-run setup is marked done first (`warren settings set
 * ui.first_run_done true`), so its wizard does not cover the page; pass
 * firstRun: true to meet it. env adds variables to the app's environment.
 * home and display, from an earlier call, start it again on the same data
 * (after killing the first one); its log is appended to.
 */
export async function startWarren({ bin, outDir, assetDir = path.join(repoRoot, 'frontend', 'dist'), logName = 'app.log', firstRun = false, env = {}, home, display }) {
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run scripts/e2e.sh (or make e2e), which builds it`);
  if (!fs.existsSync(path.join(assetDir, 'index.html'))) throw new Error('frontend/dist is missing: run make frontend');
  // A restart passes the home (and display) of the Warren it replaces.
  const restart = Boolean(home);
  home ??= tempDir('warren-e2e-home-');
  // Warren keeps the workspace it makes outside its data directory, beside
  // it (warren.DefaultWorkspace): DIR-workspace; teams' folders go beside
  // that (DIR-workspace-teams).
  const workspace = `${home}-workspace`;
  if (!restart) {
    onCleanup(() => fs.rmSync(workspace, { recursive: true, force: true }));
    onCleanup(() => fs.rmSync(`${workspace}-teams`, { recursive: true, force: true }));
  }
  display ??= await startXvfb({ logDir: outDir });
  const port = await freePort();
  const addr = `127.0.0.1:${port}`;
  const appLog = path.join(outDir, logName);
  if (!restart) fs.rmSync(appLog, { force: true });
  if (!firstRun) {
    execFileSync(bin, ['settings', 'set', 'ui.first_run_done', 'true'], { env: { ...process.env, WARREN_HOME: home, DISPLAY: '' }, stdio: 'pipe' });
  }
  log(`starting ${path.relative(repoRoot, bin)} -devserver ${addr} (WARREN_HOME=${home}${firstRun ? ', first run' : ''})`);
  const app = startProcess('warren-dev', bin, ['-devserver', addr, '-assetdir', assetDir], {
    env: { ...env, DISPLAY: display, WARREN_HOME: home, GDK_BACKEND: 'x11', NO_AT_BRIDGE: '1', LANG: 'C.UTF-8', LANGUAGE: 'en' },
    logFile: appLog,
  });
  await waitForPort('127.0.0.1', port, { child: app, logFile: appLog });
  log(`dev server is listening on ${addr}`);
  return { home, workspace, display, addr, app, appLog };
}

/**
 * Opens the UI from the dev server in a new Chromium page and waits for the
 * Wails WebSocket bridge. pageErrors collects uncaught errors from our bundle.
 */
export async function openWarrenPage(browser, addr, { colorScheme = 'light', timeout = 20000 } = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    colorScheme,
    reducedMotion: 'reduce', // no half-finished transitions in screenshots
  });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  const pageErrors = [];
  page.on('pageerror', (err) => {
    // Wails v2.16.0's browser IPC script mounts its "disconnected" overlay
    // with a Svelte 3 call on a Svelte 5 build, which throws once on load
    // ("reading 'nodes'"). The bridge itself works; only that overlay is
    // missing. Errors from our own bundle still fail the test.
    if (/\/wails\/ipc\.js/.test(err.stack ?? '')) {
      log(`ignored known Wails dev-IPC error: ${err.message}`);
      return;
    }
    pageErrors.push(err.message);
    log(`page error: ${err.stack ?? err.message}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') log(`browser console error: ${msg.text()}`);
  });
  const res = await page.goto(`http://${addr}/`, { waitUntil: 'domcontentloaded' });
  if (res?.status() !== 200) throw new Error(`GET http://${addr}/ answered ${res?.status()}`);
  await page.waitForFunction(() => typeof window.go?.app?.App?.Tools === 'function');
  return { page, pageErrors };
}

// The screenshots in docs/screenshots are tracked, so a test run must not
// rewrite them: shots stay in E2E_OUT, and only E2E_DOCS=1 (make screenshot)
// copies the ones a test marks with suite.docShot into docs/screenshots.
const docsDir = path.join(repoRoot, 'docs', 'screenshots');
const updateDocs = process.env.E2E_DOCS === '1';

/**
 * A named sequence of steps: suite.page and suite.appLog are set by the test
 * so a failure can save a screenshot and print the app log's tail.
 */
export function suite(name, { outDir }) {
  const docShots = [];
  const s = {
    page: null,
    appLog: null,
    passed: 0,
    /**
     * Marks a screenshot already saved as file (in outDir) as evidence for
     * the docs: with E2E_DOCS=1 it is copied to docs/screenshots under the
     * same name, and only once the whole suite has passed.
     */
    docShot(file) {
      docShots.push(file);
      log(`screenshot: ${path.relative(repoRoot, file)}${updateDocs ? ' (for docs/screenshots)' : ''}`);
    },
    async step(title, fn) {
      const t = Date.now();
      await fn();
      s.passed++;
      log(`ok ${s.passed} - ${title} (${Date.now() - t} ms)`);
    },
    /** Runs main, logs PASS/FAIL, always cleans up, then exits the process. */
    async run(main) {
      let failed = false;
      const t = Date.now();
      try {
        await main();
        log(`PASS ${name}: ${s.passed} steps in ${((Date.now() - t) / 1000).toFixed(1)} s`);
        if (updateDocs) publishDocShots(docShots);
      } catch (err) {
        failed = true;
        log(`FAIL ${name} after ${s.passed} passing steps: ${err?.stack ?? err}`);
        if (s.page) {
          const shot = path.join(outDir, `failure-${name}.png`);
          await s.page.screenshot({ path: shot }).catch(() => {});
          log(`failure screenshot: ${path.relative(repoRoot, shot)}`);
        }
        if (s.appLog) log(`app log (${path.relative(repoRoot, s.appLog)}), last lines:\n${tail(s.appLog)}`);
      } finally {
        await cleanup();
      }
      process.exit(failed ? 1 : 0);
    },
  };
  return s;
}

/** Copies each file into docs/screenshots under its own name. */
function publishDocShots(files) {
  fs.mkdirSync(docsDir, { recursive: true });
  for (const file of files) {
    const doc = path.join(docsDir, path.basename(file));
    fs.copyFileSync(file, doc);
    log(`docs: ${path.relative(repoRoot, doc)}`);
  }
}

/**
 * Starts llmserve (the scripted OpenAI-compatible model) replaying cassette
 * in its own process group and resolves to the root URL it prints; clients
 * use URL + "/v1". Its log (cassette mismatches) goes to outDir.
 */
export async function startLlmserve({ bin, cassette, outDir, logName = 'llmserve.log' }) {
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run scripts/e2e.sh, which builds it`);
  const logFile = path.join(outDir, logName);
  const err = fs.openSync(logFile, 'w');
  const child = spawn(bin, ['-cassette', cassette, '-addr', '127.0.0.1:0'], { detached: true, stdio: ['ignore', 'pipe', err] });
  fs.closeSync(err);
  onCleanup(() => killGroup(child, 'llmserve'));
  let buf = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`llmserve printed no URL in 15 s (see ${logFile})`)), 15000);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /^(http:\/\/\S+)\n/m.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`llmserve exited with ${code} (see ${logFile})`));
    });
  });
  child.removeAllListeners('exit');
  log(`llmserve replays ${path.relative(repoRoot, cassette)} at ${url}`);
  return url;
}
