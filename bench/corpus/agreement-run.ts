/**
 * `npm run corpus -- --agreement`: agreement by construction (agreement.ts) over every description
 * of a corpus, its disagreements grouped by class into docs/corpus.md (between
 * `<!-- agreement:NAME -->` markers). Run with the package's own sources
 * (`--conditions=dataapi-source`), so that model, runtime and contract tests are one copy.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { agreementOf, classOf, type Finding } from './agreement.ts';
import { unknownFindings } from './agreement-known.ts';
import { directorySource, secondSource, type CorpusSource } from './sources.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = path.join(ROOT, 'bench/.work/corpus');
const SEED = 48;

const flag = (f: string) =>
  process.argv.includes(f) ? process.argv[process.argv.indexOf(f) + 1] : undefined;
const name = flag('--corpus') ?? 'second';
const source: CorpusSource =
  name === 'directory' ? directorySource(ROOT, WORK) : await secondSource(ROOT, WORK);
// Some ids only (--ids): the docs section is kept. Findings go to --results as JSON lines.
const listed = flag('--ids')?.split(',');
const results = flag('--results');
const ids = listed ? source.ids.filter((id) => listed.includes(id)) : source.ids;
// Every id listed is the whole corpus: the docs section is written too.
const only = listed && ids.length < source.ids.length ? listed : undefined;
const limit = Number(process.env.AGREEMENT_LIMIT ?? ids.length);

const byClass = new Map<
  string,
  { count: number; ids: Set<string>; example: string; known: boolean }
>();
const totals = {
  descriptions: 0,
  unloadable: 0,
  operations: 0,
  parameters: 0,
  bodies: 0,
  invalid: 0,
};
for (const id of ids.slice(0, limit)) {
  const model = await loadSpec(source.specOf(id)).then(normalise, () => undefined);
  totals.descriptions++;
  if (!model) {
    totals.unloadable++;
    continue;
  }
  let findings: Finding[] = [];
  try {
    const a = await agreementOf(model, { seed: SEED, perOperation: 1 });
    findings = a.findings;
    totals.operations += a.counts.operations;
    totals.parameters += a.counts.parameters;
    totals.bodies += a.counts.bodies;
    totals.invalid += a.counts.invalid;
  } catch (err) {
    findings = [
      {
        operation: '*',
        location: 'body',
        name: '*',
        kind: 'threw',
        detail: (err as Error).message,
      },
    ];
  }
  const unknown = new Set(unknownFindings(id, findings));
  if (results)
    await appendFile(
      results,
      findings
        .map((f) => `${JSON.stringify({ id, class: classOf(f), known: !unknown.has(f), ...f })}\n`)
        .join(''),
    );
  for (const f of findings) {
    const key = classOf(f);
    const c = byClass.get(key) ?? { count: 0, ids: new Set(), example: '', known: true };
    c.count++;
    c.ids.add(id);
    c.example ||= `\`${id}\` ${f.operation} ${f.name}: ${f.detail}`
      .replace(/\|/g, '\\|')
      .replace(/\n/g, ' ')
      .slice(0, 240);
    if (unknown.has(f)) c.known = false;
    byClass.set(key, c);
  }
  process.stderr.write(
    `agreement ${source.name}: ${totals.descriptions}/${limit} ${id}: ${findings.length} findings\n`,
  );
}

const rows = [...byClass].sort((a, b) => b[1].count - a[1].count);
if (only) {
  for (const [k, c] of rows)
    process.stderr.write(`${c.count}\t${c.ids.size}\t${c.known ? 'known' : 'NEW'}\t${k}\n`);
  process.exit(rows.some(([, c]) => !c.known) ? 1 : 0);
}
const section = [
  `<!-- agreement:${source.name} -->`,
  '',
  `### Agreement by construction: ${source.title}`,
  '',
  `Written by \`npm run corpus -- --corpus ${source.name} --agreement\` (bench/corpus/agreement-run.ts, seeded with ${SEED}, one valid value per parameter and body): every parameter and request body of ${totals.descriptions - totals.unloadable} descriptions (${totals.unloadable} did not load: stage 1's finding), ${totals.operations} operations; ${totals.parameters} parameters and ${totals.bodies} bodies sent valid, serialised as the suite sends them and read back as the mock and the server stubs read them (no server, no HTTP); ${totals.invalid} invalid values sent, each to be refused for the reason it was made. Known classes are listed in bench/corpus/agreement-known.json with their reasons.`,
  '',
  ...(rows.length
    ? [
        '| class | findings | descriptions | known | example |',
        '| --- | ---: | ---: | --- | --- |',
        ...rows.map(
          ([k, c]) =>
            `| ${k} | ${c.count} | ${c.ids.size} | ${c.known ? 'yes' : '**no**'} | ${c.example} |`,
        ),
      ]
    : ['No disagreement.']),
  '',
  `<!-- /agreement:${source.name} -->`,
].join('\n');

const out = path.join(ROOT, 'docs/corpus.md');
let doc = await readFile(out, 'utf8');
const open = `<!-- agreement:${source.name} -->`;
const close = `<!-- /agreement:${source.name} -->`;
doc = doc.includes(open)
  ? doc.slice(0, doc.indexOf(open)) + section + doc.slice(doc.indexOf(close) + close.length)
  : `${doc.trimEnd()}\n\n${section}\n`;
const prettier = await import('prettier');
await writeFile(
  out,
  await prettier.format(doc, { ...((await prettier.resolveConfig(out)) ?? {}), filepath: out }),
);
process.stderr.write(`agreement ${source.name}: wrote docs/corpus.md\n`);
process.exitCode = rows.some(([, c]) => !c.known) ? 1 : 0;
