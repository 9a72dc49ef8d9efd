/**
 * What the contract suite's vitest loads natively: the toolkit's own dist/ (plain JavaScript that
 * Vite would otherwise transform and each worker evaluate through vitest's module runner, because
 * the suite reaches it through a symbolic link, outside any node_modules/ path), and never the
 * suite's own generated files.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { suiteDeps } from '../../contract-tests/run-suite.ts';
import { ROOT } from './harness.ts';

const matches = (list: RegExp[] | undefined, file: string) =>
  (list ?? []).some((r) => r.test(file));

it("externalises the toolkit's dist/ and keeps the suite's files transformed", () => {
  const cache = path.join(ROOT, 'node_modules/.cache/dataapi/suite-x/generated');
  for (const generated of [path.join(ROOT, 'generated'), cache]) {
    const deps = suiteDeps(ROOT, generated);
    expect(matches(deps.external, path.join(ROOT, 'dist/contract-tests/index.js'))).toBe(true);
    expect(matches(deps.external, path.join(ROOT, 'dist/model/validate.js'))).toBe(true);
    const test = path.join(generated, 'contract-tests/getThing.test.ts');
    expect(matches(deps.external, test)).toBe(false);
    expect(matches(deps.external, path.join(ROOT, 'distant/x.js'))).toBe(false);
    if (generated === cache) expect(matches(deps.inline, test)).toBe(true);
  }
});
