/**
 * A pattern says nothing of length (corpus: AWS's `pattern: ".*"` with `minLength: 20` on every
 * ARN): the pattern's own strings are short, so every draw failed the length and the suite sent
 * an invalid "valid request" (amazonaws.com/opensearch, `?arn=A`). The sampler must find a valid
 * value for every seed, whether the pattern or the length is the hard part.
 */
import { expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { draw } from 'dataapi/runtime/sampler';
import { normalise } from '../../generator/normalise/index.ts';

const schemas = {
  looseArn: { type: 'string', pattern: '.*', minLength: 20, maxLength: 2048 },
  anchoredLong: { type: 'string', pattern: '^[a-z0-9-]+$', minLength: 30 },
  shortPattern: { type: 'string', pattern: '^arn:[a-z]+$', maxLength: 12 },
};

it('draws valid strings for a pattern with length bounds, for every seed', () => {
  const model: ServiceModel = normalise({
    file: 'inline.json',
    locate: () => undefined,
    document: {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
    },
  });
  for (const [name, schema] of Object.entries(schemas)) {
    const failed: number[] = [];
    for (let seed = 1; seed <= 60; seed++)
      if (!draw(model, schema, { seed, direction: 'request' }).valid) failed.push(seed);
    expect(failed, name).toEqual([]);
  }
});
