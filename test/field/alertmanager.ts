/**
 * Prometheus Alertmanager 0.25.0 (Debian's prometheus-alertmanager, Go) for the field panel: the
 * installed binary started in a temporary folder with a minimal configuration, on a port of its
 * own choosing (--web.listen-address=127.0.0.1:0, the real port read from its log), clustering off.
 *
 * Its description is the one go-swagger embedded in the binary (restapi.SwaggerJSON, Swagger 2.0,
 * basePath /api/v2/, 9 operations): the server routes its own /swagger.json nowhere (the v2
 * handler is mounted at /api/v2/ and sees /api/v2/swagger.json), so it is read from the binary and
 * written to the temporary folder as description.json. The base URL has no path: the toolkit joins
 * the description's server path (/api/v2) to it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onCI } from '../serve/redis.ts';
import { waitFor, type FieldServer } from './server.ts';

/** ALERTMANAGER_PATH (even a wrong one: how a missing binary is simulated), else Debian's. */
export const ALERTMANAGER_BINARY =
  process.env.ALERTMANAGER_PATH ?? '/usr/bin/prometheus-alertmanager';

const MISSING = `${ALERTMANAGER_BINARY} is missing: install Debian's prometheus-alertmanager (.ci/run does)`;

/** The binary, or undefined (a skip) locally; throws under CI when it is missing. */
export function alertmanagerBinaryOrFail(): string | undefined {
  if (existsSync(ALERTMANAGER_BINARY)) return ALERTMANAGER_BINARY;
  if (onCI) throw new Error(`CI is set but ${MISSING}`);
  return undefined;
}

// go-swagger writes the spec into embedded_spec.go as indented JSON in a Go raw string; both
// copies (SwaggerJSON and FlatSwaggerJSON) start with this text.
const SPEC_START = Buffer.from('{\n  "consumes": [');
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch']);

/** The end (exclusive) of the JSON object or array that starts at `start`, or -1. */
function jsonEnd(data: Buffer, start: number, limit = 1_000_000): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < data.length && i < start + limit; i++) {
    const c = data[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * The description embedded in the binary: go-swagger's restapi.SwaggerJSON, the copy whose
 * shared responses are still `$ref`s (FlatSwaggerJSON, the other copy, has them inlined).
 * Throws, saying what it found, when the binary holds no such description.
 */
export async function extractAlertmanagerDescription(
  binary = ALERTMANAGER_BINARY,
): Promise<Record<string, unknown>> {
  const data = await readFile(binary);
  const candidates: Record<string, unknown>[] = [];
  for (let at = data.indexOf(SPEC_START); at >= 0; at = data.indexOf(SPEC_START, at + 1)) {
    const end = jsonEnd(data, at);
    if (end < 0) continue;
    try {
      candidates.push(
        JSON.parse(data.subarray(at, end).toString('utf8')) as Record<string, unknown>,
      );
    } catch {
      // Not JSON after all: the next occurrence.
    }
  }
  const spec = candidates.find((c) => JSON.stringify(c.paths ?? {}).includes('"#/responses/'));
  const fail = (why: string): never => {
    throw new Error(
      `could not extract the Swagger description embedded in ${binary} (go-swagger's restapi.SwaggerJSON): ${why}`,
    );
  };
  if (!spec)
    return fail(
      `${candidates.length} JSON object(s) starting with {"consumes": [...] found, none with #/responses/ references`,
    );
  if (spec.swagger !== '2.0') fail(`swagger is ${JSON.stringify(spec.swagger)}, not "2.0"`);
  if (spec.basePath !== '/api/v2/')
    fail(`basePath is ${JSON.stringify(spec.basePath)}, not "/api/v2/"`);
  const operations = Object.values(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    (item) => Object.keys(item).filter((m) => METHODS.has(m)),
  );
  if (operations.length !== 9) fail(`${operations.length} operations, not 9`);
  return spec;
}

const CONFIG = `route:
  receiver: 'null'
receivers:
  - name: 'null'
`;

const LISTENING = /msg="Listening on" address=127\.0\.0\.1:(\d+)/;

/** Starts the installed Alertmanager in a fresh temporary folder; close() stops it and removes it. */
export async function startAlertmanager(): Promise<FieldServer> {
  const binary = alertmanagerBinaryOrFail();
  if (!binary) throw new Error(MISSING);
  const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-field-alertmanager-'));
  const spec = path.join(dir, 'description.json');
  let log = '';
  let child: ReturnType<typeof spawn> | undefined;
  let exited: Promise<void> = Promise.resolve();

  const close = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // It exits gracefully in about 2 s; a process that hangs is killed after 30 s.
      const hard = setTimeout(() => child?.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(hard);
    }
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  };

  try {
    await writeFile(
      spec,
      `${JSON.stringify(await extractAlertmanagerDescription(binary), null, 2)}\n`,
    );
    await writeFile(path.join(dir, 'alertmanager.yml'), CONFIG);
    const proc = spawn(
      binary,
      [
        `--config.file=${path.join(dir, 'alertmanager.yml')}`,
        `--storage.path=${path.join(dir, 'data')}`,
        '--web.listen-address=127.0.0.1:0',
        // Empty: no HA gossip (no cluster port, no peers).
        '--cluster.listen-address=',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    exited = new Promise((resolve) => proc.on('close', () => resolve()));
    proc.on('error', (err) => (log += `\nspawn error: ${err.message}\n`));
    proc.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    const gone = () => proc.exitCode !== null || proc.signalCode !== null;

    await waitFor(
      async () => LISTENING.test(log) || gone(),
      'Alertmanager to log the port it listens on',
      30_000,
    );
    const port = LISTENING.exec(log)?.[1];
    if (!port) throw new Error('Alertmanager exited before it listened');
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => {
        if (gone()) return true;
        const res = await fetch(`${baseUrl}/-/ready`);
        await res.arrayBuffer();
        return res.ok;
      },
      `${baseUrl}/-/ready to answer 200`,
      30_000,
    );
    if (gone()) throw new Error('Alertmanager exited before it was ready');
    return { name: 'alertmanager', baseUrl, spec, close };
  } catch (err) {
    await close();
    throw new Error(
      `Alertmanager did not start: ${err instanceof Error ? err.message : String(err)}${log ? `\n--- its log:\n${log}` : ''}`,
      { cause: err },
    );
  }
}
