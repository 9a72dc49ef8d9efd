/**
 * PowerDNS Authoritative 4.7.3 (Debian's pdns-server with pdns-backend-sqlite3, C++) for the
 * field panel: the installed pdns_server started in the foreground (no daemon, no guardian) in a
 * temporary folder, with a configuration and an empty sqlite database written here, DNS and the
 * web server (the HTTP API) on free ports of 127.0.0.1, and a constant API key.
 *
 * pdns cannot create its database itself ("SQLite database ... does not exist yet"), so the
 * Debian schema (/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql) is loaded with the
 * sqlite3 command (Debian's sqlite3). It cannot run without DNS either (an empty local-address
 * and local-port=0 are fatal), so each start takes a free UDP and TCP port for it.
 *
 * Its description is the one the server itself serves at /api/docs (with the key; JSON with
 * Accept: application/json, YAML with merge keys otherwise): Swagger 2.0, basePath /api/v1,
 * 36 operations, written to the temporary folder as description.json. The base URL has no path:
 * the toolkit joins the description's server path (/api/v1) to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onCI } from '../serve/redis.ts';
import { freePort, waitFor, type FieldServer } from './server.ts';

/** PDNS_SERVER_PATH (even a wrong one: how a missing binary is simulated), else Debian's. */
export const PDNS_BINARY = process.env.PDNS_SERVER_PATH ?? '/usr/sbin/pdns_server';
/** The gsqlite3 backend's schema, from Debian's pdns-backend-sqlite3 (as is the backend). */
export const PDNS_SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';
/** The API key the server is started with (X-API-Key); a run must never print it. */
export const PDNS_KEY = 'pdns-field-key-3f81c2a6';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

/** `name` on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

interface PdnsParts {
  binary: string;
  sqlite3: string;
}

/**
 * What the server needs (pdns_server, the sqlite backend's schema, the sqlite3 command), or
 * undefined (a skip) locally; throws under CI, naming the Debian packages that are missing.
 */
export function pdnsOrFail(): PdnsParts | undefined {
  const sqlite3 = onPath('sqlite3');
  const missing = [
    existsSync(PDNS_BINARY) ? undefined : `${PDNS_BINARY} (Debian's pdns-server)`,
    existsSync(PDNS_SCHEMA) ? undefined : `${PDNS_SCHEMA} (Debian's pdns-backend-sqlite3)`,
    sqlite3 ? undefined : "the sqlite3 command (Debian's sqlite3)",
  ].filter((m): m is string => m !== undefined);
  if (missing.length === 0) return { binary: PDNS_BINARY, sqlite3: sqlite3! };
  if (onCI)
    throw new Error(
      `CI is set but PowerDNS cannot be started: missing ${missing.join(', ')}; .ci/run installs them with apt-get`,
    );
  return undefined;
}

/** Runs `command` with `input` on its stdin; throws with its output when it fails. */
async function run(command: string, args: string[], input: string): Promise<void> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const done = new Promise<number | string>((resolve) => {
    child.on('error', (err) => resolve(err.message));
    child.on('close', (c, signal) => resolve(c ?? signal ?? -1));
  });
  // A command that dies early closes its stdin: its exit code says why, not the EPIPE.
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  const code = await done;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}): ${output}`);
}

/** Whether UDP `port` on 127.0.0.1 can be bound now. */
function udpFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

/** A port free for both TCP and UDP on 127.0.0.1 now (DNS listens on both). */
async function freeDnsPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (await udpFree(port)) return port;
  }
}

const config = (dir: string, dnsPort: number, webPort: number) => `# Written by test/field/pdns.ts
launch=gsqlite3
gsqlite3-database=${path.join(dir, 'pdns.sqlite3')}
gsqlite3-dnssec=yes
local-address=127.0.0.1
local-port=${dnsPort}
daemon=no
guardian=no
disable-syslog=yes
socket-dir=${dir}
security-poll-suffix=
webserver=yes
webserver-address=127.0.0.1
webserver-port=${webPort}
webserver-allow-from=127.0.0.1,::1
api=yes
api-key=${PDNS_KEY}
loglevel=4
`;

/** GET `url` with the key; the parsed JSON on a 200, else undefined. */
async function getJson(url: string, accept = 'application/json'): Promise<unknown> {
  const res = await fetch(url, {
    headers: { 'X-API-Key': PDNS_KEY, Accept: accept },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return res.status === 200 ? (JSON.parse(text) as unknown) : undefined;
}

/** The description the server serves, checked to be the one the audited list was made from. */
async function servedDescription(baseUrl: string): Promise<Record<string, unknown>> {
  const spec = (await getJson(`${baseUrl}/api/docs`)) as Record<string, unknown> | undefined;
  const fail = (why: string): never => {
    throw new Error(`GET ${baseUrl}/api/docs (Accept: application/json): ${why}`);
  };
  if (!spec || typeof spec !== 'object') return fail('no JSON description');
  if (spec.swagger !== '2.0') fail(`swagger is ${JSON.stringify(spec.swagger)}, not "2.0"`);
  if (spec.basePath !== '/api/v1')
    fail(`basePath is ${JSON.stringify(spec.basePath)}, not "/api/v1"`);
  const operations = Object.values(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    (item) => Object.keys(item).filter((m) => METHODS.has(m)),
  );
  if (operations.length !== 36) fail(`${operations.length} operations, not 36`);
  return spec;
}

/** One start on fresh ports; undefined when a port turned out to be taken (start again). */
async function startOnce(
  parts: PdnsParts,
  dir: string,
  log: { text: string },
): Promise<{ child: ChildProcess; exited: Promise<void>; baseUrl: string } | undefined> {
  const dnsPort = await freeDnsPort();
  let webPort = await freePort();
  while (webPort === dnsPort) webPort = await freePort();
  await writeFile(path.join(dir, 'pdns.conf'), config(dir, dnsPort, webPort));
  const from = log.text.length;
  const said = (pattern: RegExp) => pattern.test(log.text.slice(from));
  const child = spawn(parts.binary, [`--config-dir=${dir}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.on('error', (err) => (log.text += `\nspawn error: ${err.message}\n`));
  child.stdout?.on('data', (c: Buffer) => (log.text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log.text += c.toString()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };
  const baseUrl = `http://127.0.0.1:${webPort}`;
  // The web port taken by another process: pdns keeps running without its API, and only logs it.
  const webFailed = () => said(/Listening on HTTP socket failed/);
  await waitFor(async () => {
    if (gone() || webFailed()) return true;
    const server = (await getJson(`${baseUrl}/api/v1/servers/localhost`)) as
      { daemon_type?: string } | undefined;
    return server?.daemon_type === 'authoritative';
  }, `${baseUrl}/api/v1/servers/localhost to answer 200 with daemon_type authoritative`);
  if (gone() || webFailed()) {
    await stop();
    // The DNS port taken (fatal) or the web port taken: another start on other ports.
    if (said(/Address already in use/)) return undefined;
    throw new Error(
      `pdns_server exited (${child.exitCode ?? child.signalCode}) before it was ready`,
    );
  }
  // This server and no other on that port: its configuration names this folder.
  const settings = (await getJson(`${baseUrl}/api/v1/servers/localhost/config`)) as
    { name: string; value: string }[] | undefined;
  if (settings?.find((s) => s.name === 'socket-dir')?.value !== dir) {
    await stop();
    return undefined;
  }
  return { child, exited, baseUrl };
}

/** Starts the installed PowerDNS in a fresh temporary folder; close() stops it and removes it. */
export async function startPdns(): Promise<FieldServer> {
  const parts = pdnsOrFail();
  if (!parts)
    throw new Error(
      `PowerDNS cannot be started here: install Debian's pdns-server, pdns-backend-sqlite3 and sqlite3`,
    );
  const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-field-pdns-'));
  const log = { text: '' };
  let started: Awaited<ReturnType<typeof startOnce>>;
  // A process that outlives its test (a crashed worker) would keep its ports: killed on exit.
  const killOnExit = () => started?.child.kill('SIGKILL');

  const close = async () => {
    process.off('exit', killOnExit);
    const s = started;
    if (s && s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGTERM');
      // It dies by the signal within milliseconds; one that hangs is killed after 30 s.
      const hard = setTimeout(() => s.child.kill('SIGKILL'), 30_000);
      await s.exited;
      clearTimeout(hard);
    }
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  };

  try {
    await run(
      parts.sqlite3,
      ['-bail', path.join(dir, 'pdns.sqlite3')],
      readFileSync(PDNS_SCHEMA, 'utf8'),
    );
    for (let attempt = 1; !started; attempt++) {
      if (attempt > 5) throw new Error('no free ports after 5 starts');
      started = await startOnce(parts, dir, log);
    }
    process.on('exit', killOnExit);
    const spec = path.join(dir, 'description.json');
    await writeFile(spec, `${JSON.stringify(await servedDescription(started.baseUrl), null, 2)}\n`);
    return { name: 'pdns', baseUrl: started.baseUrl, spec, key: PDNS_KEY, close };
  } catch (err) {
    await close();
    throw new Error(
      `PowerDNS did not start: ${err instanceof Error ? err.message : String(err)}${log.text ? `\n--- its log:\n${log.text.slice(-4000)}` : ''}`,
      { cause: err },
    );
  }
}
