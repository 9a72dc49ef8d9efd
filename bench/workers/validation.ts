/**
 * Validation throughput, run in a fresh process by bench/validation.ts: responses validated per
 * second by the contract runtime's validators (`validatorFor(model).compile(schema)` from
 * dataapi/runtime/shared, exactly as contract-tests/checks.ts calls it for every response: cache
 * lookup plus the compiled function) against Ajv used directly on the same schema and body (a
 * plain Ajv 2020 instance with formats and the model's schema root: the ceiling).
 * Prints one JSON line: { results: [{ operation, contender, perSecond: number[] }] }.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
// By path: bench/ is a package of its own (bench/package.json), so `dataapi/...` does not resolve
// here as a self-reference; this is the module `dataapi/runtime/shared` names in the sources.
import { validatorFor } from '../../runtime/shared/index.ts';
import type { JsonSchema } from 'dataapi/model';
import { model } from '../../generated/model.ts';

const OPERATIONS = ['getAirQuality', 'predictAdmission'];
const runs = Number(process.env.BENCH_RUNS ?? 5);
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
const sliceMs = Number(process.env.BENCH_SLICE_MS ?? 300);

type Check = () => boolean;

function direct(schema: JsonSchema, allErrors = false): Check {
  const ajv = new Ajv2020({ strict: false, allErrors });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  for (const name of ['int32', 'int64', 'float', 'double', 'binary', 'password'])
    ajv.addFormat(name, { validate: () => true });
  ajv.addSchema(model.schemaRoot as object);
  return ajv.compile(schema as object) as unknown as Check;
}

/**
 * Validations per second over one time slice (batches of 1,000 between clock reads), by the wall
 * clock and per CPU-second of this process (steadier when other processes share the cores).
 */
function rate(validate: (body: unknown) => boolean, body: unknown): [number, number] {
  let count = 0;
  let ok = true;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < sliceMs) {
    for (let i = 0; i < 1000; i++) ok = validate(body) && ok;
    count += 1000;
    now = performance.now();
  }
  if (!ok)
    throw new Error('the example body does not validate: the benchmark would be meaningless');
  const cpu = process.cpuUsage(cpu0);
  return [(count / (now - start)) * 1000, count / ((cpu.user + cpu.system) / 1e6)];
}

const results: {
  operation: string;
  contender: string;
  bytes: number;
  perSecond: number[];
  perCpuSecond: number[];
}[] = [];
for (const id of OPERATIONS) {
  const op = model.operations.find((o) => o.id === id);
  if (!op) throw new Error(`operation ${id} is not in the model`);
  const response = op.responses.find((r) => r.status === '200');
  const body = response?.examples[0]?.value;
  if (!response?.schema || body === undefined)
    throw new Error(`${id} has no 200 schema with an example`);
  const schema = response.schema;
  const runtime = validatorFor(model);
  const compiled = runtime.compile(schema);
  const contenders: [string, (b: unknown) => boolean][] = [
    ['Ajv directly', direct(schema) as unknown as (b: unknown) => boolean],
    ['contract runtime: compiled validator', (b) => compiled(b) as boolean],
    [
      'contract runtime: per response (cache lookup + validator)',
      (b) => runtime.compile(schema)(b) as boolean,
    ],
    [
      "Ajv directly with allErrors (the runtime's setting)",
      direct(schema, true) as unknown as (b: unknown) => boolean,
    ],
  ];
  const series = contenders.map(([name]) => ({
    operation: id,
    contender: name,
    bytes: JSON.stringify(body).length,
    perSecond: [] as number[],
    perCpuSecond: [] as number[],
  }));
  for (let w = 0; w < warmup; w++) for (const [, fn] of contenders) rate(fn, body);
  for (let r = 0; r < runs; r++)
    contenders.forEach(([, fn], i) => {
      const [wall, cpu] = rate(fn, body);
      series[i]!.perSecond.push(wall);
      series[i]!.perCpuSecond.push(cpu);
    });
  results.push(...series);
}
process.stdout.write(`${JSON.stringify({ results })}\n`);
