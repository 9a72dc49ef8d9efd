/**
 * Test data a QA engineer gives (`dataapi contract --test-data FILE`): per operation id, the
 * parameter values and the body its valid request sends instead of the description's examples or
 * schema samples. A deployment often refuses a sample for a rule only prose states (a zone name
 * "MUST have a trailing dot"), and then nothing behind the create is ever reached.
 *
 *   { "createZone": { "path": { "server_id": "localhost" }, "body": { "name": "probe.example." } } }
 *
 * Every value is checked against the description before anything is sent: data the description
 * refuses would make the suite blame the target for its own request.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { Obj, Operation, Parameter, ServiceModel } from 'dataapi/model';
import { describeErrors, validatorFor } from 'dataapi/runtime/shared';
import { didYouMean } from '../model/suggest.ts';
import { RunError } from './run-error.ts';

const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
type Location = (typeof LOCATIONS)[number];

/** One operation's given values: parameters by location, and the body. */
export type GivenRequest = Partial<Record<Location, Record<string, unknown>>> & { body?: unknown };

/** Per operation id. */
export type GivenData = Record<string, GivenRequest>;

/** Reads the file's text (JSON or YAML) into its shape; a message per problem, none when fine. */
export function parseGivenData(text: string): { data?: GivenData; problems: string[] } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    return { problems: [`not JSON or YAML: ${(err as Error).message.split('\n')[0]}`] };
  }
  if (!isObj(doc)) return { problems: ['the file must hold an object keyed by operation id'] };
  const problems: string[] = [];
  for (const [id, entry] of Object.entries(doc)) {
    if (!isObj(entry)) {
      problems.push(`${id}: must be an object (path, query, header, cookie, body)`);
      continue;
    }
    for (const [key, value] of Object.entries(entry)) {
      if (key === 'body') continue;
      if (!(LOCATIONS as readonly string[]).includes(key))
        problems.push(`${id}: unknown key "${key}" (path, query, header, cookie or body)`);
      else if (!isObj(value)) problems.push(`${id}.${key}: must be an object of values by name`);
    }
  }
  return problems.length ? { problems } : { data: doc as GivenData, problems };
}

/**
 * What the description refuses in the given data: an unknown operation or parameter, a value its
 * schema refuses. Checked once, before the run sends anything.
 */
export function checkGivenData(model: ServiceModel, data: GivenData): string[] {
  const problems: string[] = [];
  const ids = model.operations.map((o) => o.id);
  for (const [id, given] of Object.entries(data)) {
    const op = model.operations.find((o) => o.id === id);
    if (!op) {
      problems.push(`${id}: no such operation${didYouMean(id, ids)}`);
      continue;
    }
    problems.push(...checkParameters(model, op, given));
    if (given.body !== undefined) {
      if (!op.body) problems.push(`${id}.body: the operation takes no request body`);
      else {
        const check = validatorFor(model).compileFor(op.body.schema, 'request');
        if (!check(given.body))
          problems.push(
            `${id}.body: ${describeErrors(check.errors ?? [], given.body, 2).join('; ')}`,
          );
      }
    }
  }
  return problems;
}

function checkParameters(model: ServiceModel, op: Operation, given: GivenRequest): string[] {
  const problems: string[] = [];
  for (const loc of LOCATIONS) {
    const params: Parameter[] = op.parameters[loc];
    for (const [name, value] of Object.entries(given[loc] ?? {})) {
      const p = params.find((x) => x.name === name);
      const at = `${op.id}.${loc}.${name}`;
      if (!p) {
        const names = params.map((x) => x.name);
        problems.push(
          `${at}: the operation has no ${loc} parameter "${name}"${didYouMean(name, names)}`,
        );
        continue;
      }
      const check = validatorFor(model).compileFor(p.schema, 'request');
      if (!check(value))
        problems.push(`${at}: ${describeErrors(check.errors ?? [], value, 2).join('; ')}`);
    }
  }
  return problems;
}

const given = new WeakMap<ServiceModel, GivenData>();

/** The run's given data for this model (set once per worker, before any request is built). */
export function useGivenData(model: ServiceModel, data: GivenData | undefined): void {
  if (data) given.set(model, data);
}

export function givenFor(model: ServiceModel, op: Operation): GivenRequest | undefined {
  return given.get(model)?.[op.id];
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** --test-data FILE read and checked against the description: any problem refuses the run (exit 2). */
export async function readGivenData(file: string, model: ServiceModel): Promise<GivenData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new RunError(
      `--test-data ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      2,
    );
  }
  const { data, problems } = parseGivenData(text);
  const all = data ? checkGivenData(model, data) : problems;
  if (all.length > 0)
    throw new RunError(
      `--test-data ${file}: ${all.length === 1 ? '' : `${all.length} problems\n  `}${all.join('\n  ')}`,
      2,
    );
  return data!;
}
