/**
 * The mock of third-party descriptions (no envelope, no business codes, odd shapes): every
 * operation answers a request built from the description without a 5xx (one that declares no 2xx
 * answers the status it declares), and success bodies validate against their schemas.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { basicHeader, describeErrors, validatorFor } from 'dataapi/runtime/shared';
import { createMock } from 'dataapi/runtime/mock';
import { declaredResponse } from 'dataapi/model';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { call, KEY, validRequest } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const specs = ['3.0/json/petstore.json', '3.1/json/petstore.json', '3.0/json/uspto.json'];

describe.each(specs)('%s', (file) => {
  it('every operation answers a valid request with 2xx and a body of its schema', async () => {
    const model = normalise(
      await loadSpec(path.join(root, 'node_modules/@readme/oas-examples', file)),
    );
    const app = await createMock(model, { rateLimit: false, appkeys: [KEY] });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      for (const op of model.operations) {
        const res = await call(url, validRequest(model, op));
        // Without a 2xx (petstore's updatePet declares 400, 404, 405), a declared status.
        if (op.success) expect(res.status, `${op.id}: ${res.text}`).toBeLessThan(300);
        else expect(declaredResponse(op, res.status), `${op.id}: ${res.status}`).toBeDefined();
        if (res.status < 300 && op.success?.schema !== undefined && op.success.kind === 'json') {
          const check = validatorFor(model).compile(op.success.schema);
          expect(
            check(res.body),
            `${op.id}: ${describeErrors(check.errors, res.body).join('; ')}`,
          ).toBe(true);
        }
        const dynamic = await call(url, validRequest(model, op), { prefer: 'dynamic=true' });
        expect(dynamic.status, op.id).toBeLessThan(500);
      }
    } finally {
      await app.close();
    }
  });
});

describe('paging of a list wrapped in an object (Twilio Verify)', () => {
  it('trims the one array of the answer to the page size the request asks for', async () => {
    const model = normalise(
      await loadSpec(path.join(root, 'test/fixtures/third-party/twilio-verify-v2.json')),
    );
    const op = model.operations.find((o) => o.operationId === 'ListVerificationTemplate');
    expect(op?.paging?.name).toBe('PageSize');
    const app = await createMock(model, { rateLimit: false, appkeys: [KEY] });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const req = validRequest(model, op!);
      req.init.headers.authorization = basicHeader(`${KEY}:secret`); // Twilio: HTTP Basic
      const sep = req.path.includes('?') ? '&' : '?';
      const whole = await call(url, req);
      const paged = await call(url, { ...req, path: `${req.path}${sep}PageSize=1` });
      const list = (body: unknown) => (body as { templates: unknown[] }).templates;
      expect(whole.status, whole.text).toBe(200);
      expect(list(whole.body).length).toBeGreaterThan(1); // the example holds several
      expect(paged.status).toBe(200);
      expect(list(paged.body)).toEqual(list(whole.body).slice(0, 1));
    } finally {
      await app.close();
    }
  });
});
