/**
 * Envelope spellings and the related operations (funds, async extraction, uploads), as
 * spec/openapi.yaml holds them: the facts of docs/service.md and the x-dataapi-* conventions
 * other code depends on. Reads only spec/.
 */
import { describe, expect, it } from 'vitest';
import {
  obj,
  list,
  deref,
  operations,
  op,
  bodySchema,
  okSchema,
  prop,
  FUND_PATHS,
} from './seed.ts';

describe('envelopes (docs/service.md §2)', () => {
  it('spelling per operation', () => {
    for (const o of operations) {
      const base = o.id.replace(/Demo$/, '');
      const envelope = o.op['x-dataapi-envelope'];
      if (base === 'getIpLocation' || base === 'getSslCertInfo') {
        expect(envelope, o.id).toBe('lowerCamel');
      } else if (base === 'compareExamQuestions') {
        expect(envelope, o.id).toBe('none');
      } else {
        expect(envelope, o.id).toBe('capitalised');
      }
    }
  });

  it('envelope schemas use the spelling they are declared with', () => {
    for (const o of operations) {
      const schema = okSchema(o.id);
      const envelope = o.op['x-dataapi-envelope'];
      if (envelope === 'capitalised') expect(schema.required, o.id).toEqual(['DataStatus', 'Data']);
      if (envelope === 'lowerCamel') {
        expect(schema.required, o.id).toEqual(['dataStatus', 'data']);
        expect(obj(schema.properties, 'p'), o.id).toHaveProperty('DataStatus');
      }
      if (envelope === 'none') expect(schema.required, o.id).toBeUndefined();
    }
  });

  it('the SSL status object adds status; the prediction status adds RequestId and NoDataReason', () => {
    const ssl = JSON.stringify(deref(prop(okSchema('getSslCertInfo'), 'dataStatus')));
    expect(ssl).toContain('LowerCamelDataStatus');
    expect(ssl).toContain('"status"');
    const admission = JSON.stringify(
      deref(obj(okSchema('predictAdmission').properties, 'p').DataStatus),
    );
    expect(admission).toContain('RequestId');
    expect(admission).toContain('NoDataReason');
  });
});

describe('related operations (docs/service.md §1, §8)', () => {
  it('the 12 fund paths are GET operations with nothing shown', () => {
    const funds = operations.filter((o) => o.path.startsWith('/fund/'));
    expect(funds.map((o) => o.path).sort()).toEqual([...FUND_PATHS].sort());
    for (const f of funds) {
      expect(f.method).toBe('get');
      expect(f.op.tags).toEqual(['Business, analysis']);
      expect(f.op['x-dataapi-preview']).toBe(false);
      expect(f.op['x-dataapi-business-codes']).toBe('base');
      expect(list(f.op['x-dataapi-not-shown'], f.id).length).toBeGreaterThan(0);
      expect(list(f.op['x-dataapi-assumed'], f.id).join(' ')).toContain('envelope');
    }
  });

  it('the asynchronous document-extraction pair is linked and marked assumed', () => {
    const submit = op('submitDocumentExtraction');
    const status = op('getDocumentExtractionTask');
    expect([submit.method, submit.path]).toEqual(['post', '/v1/document-extractions/async']);
    expect([status.method, status.path]).toEqual([
      'get',
      '/v1/document-extractions/tasks/{task_id}',
    ]);
    expect(submit.op['x-dataapi-async']).toEqual({ role: 'submit', partner: status.id });
    expect(status.op['x-dataapi-async']).toEqual({ role: 'status', partner: submit.id });
    expect(submit.op['x-dataapi-writes']).toBe(true);
    expect(op('uploadKnowledgeBaseDocuments').op['x-dataapi-writes']).toBe(true);
    for (const o of [submit, status]) {
      expect(list(o.op['x-dataapi-assumed'], o.id).join(' ')).toContain(o.path);
    }
  });

  it('extractFromHtml is open and not previewed', () => {
    const html = op('extractArticleFromHtml');
    expect(html.path).toBe('/ai/v1/articles/extractFromHtml');
    expect(html.op['x-dataapi-preview']).toBe(false);
    expect(bodySchema('extractArticleFromHtml', 'application/json').properties).toBeUndefined();
  });

  it('multipart bodies carry their file fields', () => {
    const upload = bodySchema('uploadKnowledgeBaseDocuments', 'multipart/form-data');
    expect(upload.required).toBeUndefined();
    expect(obj(prop(upload, 'files').items, 'items').contentMediaType).toBe(
      'application/octet-stream',
    );
    expect(prop(upload, 'replace_existing').enum).toEqual(['true', 'false']);
    const extraction = bodySchema('extractDocumentFields', 'multipart/form-data');
    expect(Object.keys(obj(extraction.properties, 'p'))).toEqual([
      'file',
      'text',
      'schema',
      'instruction',
      'ocrMode',
      'executionMode',
    ]);
  });
});
