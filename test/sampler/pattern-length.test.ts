/**
 * A pattern says nothing of length (corpus: AWS's `pattern: ".*"` with `minLength: 20` on every
 * ARN): the pattern's own strings are short, so every draw failed the length and the suite sent
 * an invalid "valid request" (amazonaws.com/opensearch, `?arn=A`). The sampler must find a valid
 * value for every seed, whether the pattern or the length is the hard part. And a pattern whose
 * shortest match is longer than the sampler's own length cap (AWS ARNs of 50 to 80 characters,
 * with or without a loose maxLength: corpus amazonaws.com/resource-groups, medical-imaging) got
 * only words: the suite sent `/tags/pcwqqlem` as a valid request and the mock refused it. And a
 * pattern whose matches are shorter than the minimum, and that no word matches (`[0-9]+`, at
 * least 10): the match is lengthened by its own text (the pattern is not anchored).
 */
import { expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { draw } from 'dataapi/runtime/sampler';
import { clampRoom, minMatchLength } from '../../runtime/sampler/regex-length.ts';
import { normalise } from '../../generator/normalise/index.ts';

const schemas = {
  looseArn: { type: 'string', pattern: '.*', minLength: 20, maxLength: 2048 },
  anchoredLong: { type: 'string', pattern: '^[a-z0-9-]+$', minLength: 30 },
  shortPattern: { type: 'string', pattern: '^arn:[a-z]+$', maxLength: 12 },
  // A pattern of one repeated class whose matches are mostly short, and no word matches it
  // (corpus: amazonaws.com/omics, every store id): the suite's made-up id was refused.
  digitsId: { type: 'string', pattern: '[0-9]+', minLength: 10, maxLength: 36 },
  groupArn: {
    type: 'string',
    pattern:
      'arn:aws(-[a-z]+)*:resource-groups:[a-z]{2}(-[a-z]+)+-\\d{1}:[0-9]{12}:group/[a-zA-Z0-9_\\.-]{1,300}',
    minLength: 12,
    maxLength: 1600,
  },
  // Many patterned fields whose pattern alone keeps the length: a word in any one of them
  // (drawn for the length's sake) spoiled the whole object (corpus: medical-imaging's S3 URIs).
  uris: {
    type: 'object',
    required: ['a', 'b', 'c', 'd', 'e', 'f'],
    properties: Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [
        k,
        {
          type: 'string',
          pattern: 's3://[a-z0-9][\\.\\-a-z0-9]{1,61}[a-z0-9](/.*)?',
          minLength: 1,
          maxLength: 1024,
        },
      ]),
    ),
  },
  imagingArn: {
    type: 'string',
    pattern:
      'arn:aws((-us-gov)|(-iso)|(-iso-b)|(-cn))?:medical-imaging:[a-z0-9-]+:[0-9]{12}:datastore/[0-9a-z]{32}(/imageset/[0-9a-z]{32})?',
  },
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

it('measures the shortest match of a pattern', () => {
  expect(minMatchLength('^arn:[a-z]+$')).toBe(5);
  expect(minMatchLength('a{3,}(b|cd)?(?=x)\\d{2}[x-z]*')).toBe(5);
  expect(minMatchLength('(?:ab|c)+(?<n>e{2})\\1\\u0041\\b')).toBe(4);
  expect(minMatchLength('x{,2}')).toBe(5); // `{` not a quantifier: literal characters
  expect(minMatchLength(schemas.imagingArn.pattern)).toBe(81);
});

it('measures the room fast-check needs to build a pattern: optional parts and branches in', () => {
  expect(clampRoom('a(bcd)?(x|yz)*e{0,2}')).toBe(7);
  expect(clampRoom(schemas.imagingArn.pattern)).toBe(81 + 42 + 7);
});
