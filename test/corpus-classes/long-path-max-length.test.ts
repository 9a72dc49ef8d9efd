/**
 * A path value longer than the router takes that also breaks its parameter's maxLength (AWS
 * `resourceArn`, maxLength 1011; PayPal's payout id): the router finds no route, so validation
 * never sees it, and the answer was a 414 about the server's bound. The request was made too long
 * for the parameter: it is now refused as validation would refuse it, a 400 naming the parameter
 * and its maxLength, by the mock, the server stubs and the agreement reader alike. A value within
 * the parameter's maxLength but past the router's bound is still a 414 (long-path-param.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { MAX_PARAM_LENGTH } from 'dataapi/runtime/server';
import { requestReader } from '../../bench/corpus/agreement-read.ts';
import { send, serveBoth } from './helpers.ts';

const served = serveBoth('path-max-length.yaml');

const long = `/payouts/${'x'.repeat(MAX_PARAM_LENGTH + 1)}`;

describe('a path value past the router bound and its own maxLength', () => {
  it('is a 400 naming the parameter and its maxLength, from the mock and the server stubs', async () => {
    for (const url of [served.mock.url, served.server.url]) {
      const answer = await send(url + long, 'GET');
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).toContain('params/id must NOT have more than 1000 characters');
    }
    expect(
      (await send(`${served.mock.url}/payouts/${'x'.repeat(MAX_PARAM_LENGTH)}`, 'GET')).status,
    ).toBe(200);
  });

  it('is read by the agreement reader as the maxLength refusal of the parameter', async () => {
    const op = served.mock.model.operations[0]!;
    const outcome = await requestReader(
      served.mock.model,
      op,
    )({
      method: 'GET',
      pathAndQuery: long,
      headers: {},
    } as never);
    expect(outcome).toMatchObject({
      refused: { part: 'params', errors: [{ instancePath: '/id', keyword: 'maxLength' }] },
    });
  });
});
