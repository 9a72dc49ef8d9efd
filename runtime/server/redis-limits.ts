/**
 * Rate-limit counters in Redis, every window of a request in one round trip: one Lua script
 * (sent once per connection, then by its SHA: ioredis' defineCommand) increments each window's
 * counter, gives a new one its TTL and answers the counts and TTLs. It runs atomically, so two
 * instances sharing Redis count exactly. Windows go shortest first and the script stops at the
 * first one exceeded: a request refused by a short window is not counted against the longer
 * ones (as when each window was its own command).
 */

/**
 * An ioredis client (`new Redis(url)`, or a `Cluster`), typed by the one method the limiter
 * calls on it: so the runtime's declarations do not load ioredis' types into every program that
 * imports the server (docs/benchmarks.md, tsc over generated output).
 */
export interface RedisClient {
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
}

/** One window of a route, as the script needs it. */
export interface Window {
  limit: number;
  windowMs: number;
}

/** A window's count after this request, and how long until it ends. */
export interface Count {
  current: number;
  ttlMs: number;
}

/** The command's name on the client (defined once, shared by every route and service). */
const COMMAND = 'dataapiRateLimit';

// KEYS: one counter per window, shortest first; ARGV: each window's limit, then its length (ms).
// Replies current1, ttl1, current2, ttl2, ... up to the first window exceeded. A counter without
// a TTL (left by something else) gets one, instead of refusing its key forever.
const SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local current = redis.call('INCR', key)
  local ttl = window
  if current == 1 then
    redis.call('PEXPIRE', key, window)
  else
    ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, window)
      ttl = window
    end
  end
  out[#out + 1] = current
  out[#out + 1] = ttl
  if current > limit then break end
end
return out
`;

type Command = (numberOfKeys: number, ...args: string[]) => Promise<number[]>;

/** One route's counting: its counters' names in, one Count per window counted out. */
export type Counter = (keys: string[]) => Promise<Count[]>;

function toCounts(reply: number[]): Count[] {
  const counts: Count[] = [];
  for (let i = 0; i + 1 < reply.length; i += 2)
    counts.push({ current: Number(reply[i]), ttlMs: Number(reply[i + 1]) });
  return counts;
}

/**
 * `redisCounter(client)(windows)` is a route's Counter: it resolves with one Count per window
 * counted (all of them, or up to the first exceeded). On a Redis Cluster the counters of one
 * request live in different slots and one script cannot reach them all, so there it is one call
 * per window, in order (our key names carry no hash tag: they are part of deployments' dashboards).
 */
export function redisCounter(client: RedisClient): (windows: readonly Window[]) => Counter {
  const commands = client as unknown as Record<string, Command | undefined> & {
    isCluster?: boolean;
  };
  if (typeof commands[COMMAND] !== 'function') client.defineCommand(COMMAND, { lua: SCRIPT });
  // A route's ARGV never changes: written once, not on every request.
  const argvOf = (windows: readonly Window[]) =>
    windows.flatMap((w) => [String(w.limit), String(w.windowMs)]);
  const run = (keys: string[], argv: string[]) =>
    (commands[COMMAND] as Command)(keys.length, ...keys, ...argv);
  if (commands.isCluster !== true)
    return (windows) => {
      const argv = argvOf(windows);
      return async (keys) => toCounts(await run(keys, argv));
    };
  return (windows) => {
    const argvs = windows.map((w) => argvOf([w]));
    return async (keys) => {
      const counts: Count[] = [];
      for (let i = 0; i < keys.length; i++) {
        const [count] = toCounts(await run([keys[i]!], argvs[i]!));
        if (!count) break;
        counts.push(count);
        if (count.current > windows[i]!.limit) break;
      }
      return counts;
    };
  };
}
