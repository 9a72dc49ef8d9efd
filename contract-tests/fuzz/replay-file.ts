/**
 * Replays of fuzzing's findings: the seed a run uses, one replay file per finding
 * (`<report-dir>/fuzz/<operation>-<kind>-<run>.json`, read by `dataapi contract --replay FILE`),
 * and the command lines that reproduce it, which reports print.
 */
import { randomInt } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toFileStem } from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import type { ContractRunResult } from '../results.ts';
import type { FuzzFinding } from './types.ts';

/** A seed for a run without --seed: printed, so the run can be repeated. */
export function chooseSeed(): number {
  return randomInt(1, 2 ** 31 - 1);
}

export interface ReplayFile {
  dataapiReplay: 1;
  /** The --spec of the run, as given. */
  spec?: string;
  target: { baseUrl: string; embeddedMock: boolean };
  /** The checks the request failed. */
  checks: { check: string; expected?: string; actual?: string }[];
  finding: FuzzFinding;
}

/** Shell word: quoted only when it needs to be. */
const word = (s: string) => (/^[\w./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export async function writeReplays(
  result: ContractRunResult,
  o: {
    dir: string;
    root: string;
    redactor: Redactor;
    spec?: string;
    baseUrl?: string;
    allowWrites: boolean;
  },
): Promise<void> {
  const files = new Map<string, ReplayFile & { name: string }>();
  for (const r of result.results) {
    const f = r.fuzz;
    if (!f || r.status !== 'failed') continue;
    const id = `${f.operation}-${f.kind}-${f.run}`;
    let file = files.get(id);
    if (!file) {
      file = {
        name: `${toFileStem(f.operation, 'operation')}-${f.kind}-${f.run}.json`,
        dataapiReplay: 1,
        ...(o.spec !== undefined ? { spec: o.spec } : {}),
        target: {
          baseUrl: o.redactor.url(result.target.baseUrl),
          embeddedMock: result.target.embeddedMock,
        },
        checks: [],
        finding: f,
      };
      files.set(id, file);
    }
    file.checks.push({
      check: r.check,
      ...(r.expected !== undefined ? { expected: r.expected } : {}),
      ...(r.actual !== undefined ? { actual: r.actual } : {}),
    });
    const rel = path.relative(o.root, path.join(o.dir, file.name)) || file.name;
    f.replay = {
      file: rel,
      command: `dataapi contract --replay ${word(rel)}`,
      seedCommand: [
        'dataapi contract',
        ...(o.spec !== undefined ? ['--spec', word(o.spec)] : []),
        ...(o.baseUrl !== undefined ? ['--base-url', word(o.redactor.url(o.baseUrl))] : []),
        ...(o.allowWrites ? ['--allow-writes'] : []),
        `--fuzz ${f.runs} --seed ${f.seed} --only ${word(f.operation)}`,
      ].join(' '),
    };
  }
  if (files.size === 0) return;
  await mkdir(o.dir, { recursive: true });
  for (const { name, ...file } of files.values()) {
    const { replay: _lines, ...finding } = file.finding;
    void _lines;
    await writeFile(path.join(o.dir, name), `${JSON.stringify({ ...file, finding }, null, 2)}\n`);
  }
}

/** A replay file, checked; a message saying what is wrong with it otherwise. */
export async function readReplayFile(file: string): Promise<ReplayFile | string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return `--replay ${file}: no such file`;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return `--replay ${file}: not JSON`;
  }
  const r = data as Partial<ReplayFile>;
  const f = r.finding as Partial<FuzzFinding> | undefined;
  if (
    typeof data !== 'object' ||
    data === null ||
    r.dataapiReplay !== 1 ||
    typeof f?.operation !== 'string' ||
    !['valid', 'invalid', 'link'].includes(String(f.kind)) ||
    typeof f.request !== 'object' ||
    f.request === null
  )
    return `--replay ${file}: not a replay file of dataapi contract --fuzz (reports/fuzz/*.json)`;
  return r as ReplayFile;
}
