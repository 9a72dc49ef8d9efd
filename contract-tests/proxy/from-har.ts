/**
 * `dataapi contract --from-har FILE`: recorded exchanges judged by the same checks as the proxy's
 * live traffic, offline (nothing is sent), or re-sent with `replayTo` and their new answers
 * judged. A re-sent request gets the key from DATAAPI_APPKEY where the file has it redacted
 * (`***`); requests that write are re-sent only with allowWrites.
 */
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import { REDACTED, redactorFor } from 'dataapi/runtime/shared';
import { sentKeys } from './credentials.ts';
import { readHar } from './har.ts';
import { judgedExchange, judgeObserved } from './judge.ts';
import type { SeveritySettings } from 'dataapi/model';
import { BODY_CAP, type Observed } from './observed.ts';
import { routeOf } from './route.ts';
import { TrafficSession } from './session.ts';

export interface FromHarOptions {
  model: ServiceModel;
  file: string;
  replayTo?: string;
  allowWrites: boolean;
  appkey?: string;
  timeoutMs: number;
  reporters?: string[];
  reportDir: string;
  root: string;
  out: NodeJS.WritableStream;
  /** --severity: a check's or a warning code's severity (the same verdicts as a run's). */
  severity?: SeveritySettings;
  /** The description file, where the SARIF report locates its results. */
  descriptionFile?: string;
}

/** Exit code: 1 when an exchange failed a check, else 0. */
export async function judgeHar(o: FromHarOptions): Promise<number> {
  const all = await readHar(path.resolve(o.root, o.file));
  // A browser's HAR holds the page's scripts, styles and images too: only the origins with at
  // least one request the description documents are the service's.
  const isApi = (r: Observed) =>
    routeOf(o.model, r.method, new URL(r.pathAndQuery, 'http://x').pathname).kind === 'operation';
  const origins = new Set(all.filter(isApi).map((r) => r.origin));
  const recorded = all.filter((r) => origins.has(r.origin));
  const secrets = new Set(o.appkey ? [o.appkey] : []);
  const session = new TrafficSession({ model: o.model, out: o.out, secrets: () => [...secrets] });
  const redactor = () => redactorFor([...secrets]);
  const target = o.replayTo ?? [...new Set(recorded.map((r) => r.origin))].join(', ');
  o.out.write(
    `dataapi contract: ${recorded.length} recorded exchange(s) from ${o.file}, ${o.replayTo ? `re-sent to ${redactor().url(o.replayTo)}` : 'judged offline (nothing is sent)'}\n`,
  );
  if (recorded.length < all.length)
    o.out.write(
      `dataapi contract: ${all.length - recorded.length} exchange(s) with other origins (${[...new Set(all.filter((r) => !origins.has(r.origin)).map((r) => r.origin))].slice(0, 3).join(', ')}${new Set(all.map((r) => r.origin)).size - origins.size > 3 ? ', ...' : ''}) left out: none of their requests is the service's\n`,
    );
  let skipped = 0;
  for (const r of recorded) {
    // A browser's or another proxy's HAR holds keys in clear: none may reach the output.
    for (const k of sentKeys(o.model, r)) if (k.value !== REDACTED) secrets.add(k.value);
    let observed = r;
    if (o.replayTo) {
      if (!o.allowWrites && writes(o.model, r)) {
        skipped++;
        continue;
      }
      observed = await resend(r, o.replayTo, o.appkey, o.timeoutMs);
    }
    session.observe(
      observed,
      judgedExchange(judgeObserved(o.model, observed, redactor(), o.severity)),
    );
  }
  if (skipped > 0)
    o.out.write(
      `dataapi contract: ${skipped} recorded request(s) that write were not re-sent (--allow-writes)\n`,
    );
  const result = await session.report({
    ...(o.reporters ? { reporters: o.reporters } : {}),
    reportDir: path.resolve(o.root, o.reportDir),
    root: o.root,
    target: redactor().url(target),
    ...(o.descriptionFile !== undefined ? { descriptionFile: o.descriptionFile } : {}),
  });
  return result.summary.failed > 0 || result.errors.length > 0 ? 1 : 0;
}

/** An operation that writes, or a method that may write on a path no operation documents. */
function writes(model: ServiceModel, r: Observed): boolean {
  const route = routeOf(model, r.method, new URL(r.pathAndQuery, 'http://x').pathname);
  if (route.kind === 'operation') return route.op.writes;
  return !['GET', 'HEAD', 'OPTIONS'].includes(r.method.toUpperCase());
}

/** Headers fetch sets itself or refuses, left out of a re-sent request. */
const OWN = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'accept-encoding',
]);

async function resend(
  r: Observed,
  base: string,
  appkey: string | undefined,
  timeoutMs: number,
): Promise<Observed> {
  // The redacted key, put back: only where the file has `***` as a whole value.
  const fill = (v: string) => (appkey && v === REDACTED ? appkey : v);
  const url = new URL(`${base.replace(/\/+$/, '')}${r.pathAndQuery}`);
  for (const [k, v] of [...url.searchParams]) if (v === REDACTED) url.searchParams.set(k, fill(v));
  const headers = r.requestHeaders
    .filter(([k]) => !OWN.has(k.toLowerCase()))
    .map(([k, v]) => [k, fill(v)] as [string, string]);
  let body: Buffer | undefined = r.requestBody.length > 0 ? r.requestBody : undefined;
  if (
    body &&
    appkey &&
    /json/i.test(headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '')
  )
    body = Buffer.from(body.toString('utf8').split(`"${REDACTED}"`).join(JSON.stringify(appkey)));
  const started = performance.now();
  const out: Observed = {
    ...r,
    startedAt: new Date().toISOString(),
    origin: url.origin,
    status: undefined,
    responseHeaders: [],
    responseBody: Buffer.alloc(0),
    responseSize: 0,
  };
  delete out.error;
  try {
    const res = await fetch(url, {
      method: r.method,
      headers,
      ...(body ? { body: new Uint8Array(body) } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    out.status = res.status;
    out.statusText = res.statusText;
    // fetch has undone any Content-Encoding already.
    res.headers.forEach((v, k) => {
      if (k !== 'content-encoding') out.responseHeaders.push([k, v]);
    });
    out.responseBody = bytes.subarray(0, BODY_CAP);
    out.responseSize = bytes.length;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    out.error = e.cause?.code ? `${e.cause.code}: ${e.message}` : e.message;
  }
  out.durationMs = performance.now() - started;
  return out;
}
