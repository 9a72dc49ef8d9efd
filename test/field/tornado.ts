/**
 * The two Jupyter servers of the field panel, Jupyter Server (test/field/jupyter.ts) and the
 * classic Notebook server (test/field/notebook.ts): different programs of one publisher on
 * Tornado, started alike. `/usr/bin/python3 -m MODULE` (Debian ships no command for them, and the
 * python3 first on PATH may be another one) in a temporary folder: its own root, runtime, config
 * and data directories and HOME, JUPYTER_NO_CONFIG=1 (no user or system configuration read), on a
 * free port chosen here (with port 0 the server binds a port but reports 0), port_retries=0 (a
 * taken port fails instead of moving to the next one; the start is then tried on another port).
 * Ready once its runtime file names this process and port and GET /api answers its version.
 *
 * Authentication is off (an empty token and password) and so is the XSRF check: the descriptions
 * declare no security scheme, so a run sends no credential, and with a token every request would
 * get 403. Kernels start (Debian's python3-ipykernel): the runs create them through POST
 * /api/kernels. The root directory starts empty: the descriptions give no collection for
 * /api/contents/{path}, so the suite names a file it made up either way, and a file placed there
 * would be deleted by the run's own DELETE at a moment the toolkit's overlapping does not fix.
 *
 * The description is the one the server serves at GET /api/spec.yaml (Swagger 2.0, basePath /,
 * 29 operations, no operationIds), written to the temporary folder as description.yaml.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { onCI } from '../serve/redis.ts';
import { freePort, waitFor, type FieldServer } from './server.ts';

/** What tells the two servers apart. */
export interface Flavour {
  /** The field panel's name of the server (its list in docs/field.md). */
  name: string;
  /** As people call it: `Jupyter Server`. */
  label: string;
  /** The Python module run with -m, whose __version__ is checked. */
  module: string;
  /** Its configurable application class: --ServerApp.port=... */
  app: string;
  /** The flag (of `app`) that names the root directory. */
  rootFlag: string;
  extraArgs: readonly string[];
  /** The runtime file's prefix: jpserver-<pid>.json. */
  runtimePrefix: string;
  /** The version the audited list of docs/field.md was made with. */
  version: string;
  /** The description's info.title, where it tells the two apart. */
  title?: string;
  /** The python to use (even a wrong one: how a missing server is simulated). */
  python: string;
  /** The Debian packages that bring it. */
  packages: string;
  /** Its words for a port already taken. */
  inUse: RegExp;
}

const missing = (f: Flavour) =>
  `${f.python} -m ${f.module} (with ipykernel) is unavailable: install Debian's ${f.packages} (.ci/run does)`;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

/**
 * The python that runs the server's module at the audited version with ipykernel importable, or
 * undefined (a skip) locally; throws under CI when there is none. Without ipykernel the server
 * runs but no kernel starts, and the run's answers differ from the audited list.
 */
export function pythonOrFail(f: Flavour): string | undefined {
  const probe = spawnSync(
    f.python,
    ['-c', `import ${f.module}, ipykernel; print(${f.module}.__version__)`],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const version = probe.status === 0 ? probe.stdout.trim() : undefined;
  if (version === f.version) return f.python;
  const why = version
    ? `${f.module} is ${version}, not ${f.version} (the audited list is for ${f.version})`
    : `${(probe.error?.message ?? probe.stderr ?? '').trim().split('\n').pop() ?? ''}`;
  if (onCI) throw new Error(`CI is set but ${missing(f)}: ${why}`);
  if (version) throw new Error(`${f.python}: ${why}`);
  return undefined;
}

/** The processes whose command line names `needle` (the kernels of a runtime folder). */
async function processesNaming(needle: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(needle)) found.push(Number(entry));
  }
  return found;
}

/** The description the server serves, checked to be the one the audited list was made from. */
async function servedDescription(f: Flavour, baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/spec.yaml`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const fail = (why: string): never => {
    throw new Error(`GET ${baseUrl}/api/spec.yaml: ${why}`);
  };
  if (res.status !== 200) fail(`HTTP ${res.status}`);
  const spec = parse(text) as Record<string, unknown> | null;
  if (!spec || typeof spec !== 'object') return fail('no YAML description');
  if (spec.swagger !== '2.0') fail(`swagger is ${JSON.stringify(spec.swagger)}, not "2.0"`);
  const operations = Object.values(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    (item) => Object.keys(item).filter((m) => METHODS.has(m)),
  );
  if (operations.length !== 29) fail(`${operations.length} operations, not 29`);
  const title = (spec.info as { title?: unknown } | undefined)?.title;
  if (f.title !== undefined && title !== f.title) fail(`its title is ${JSON.stringify(title)}`);
  return text;
}

/** Best effort: DELETE every kernel and terminal the server lists (errors are ignored). */
async function shutDownLeftovers(baseUrl: string): Promise<void> {
  const call = async (method: string, url: string): Promise<unknown> => {
    const res = await fetch(url, { method, signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    return res.status === 200 ? (JSON.parse(text) as unknown) : undefined;
  };
  for (const [list, key] of [
    ['kernels', 'id'],
    ['terminals', 'name'],
  ] as const) {
    const items = await call('GET', `${baseUrl}/api/${list}`).catch(() => undefined);
    if (!Array.isArray(items)) continue;
    for (const item of items as Record<string, unknown>[]) {
      const id = item[key];
      if (typeof id !== 'string') continue;
      await call('DELETE', `${baseUrl}/api/${list}/${encodeURIComponent(id)}`).catch(
        () => undefined,
      );
    }
  }
}

interface Started {
  child: ChildProcess;
  exited: Promise<void>;
  baseUrl: string;
}

/** One start on a fresh port; undefined when the port turned out to be taken (start again). */
async function startOnce(
  f: Flavour,
  python: string,
  dir: string,
  env: NodeJS.ProcessEnv,
  log: { text: string },
): Promise<Started | undefined> {
  const port = await freePort();
  const from = log.text.length;
  const child = spawn(
    python,
    [
      '-m',
      f.module,
      `--${f.app}.ip=127.0.0.1`,
      `--${f.app}.port=${port}`,
      `--${f.app}.port_retries=0`,
      `--${f.app}.token=`,
      `--${f.app}.password=`,
      `--${f.app}.disable_check_xsrf=True`,
      `--${f.app}.${f.rootFlag}=${path.join(dir, 'root')}`,
      `--${f.app}.open_browser=False`,
      ...f.extraArgs,
      // Tests may run as root (CI containers); the server refuses root without it.
      '--allow-root',
    ],
    { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.on('error', (err) => (log.text += `\nspawn error: ${err.message}\n`));
  child.stdout?.on('data', (c: Buffer) => (log.text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log.text += c.toString()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const baseUrl = `http://127.0.0.1:${port}`;
  // This server and no other on that port: its runtime file names its pid and port.
  const runtime = path.join(dir, 'runtime', `${f.runtimePrefix}-${child.pid}.json`);
  const ours = async () => {
    const info = JSON.parse(await readFile(runtime, 'utf8')) as { pid?: number; port?: number };
    return info.pid === child.pid && info.port === port;
  };
  try {
    await waitFor(async () => {
      if (gone()) return true;
      if (!(await ours())) return false;
      const res = await fetch(`${baseUrl}/api`, { signal: AbortSignal.timeout(5_000) });
      const body = (await res.json()) as { version?: string };
      return res.status === 200 && body.version === f.version;
    }, `${baseUrl}/api to answer 200 {"version": "${f.version}"}`);
  } catch (err) {
    if (!gone()) child.kill('SIGKILL');
    await exited;
    throw err;
  }
  if (gone()) {
    await exited;
    if (f.inUse.test(log.text.slice(from))) return undefined;
    throw new Error(
      `${f.module} exited (${child.exitCode ?? child.signalCode}) before it was ready`,
    );
  }
  return { child, exited, baseUrl };
}

/** Starts the installed server in a fresh temporary folder; close() stops it and removes it. */
export async function startTornado(f: Flavour): Promise<FieldServer> {
  const python = pythonOrFail(f);
  if (!python) throw new Error(missing(f));
  const dir = await mkdtemp(path.join(tmpdir(), `dataapi-field-${f.name}-`));
  const runtimeDir = path.join(dir, 'runtime');
  const log = { text: '' };
  let started: Started | undefined;
  // A server that outlives its test (a crashed worker) would keep its port: killed on exit.
  const killOnExit = () => started?.child.kill('SIGKILL');

  const close = async () => {
    process.off('exit', killOnExit);
    const s = started;
    if (s && s.child.exitCode === null && s.child.signalCode === null) {
      // What the run left running (the kernel its "name missing" probe started, the terminals
      // it created) is shut down through the API first: with them left, the server's own
      // shutdown was seen to hang every time, until the SIGKILL below.
      await shutDownLeftovers(s.baseUrl);
      s.child.kill('SIGTERM');
      // It exits within a second; one that hangs is killed if it has not exited in 10 s.
      const hard = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
      await s.exited;
      clearTimeout(hard);
    }
    // Kernels run in sessions of their own and leave only when their parent is pid 1: any
    // still running (their command line names this runtime folder) are killed.
    for (const pid of await processesNaming(`${runtimeDir}/kernel-`)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  };

  try {
    for (const sub of ['root', 'runtime', 'config', 'data']) await mkdir(path.join(dir, sub));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: dir,
      JUPYTER_RUNTIME_DIR: runtimeDir,
      JUPYTER_CONFIG_DIR: path.join(dir, 'config'),
      JUPYTER_DATA_DIR: path.join(dir, 'data'),
      JUPYTER_NO_CONFIG: '1',
      JUPYTER_PLATFORM_DIRS: '0',
      IPYTHONDIR: path.join(dir, 'ipython'),
      PYTHONDONTWRITEBYTECODE: '1',
    };
    for (let attempt = 1; !started; attempt++) {
      if (attempt > 5) throw new Error('no free port after 5 starts');
      started = await startOnce(f, python, dir, env, log);
    }
    process.on('exit', killOnExit);
    const spec = path.join(dir, 'description.yaml');
    await writeFile(spec, await servedDescription(f, started.baseUrl));
    return { name: f.name, baseUrl: started.baseUrl, spec, close };
  } catch (err) {
    await close();
    throw new Error(
      `${f.label} did not start: ${err instanceof Error ? err.message : String(err)}${log.text ? `\n--- its log:\n${log.text.slice(-4000)}` : ''}`,
      { cause: err },
    );
  }
}
