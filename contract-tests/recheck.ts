/**
 * Zero false failures. Before a failure is reported on a request the suite built itself (a negative
 * case, a wrong method or content type, a generated valid or invalid request), that request is
 * checked once more against the description as it went on the wire: the method, path and query,
 * headers (with those fetch adds) and body bytes, through the mock's own request pipeline
 * (createMock, every handler replaced by one that only says "valid"). A request meant to be refused
 * that the description admits, or a generated valid one it refuses, is the toolkit's fault
 * (`toolkit-fault`), never the target's failure.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceModel } from 'dataapi/model';
import type { Handler } from 'dataapi/runtime/server';
import { FETCH_DEFAULTS } from './fetch-headers.ts';
import type { OutgoingRequest } from './http.ts';
import type { Probe } from './probe.ts';

/** What the description says of a request: admitted, refused (with why), or cannot tell. */
export type Verdict =
  /** `operation`: the operation whose route took it (another than meant: the URL was built wrong). */
  | { valid: true; operation?: string }
  | { valid: false; status: number; reason: string }
  | { valid: undefined; reason: string };

/** One violation put down to the toolkit: the request was not what the suite meant it to be. */
export interface ToolkitFault {
  code: 'toolkit-fault';
  operation: string;
  check: string;
  /** What the request was for (`negative: query q missing (required)`). */
  purpose: string;
  request: { method: string; url: string };
  /** What the check expected and what the target answered. */
  expected: string;
  actual: string;
  /** Why the recheck disagrees with the suite's intent. */
  message: string;
}

/**
 * The checks whose expectation rests on the request being valid or invalid; the others (schema,
 * 5xx, time, ...) hold for any request, so their failures stay the target's.
 */
const INTENT_CHECKS = new Set(['status', 'business-code', 'negative', 'method-path']);
/** Roles of the requests built to be refused. */
const MEANT_INVALID = new Set(['negative', 'wrong-method', 'wrong-content-type']);
const MARK = 'x-dataapi-recheck';
const MARK_OP = 'x-dataapi-recheck-operation';

const sent = new WeakMap<Probe, OutgoingRequest>();
const verdicts = new WeakMap<Probe, Verdict>();
const apps = new WeakMap<ServiceModel, Map<string, Promise<FastifyInstance>>>();

/** Keeps the request as serialised (in memory only: it carries the key). */
export function rememberSent(probe: Probe, req: OutgoingRequest): void {
  sent.set(probe, req);
}

/** The request as serialised for a probe (it carries the key: never to be printed). */
export function sentOf(probe: Probe): OutgoingRequest | undefined {
  return sent.get(probe);
}

/** Whether a failure of this probe is to be rechecked: one the suite built to be refused or generated. */
export function recheckable(probe: Probe): boolean {
  return MEANT_INVALID.has(probe.role) || (probe.role === 'valid' && probe.generated === true);
}

/**
 * The mock's request pipeline with handlers that only mark the request as valid. The mock (and
 * Fastify) are loaded on the first recheck: most runs have no failure to recheck, and every
 * worker of the suite would load them for nothing.
 */
function appFor(model: ServiceModel, appkey: string): Promise<FastifyInstance> {
  let byKey = apps.get(model);
  if (!byKey) apps.set(model, (byKey = new Map()));
  let app = byKey.get(appkey);
  if (!app) {
    const valid =
      (id: string): Handler =>
      async ({ reply }) => {
        void reply.code(204).header(MARK, 'valid').header(MARK_OP, id).send();
        return undefined;
      };
    const handlers = Object.fromEntries(model.operations.map((op) => [op.id, valid(op.id)]));
    app = import('dataapi/runtime/mock').then(({ createMock }) =>
      createMock(model, {
        // A key is not the description's to judge: any the request carries is taken.
        appkeys: [appkey || 'dataapi-recheck-no-key'],
        handlers,
        rateLimit: false,
        logger: false,
        invalidExamples: 'skip',
        check: 'first-use',
      }),
    );
    byKey.set(appkey, app);
  }
  return app;
}

/** Checks the probe's request against the description once (memoised); undefined when not kept. */
export async function recheck(
  model: ServiceModel,
  appkey: string,
  probe: Probe,
): Promise<Verdict | undefined> {
  const known = verdicts.get(probe);
  if (known) return known;
  const req = sent.get(probe);
  if (!req) return undefined;
  const verdict = await verdictOf(await appFor(model, appkey), req);
  verdicts.set(probe, verdict);
  return verdict;
}

async function verdictOf(app: FastifyInstance, req: OutgoingRequest): Promise<Verdict> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(FETCH_DEFAULTS)) headers[k] ??= v;
  const res = await app.inject({
    method: req.method.toUpperCase() as 'GET',
    url: req.pathAndQuery,
    headers,
    ...(req.body !== undefined
      ? { payload: typeof req.body === 'string' ? req.body : Buffer.from(req.body) }
      : {}),
  });
  if (res.headers[MARK] === 'valid') {
    const operation = res.headers[MARK_OP];
    return { valid: true, ...(typeof operation === 'string' ? { operation } : {}) };
  }
  // The mock's reason header first: the body may be the description's error example, or empty.
  const header = res.headers['x-dataapi-reason'];
  const reason =
    (typeof header === 'string' && header !== '' ? header : reasonOf(res.body)) ||
    'no reason given';
  // A key refused, a limit, a server fault: nothing said about the request's shape.
  if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 429)
    return { valid: undefined, reason: `HTTP ${res.statusCode}` };
  if (res.statusCode >= 400) return { valid: false, status: res.statusCode, reason };
  return { valid: undefined, reason: `HTTP ${res.statusCode}` };
}

/** The refusal's reason from the error body the mock writes (envelope, problem or plain). */
function reasonOf(body: string): string {
  try {
    const json = JSON.parse(body) as unknown;
    const texts: string[] = [];
    const walk = (v: unknown, depth: number) => {
      if (depth > 3 || texts.length > 0) return;
      if (typeof v === 'object' && v !== null)
        for (const [k, x] of Object.entries(v)) {
          if (typeof x === 'string' && /^(message|detail|description|error)$/i.test(k))
            texts.push(x);
          else walk(x, depth + 1);
        }
    };
    walk(json, 0);
    return texts[0] ?? body.slice(0, 200);
  } catch {
    return body.slice(0, 200);
  }
}

/**
 * Why a violation of this check on this probe is the toolkit's fault, once the probe was rechecked;
 * undefined when it stays the target's.
 */
export function faultOf(check: string, probe: Probe): string | undefined {
  const v = verdicts.get(probe);
  // A URL another path template takes (a negative `/media/1.5` is `/media/{id}.{extension}`):
  // whatever the answer, it was another operation's, so no check of this one can fail on it.
  if (v?.valid && v.operation !== undefined && v.operation !== probe.op.id)
    return `the request as sent is operation ${v.operation}'s (another path template takes its URL), not ${probe.op.id}'s: the suite built it wrong`;
  if (!INTENT_CHECKS.has(check)) return undefined;
  if (!v || v.valid === undefined) return undefined;
  if (MEANT_INVALID.has(probe.role) && v.valid)
    return 'the request meant to be refused is valid per the description as it was sent (after serialisation): the suite built it wrong, the target was right to take it';
  if (probe.role === 'valid' && probe.generated && !v.valid)
    return `the generated request meant to be valid is refused by the description as it was sent (HTTP ${v.status}: ${v.reason}): the suite built it wrong`;
  return undefined;
}
