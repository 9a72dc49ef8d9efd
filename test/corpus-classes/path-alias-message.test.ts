/**
 * Path parameters whose names are no route names (`{alert-email-group}`, `{member.id}`): the
 * router takes them under aliases (`p0`, `p1`: routes.ts toRoutePath), and the 400 of the server
 * and of the mock said `params/p0 must match pattern`. Users read these: the errors of a path
 * schema now name the parameter as the description does (validation.ts PATH_ALIASES).
 */
import { describe, expect, it } from 'vitest';
import { send, serveBoth } from './helpers.ts';

const served = serveBoth('path-alias-message.yaml');

describe("a path parameter's 400", () => {
  for (const [who, url] of [
    ['the mock', () => served.mock.url],
    ['the server', () => served.server.url],
  ] as const)
    it(`names the parameter, not its route alias (${who})`, async () => {
      const pattern = await send(`${url()}/groups/ABC/members/1`, 'GET');
      expect(pattern.status, pattern.text).toBe(400);
      expect(pattern.text).toContain('params/alert-email-group must match pattern');
      const type = await send(`${url()}/groups/abc/members/x`, 'GET');
      expect(type.status, type.text).toBe(400);
      expect(type.text).toContain('params/member.id must be integer');
      for (const text of [pattern.text, type.text]) expect(text).not.toMatch(/params\/p\d/);
      const ok = await send(`${url()}/groups/abc/members/1`, 'GET');
      expect(ok.status, ok.text).toBe(200);
    });
});
