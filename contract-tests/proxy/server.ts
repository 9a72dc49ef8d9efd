/**
 * The validation proxy: a reverse proxy (node:http, streaming both ways) in front of a deployment.
 * Requests and answers pass through byte for byte as they come (server-sent events included);
 * a copy of each body, up to BODY_CAP, is kept aside and, once the exchange is over, judged by
 * the pool's threads (judge-pool.ts), never on the path the bytes take. A finding never touches
 * the traffic. When the deployment does not answer, the client gets a 502
 * in the operation's envelope (the only answer the proxy writes itself).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { codeGroupOf, type ServiceModel } from 'dataapi/model';
import { buildEnvelope } from 'dataapi/runtime/shared';
import { sentKeys } from './credentials.ts';
import type { TrafficJudging } from '../results.ts';
import type { JudgedExchange } from './judge.ts';
import { Deadlines } from './deadlines.ts';
import { JudgePool } from './judge-pool.ts';
import type { SeveritySettings } from 'dataapi/model';
import { CappedBody, headerOf, isoTime, type Observed } from './observed.ts';
import { routeOf } from './route.ts';
import { tunnel } from './tunnel.ts';

const DEFAULT_TIMEOUT_MS = 30_000;
/** A body not kept yet (never written to: it has no bytes). */
const NO_BODY = Buffer.alloc(0);
const ACCEPT_BACKLOG = 4096;

export interface ProxyOptions {
  model: ServiceModel;
  /** The deployment: `https://staging.example.com` (a path prefix is kept). */
  upstream: string;
  host?: string;
  port?: number;
  /** Keys known beforehand (DATAAPI_APPKEY); every key a request carries is added. */
  secrets?: string[];
  /**
   * Called once per judged exchange, after it is over. The bodies it is given are empty unless
   * `keepBodies` (a HAR being recorded): otherwise their memory went to the judging thread.
   */
  onExchange(o: Observed, j: JudgedExchange): void;
  keepBodies?: boolean;
  /** How long the deployment may take to start answering, ms (then 504).   default: 30 s */
  timeoutMs?: number;
  /** PEM certificates the https deployment's certificate may chain to, besides the system's. */
  ca?: string | Buffer;
  /** Do not verify the https deployment's certificate (the command announces it loudly). */
  insecure?: boolean;
  /** Judging threads (default: the cores but one) and the bound of the judging queue. */
  judging?: { threads?: number; maxQueued?: number; maxQueuedBytes?: number };
  /** --severity: a check's or a warning code's severity (the same verdicts as a run's). */
  severity?: SeveritySettings;
}

export interface RunningProxy {
  url: string;
  /** Every key seen so far (and the given ones): what no output may contain. */
  secrets(): string[];
  /** How many exchanges were judged, and how many were not and why. */
  judging(): JudgingStats;
  /** Stops listening, lets the judges finish what they hold. */
  close(): Promise<void>;
}

export type JudgingStats = TrafficJudging;

export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(o.upstream);
  const origin = upstream.origin;
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const client = upstream.protocol === 'https:' ? https : http;
  const agent =
    upstream.protocol === 'https:'
      ? new https.Agent({
          keepAlive: true,
          ...(o.ca ? { ca: o.ca } : {}),
          ...(o.insecure ? { rejectUnauthorized: false } : {}),
        })
      : new http.Agent({ keepAlive: true });
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadlines = new Deadlines(timeoutMs);
  const secrets = new Set((o.secrets ?? []).filter(Boolean));
  const counts = { exchanges: 0, overSize: 0, incomplete: 0 };
  const keep = o.keepBodies === true;
  const pool = new JudgePool({
    model: o.model,
    ...(o.severity ? { severity: o.severity } : {}),
    ...o.judging,
    ...(o.keepBodies ? { keepBodies: true } : {}),
    onJudged: (observed, j) => o.onExchange(observed, j),
    onKeys: (keys) => learn(keys),
    // A judging bug must not take the proxy down: say so (no request text) and go on.
    onError: (message) =>
      process.stderr.write(`dataapi proxy: could not judge an exchange: ${message}\n`),
  });
  pool.setSecrets([...secrets]);
  // The judges read the keys each request carried (it costs the forwarding thread no time) and
  // tell them here; every judge is then sent the whole list with its next exchange.
  const learn = (keys: Iterable<string>) => {
    const known = secrets.size;
    for (const k of keys) secrets.add(k);
    if (secrets.size !== known) pool.setSecrets([...secrets]);
  };

  // Exchanges not over yet: stopping waits for their last event, so that none goes unjudged.
  let open = 0;
  const waiters: (() => void)[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    open++;
    const started = performance.now();
    const observed: Observed = {
      startedAt: isoTime(Date.now()),
      durationMs: 0,
      method: req.method ?? 'GET',
      origin,
      pathAndQuery: req.url ?? '/',
      requestHeaders: pairs(req.rawHeaders),
      requestBody: NO_BODY,
      requestSize: 0,
      responseHeaders: [],
      responseBody: NO_BODY,
      responseSize: 0,
    };
    const reqBody = new CappedBody();
    const resBody = new CappedBody();
    let done = false;
    let ended = false;
    const finish = () => {
      if (done) return;
      done = true;
      observed.durationMs = performance.now() - started;
      // Bodies crossing to a judge within milliseconds need no memory of their own (judge-wire.ts).
      observed.requestBody = reqBody.bytes(keep);
      observed.requestSize = reqBody.size;
      observed.responseBody = resBody.bytes(keep);
      observed.responseSize = resBody.size;
      if (observed.status !== undefined && !ended) observed.aborted = true;
      counts.exchanges++;
      if (observed.aborted) counts.incomplete++;
      else if (resBody.size > observed.responseBody.length) counts.overSize++;
      // Not judged (the judges are behind): its keys are read here, so that none goes unknown.
      if (!pool.submit(observed)) learn(sentKeys(o.model, observed).map((k) => k.value));
    };

    const headers = req.rawHeaders.slice();
    for (let i = 0; i < headers.length; i += 2)
      if (headers[i]!.toLowerCase() === 'host') headers[i + 1] = upstream.host;
    let up!: http.ClientRequest;
    let retried = false;
    const ask = () => {
      up = client.request({
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${prefix}${req.url ?? '/'}`,
        headers,
        agent,
      });
      up.on('response', answered);
      up.on('error', failed);
      return up;
    };
    // No answer in time: the client gets 504 and the deployment is told to stop.
    const timer = deadlines.add(() => {
      if (observed.status !== undefined) return;
      observed.error = `ETIMEDOUT: no answer within ${timeoutMs} ms`;
      if (!res.headersSent) failedGateway(o.model, observed, res, 504);
      up.destroy();
      finish();
    });
    const answered = (ur: IncomingMessage) => {
      Deadlines.clear(timer);
      observed.status = ur.statusCode;
      observed.statusText = ur.statusMessage ?? '';
      observed.responseHeaders = pairs(ur.rawHeaders);
      res.writeHead(ur.statusCode ?? 502, ur.statusMessage ?? '', ur.rawHeaders);
      // An event stream is read as it comes: its headers go out before its first event.
      // (Read from the raw pairs: `ur.headers` would build an object for every answer.)
      if (/text\/event-stream/i.test(headerOf(observed.responseHeaders, 'content-type') ?? ''))
        res.flushHeaders();
      ur.on('data', (c: Buffer) => resBody.push(c));
      ur.on('end', () => (ended = true));
      ur.on('error', () => res.destroy());
      ur.pipe(res);
    };
    const failed = (err: Error) => {
      if (observed.error !== undefined) return;
      // A kept-alive connection the deployment closed just as it was reused: asked again, once,
      // on a new one, when nothing of the request can have been lost (no body, all of it read).
      if (
        !retried &&
        up.reusedSocket &&
        observed.status === undefined &&
        req.complete &&
        reqBody.size === 0 &&
        !res.destroyed
      ) {
        retried = true;
        ask().end();
        return;
      }
      Deadlines.clear(timer);
      if (observed.status !== undefined) {
        // The answer broke off midway: the client sees it break off too.
        res.destroy();
        return;
      }
      observed.error = describe(err);
      if (!res.headersSent) failedGateway(o.model, observed, res, 502);
      finish();
    };
    req.on('data', (c: Buffer) => reqBody.push(c));
    // A client that hangs up mid-upload: the deployment is told by the request's end, never a crash.
    req.on('error', () => up.destroy());
    res.on('error', () => up.destroy());
    req.pipe(ask());
    res.on('close', () => {
      Deadlines.clear(timer);
      // The client hung up (or the answer is over): stop asking the deployment.
      if (!ended) up.destroy();
      // Hung up before any answer: there is nothing to judge.
      if (observed.status === undefined && observed.error === undefined) done = true;
      finish();
      if (--open === 0) for (const w of waiters.splice(0)) w();
    });
  };
  const tunnels = new Set<Duplex>();

  // Clients keep idle connections longer than node's 5 s default: closing them first makes a
  // client that reuses one meet a reset. Load balancers use a minute or more; so does the proxy.
  const server = http.createServer({ keepAliveTimeout: 65_000 }, handle);
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
    tunnel(req, socket, head, {
      upstream,
      prefix,
      tls: {
        ...(o.ca ? { ca: o.ca } : {}),
        ...(o.insecure ? { rejectUnauthorized: false } : {}),
      },
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue: a burst of new connections (a load test's start) waits in it instead
    // of overflowing node's default of 511 while the event loop is busy.
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', ACCEPT_BACKLOG, () => resolve());
  });
  const a = server.address() as AddressInfo;
  const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return {
    url: `http://${host}:${a.port}`,
    secrets: () => [...secrets],
    judging: () => ({
      ...counts,
      judged: pool.judged,
      overloaded: pool.overloaded,
      failed: pool.failed,
    }),
    close: async () => {
      // Stopping cuts what is still open (an endless event stream would keep it up for ever).
      server.closeAllConnections();
      for (const t of tunnels) t.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      while (open > 0) await new Promise<void>((r) => waiters.push(r));
      agent.destroy();
      await pool.close();
    },
  };
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function describe(err: Error & { code?: string }): string {
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

/**
 * The proxy's own answer when the deployment gives none: 502 (it could not be reached) or 504 (it
 * did not answer in time), in the operation's envelope.
 */
function failedGateway(
  model: ServiceModel,
  o: Observed,
  res: ServerResponse,
  status: 502 | 504,
): void {
  const route = routeOf(model, o.method, new URL(o.pathAndQuery, 'http://x').pathname);
  const description =
    status === 504
      ? 'the deployment behind the dataapi proxy did not answer in time'
      : 'the deployment behind the dataapi proxy did not answer';
  let body: unknown = { error: description };
  if (route.kind === 'operation' && route.op.envelope) {
    const group = codeGroupOf(model, route.op);
    const code =
      group?.byHttpStatus[String(status)] ??
      group?.byHttpStatus['502'] ??
      group?.codes.find((c) => c.outcome === 'service_error')?.code ??
      status;
    body = buildEnvelope(route.op, null, { code, description });
  }
  o.gatewayStatus = status;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-dataapi-proxy': status === 504 ? 'upstream-timeout' : 'upstream-unreachable',
  });
  res.end(JSON.stringify(body));
}
