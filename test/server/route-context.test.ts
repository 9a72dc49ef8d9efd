import { describe, expect, it, vi } from 'vitest';
import type { Operation } from 'dataapi/model';
import { routeContext } from '../../runtime/server/route-context.ts';
import { model } from '../../generated/model.ts';

describe('routeContext', () => {
  it('matches the Allow header of a route when a 405 first reads it, once, not at registration', () => {
    const op = model.operations.find((o) => o.id === 'getAirQuality') as Operation;
    const matcher = { match: vi.fn(() => ({ methods: ['GET', 'POST'], ops: [op] })) };
    const ctx = routeContext(op, false, matcher);
    expect(matcher.match).not.toHaveBeenCalled();
    expect(ctx.allow).toBe('GET, POST');
    expect(ctx.allow).toBe('GET, POST');
    expect(matcher.match).toHaveBeenCalledTimes(1);
    expect(matcher.match).toHaveBeenCalledWith(op.path);
  });
});
