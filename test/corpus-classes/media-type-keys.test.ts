/**
 * Response content keyed by something other than a media type. A media range (`image/*`, `*\/*`:
 * OpenAPI allows one) was sent as the Content-Type itself, which is no media type, and the suite
 * refused any real type in the range. A key that is prose (`{the MIME type of the attachment file
 * itself}`: corpus ODK Central) was sent as a Content-Type and demanded back. A range is now
 * answered with a type in it and judged as a range; prose is read as `*\/*` with a finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concreteMedia, isMediaKey, mediaMatches } from 'dataapi/model';
import { expectPassed, fixture, ownSuite, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('media-type-keys.yaml');
});
afterAll(() => served?.close());

describe('content keyed by a media range or by prose', () => {
  it('reads prose as any media type, with a finding naming the key', () => {
    const op = served.model.operations.find((o) => o.id === 'downloadAttachment')!;
    expect(op.success?.mediaType).toBe('*/*');
    expect(served.model.findings.map((f) => `${f.code} ${f.pointer}`)).toEqual([
      'media-type-invalid /paths/~1attachments~1{name}/get/responses/200/content/{the MIME type of the attachment file itself}',
    ]);
  });

  it('answers with a media type in the range, never the range', async () => {
    for (const [path, range] of [
      ['/attachments/abc', '*/*'],
      ['/logo', 'image/*'],
      ['/exports/latest', '*/*'],
    ] as const) {
      const res = await fetch(served.url + path);
      await res.arrayBuffer();
      const type = res.headers.get('content-type') ?? '';
      expect(res.status, path).toBe(200);
      expect(type, path).not.toContain('*');
      expect(mediaMatches(range, type), `${path}: ${type}`).toBe(true);
    }
  });

  it('matches a range as RFC 9110 does', () => {
    expect(mediaMatches('image/*', 'image/svg+xml; charset=utf-8')).toBe(true);
    expect(mediaMatches('image/*', 'text/plain')).toBe(false);
    expect(mediaMatches('application/*+json', 'application/problem+json')).toBe(true);
    expect(mediaMatches('application/json', 'application/json; charset=utf-8')).toBe(true);
    expect(concreteMedia('application/*+json')).toBe('application/example+json');
    expect(isMediaKey('{the MIME type of the attachment file itself}')).toBe(false);
    expect(isMediaKey('text/plain; charset=utf-8')).toBe(true);
  });

  it('passes the suite and its fuzz against its own mock, with the warning', async () => {
    const { run, tail } = await ownSuite(fixture('media-type-keys.yaml'), { fuzz: true });
    expectPassed(run, tail);
    const codes = new Set(run.result?.warnings?.map((w) => w.code));
    expect(codes, tail).toContain('media-type-invalid');
  }, 120_000);
});
