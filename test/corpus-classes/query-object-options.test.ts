/**
 * A required query object in style form, exploded, whose properties are declared only in its
 * `oneOf` options (Intercom's `filter`: one of user_id, intercom_user_id, email). Its properties
 * travel as the query's own names (`?user_id=a`); the mock gathered only the object's own
 * `properties` back into it, found none, and refused every valid request ("must have required
 * property 'filter'"). The options' properties are gathered too; what fits no option is refused.
 * A free-form one (`type: object`: Rocket.Chat's `selector`) takes the names nothing else takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('query-object-options.yaml');
});
afterAll(() => served?.close());

describe('a query object whose properties are in its options', () => {
  it('is gathered from the query by any option', async () => {
    for (const q of ['user_id=ann1&type=user', 'email=ann@example&type=user&summary=true']) {
      const got = await send(`${served.url}/events?${q}`, 'GET');
      expect(got.status, `${q}: ${got.text}`).toBe(200);
    }
  });

  it('gathers a free-form object from the names no other parameter takes', async () => {
    const url = `${served.url}/users/autocomplete`;
    expect((await send(`${url}?term=user&status=offline&count=2`, 'GET')).status).toBe(200);
    expect((await send(`${url}?count=2`, 'GET')).status).toBe(400);
  });

  it('refuses what fits no option, or nothing', async () => {
    for (const q of ['type=user', 'user_id=ANN&type=user', 'user_id=a&email=a@b&type=user'])
      expect((await send(`${served.url}/events?${q}`, 'GET')).status, q).toBe(400);
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('query-object-options.yaml'), { fuzz: true });
    expectPassed(run, tail);
  }, 120_000);
});
