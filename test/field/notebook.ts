/**
 * The classic Jupyter Notebook server 6.4.12 (Debian's python3-notebook, Python on Tornado) for the
 * field panel: a different program from Jupyter Server (test/field/jupyter.ts), by the same
 * publisher, with its own handlers and its own copy of the REST description.
 * `/usr/bin/python3 -m notebook` (the python3 first on PATH may be another one, without the
 * module) is started in a temporary folder: its own notebook, runtime, config and data directories
 * and HOME, JUPYTER_NO_CONFIG=1 (no user or system configuration read), on a free port chosen here,
 * port_retries=0 (a taken port fails instead of moving to the next one; the start is then tried on
 * another port).
 *
 * Authentication is off (an empty token and password) and so is the XSRF check: the description
 * declares no security scheme, so a run sends no credential, and with a token every request would
 * get 403. Kernels start (Debian's python3-ipykernel, a dependency of python3-notebook): the run
 * creates one through POST /api/kernels.
 *
 * The notebook directory starts empty: the description gives no collection for
 * /api/contents/{path} (the root listing cannot be expressed, `path` is required), so the suite
 * names a file it made up (`veo`) either way; a file of that name placed there would be deleted by
 * the run's own DELETE /api/contents/veo, and when that happens relative to the operations that
 * read it is not fixed (the toolkit overlaps operations' requests). An empty root makes every run
 * alike.
 *
 * Its description is the one the server itself serves at GET /api/spec.yaml (byte-identical to
 * the packaged notebook/services/api/api.yaml: Swagger 2.0, basePath /, 29 operations, no
 * operationIds), written to the temporary folder as description.yaml.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { onCI } from '../serve/redis.ts';
import { freePort, waitFor, type FieldServer } from './server.ts';

/** NOTEBOOK_PYTHON (even a wrong one: how a missing server is simulated), else Debian's python3. */
export const NOTEBOOK_PYTHON = process.env.NOTEBOOK_PYTHON ?? '/usr/bin/python3';

/** The version the audited list of docs/field.md was made with. */
const VERSION = '6.4.12';

const MISSING = `${NOTEBOOK_PYTHON} -m notebook (with ipykernel) is unavailable: install Debian's python3-notebook (it brings python3-ipykernel; .ci/run does)`;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

/**
 * The python that runs notebook 6.4.12 with ipykernel importable, or undefined (a skip) locally;
 * throws under CI when there is none. Without ipykernel the server runs but no kernel starts, and
 * the run's answers differ from the audited list.
 */
export function notebookPythonOrFail(): string | undefined {
  const probe = spawnSync(
    NOTEBOOK_PYTHON,
    ['-c', 'import notebook, ipykernel; print(notebook.__version__)'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const version = probe.status === 0 ? probe.stdout.trim() : undefined;
  if (version === VERSION) return NOTEBOOK_PYTHON;
  const why = version
    ? `notebook is ${version}, not ${VERSION} (the audited list is for ${VERSION})`
    : `${(probe.error?.message ?? probe.stderr ?? '').trim().split('\n').pop() ?? ''}`;
  if (onCI) throw new Error(`CI is set but ${MISSING}: ${why}`);
  if (version) throw new Error(`${NOTEBOOK_PYTHON}: ${why}`);
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
async function servedDescription(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/spec.yaml`, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const fail = (why: string): never => {
    throw new Error(`GET ${baseUrl}/api/spec.yaml: ${why}`);
  };
  if (res.status !== 200) fail(`HTTP ${res.status}`);
  const spec = parse(text) as Record<string, unknown> | null;
  if (!spec || typeof spec !== 'object') return fail('no YAML description');
  if (spec.swagger !== '2.0') fail(`swagger is ${JSON.stringify(spec.swagger)}, not "2.0"`);
  const title = (spec.info as { title?: unknown } | undefined)?.title;
  if (title !== 'Jupyter Notebook API') fail(`its title is ${JSON.stringify(title)}`);
  const operations = Object.values(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    (item) => Object.keys(item).filter((m) => METHODS.has(m)),
  );
  if (operations.length !== 29) fail(`${operations.length} operations, not 29`);
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
      'notebook',
      '--NotebookApp.ip=127.0.0.1',
      `--NotebookApp.port=${port}`,
      '--NotebookApp.port_retries=0',
      '--NotebookApp.token=',
      '--NotebookApp.password=',
      '--NotebookApp.disable_check_xsrf=True',
      `--NotebookApp.notebook_dir=${path.join(dir, 'root')}`,
      '--NotebookApp.open_browser=False',
      '--no-browser',
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
  const runtime = path.join(dir, 'runtime', `nbserver-${child.pid}.json`);
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
      return res.status === 200 && body.version === VERSION;
    }, `${baseUrl}/api to answer 200 {"version": "${VERSION}"}`);
  } catch (err) {
    if (!gone()) child.kill('SIGKILL');
    await exited;
    throw err;
  }
  if (gone()) {
    await exited;
    if (/already in use|no available port/i.test(log.text.slice(from))) return undefined;
    throw new Error(`notebook exited (${child.exitCode ?? child.signalCode}) before it was ready`);
  }
  return { child, exited, baseUrl };
}

/** Starts the installed Notebook server in a fresh temporary folder; close() stops it and removes it. */
export async function startNotebook(): Promise<FieldServer> {
  const python = notebookPythonOrFail();
  if (!python) throw new Error(MISSING);
  const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-field-notebook-'));
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
      // it created) is shut down through the API first, as for Jupyter Server, whose shutdown
      // hangs with them left.
      await shutDownLeftovers(s.baseUrl);
      s.child.kill('SIGTERM');
      // It exits within a second or two; one that hangs is killed if it has not exited in 10 s.
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
    // An inherited JUPYTER_PORT_RETRIES or JUPYTER_PORT would not override the flags, but the
    // environment is kept free of them anyway.
    delete env.JUPYTER_PORT_RETRIES;
    delete env.JUPYTER_PORT;
    for (let attempt = 1; !started; attempt++) {
      if (attempt > 5) throw new Error('no free port after 5 starts');
      started = await startOnce(python, dir, env, log);
    }
    process.on('exit', killOnExit);
    const spec = path.join(dir, 'description.yaml');
    await writeFile(spec, await servedDescription(started.baseUrl));
    return { name: 'notebook', baseUrl: started.baseUrl, spec, close };
  } catch (err) {
    await close();
    throw new Error(
      `Jupyter Notebook did not start: ${err instanceof Error ? err.message : String(err)}${log.text ? `\n--- its log:\n${log.text.slice(-4000)}` : ''}`,
      { cause: err },
    );
  }
}
