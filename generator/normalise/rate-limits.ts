/**
 * Rate limits (docs/service.md §7): the service default (`x-dataapi-rate-limit` at the root, else
 * 5 per second), each operation's own, and the windows a request counts against.
 */
import { isObject } from '../../model/object.ts';
import { WINDOW_MS, type RateLimit } from '../../model/types.ts';
import type { Problems } from './problems.ts';

/** The service default when the description declares none: 5 requests per second. */
export const DEFAULT_RATE_LIMIT: RateLimit = {
  limit: 5,
  per: 'second',
  windowMs: WINDOW_MS.second,
  source: 'default',
};

/** An `x-dataapi-rate-limit` value (`{ limit, per }`), or undefined (with a problem when malformed). */
export function readRateLimit(
  value: unknown,
  pointer: string,
  problems: Problems,
  source: RateLimit['source'],
): RateLimit | undefined {
  if (value === undefined) return undefined;
  const per = isObject(value) ? value['per'] : undefined;
  const limit = isObject(value) ? value['limit'] : undefined;
  if (
    !Number.isInteger(limit) ||
    (limit as number) < 1 ||
    (per !== 'second' && per !== 'minute' && per !== 'hour')
  ) {
    problems.add(
      'spec-extension',
      pointer,
      'must be { limit: <positive integer>, per: second | minute | hour }',
    );
    return undefined;
  }
  return { limit: limit as number, per, windowMs: WINDOW_MS[per], source };
}

/**
 * The windows a request counts against: the declared limit and, when that is over another window
 * than the service default (air quality: 100 per minute), the default as well, so both hold.
 */
export function rateWindows(declared: RateLimit, fallback: RateLimit): RateLimit[] {
  if (declared.source !== 'operation' || fallback.windowMs === declared.windowMs) return [declared];
  return [fallback, declared].sort((a, b) => a.windowMs - b.windowMs);
}
