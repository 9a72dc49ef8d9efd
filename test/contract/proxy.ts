/**
 * A deliberately non-conforming deployment: a proxy in front of a conforming server that breaks
 * one thing per fault. A fault sees each request (and may rewrite it) and each answer (and may
 * rewrite it, hang, or answer itself); it applies only to requests for its operation's path.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Fault {
  /** Path prefix the fault applies to (an operation's path; its /demo variant included). */
  path: string;
  /** Called as soon as a request for the path arrives (before its body is read). */
  onArrival?(): void;
  /** Rewrite the request before it is forwarded. */
  request?(req: ProxyRequest): ProxyRequest;
  /** Answer this late (ms), for requests the predicate selects (all when absent). */
  delayMs?: number;
  delayIf?(req: ProxyRequest): boolean;
  /** Rewrite the answer, or 'hang' to never answer. */
  response?(res: ProxyResponse, req: ProxyRequest): ProxyResponse | 'hang';
}

/** JSON body helpers for faults. */
export function mapJson(res: ProxyResponse, f: (body: any) => unknown): ProxyResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    return res;
  }
  return { ...res, body: Buffer.from(JSON.stringify(f(parsed))) };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startProxy(
  upstream: string,
  faults: Fault[],
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (incoming, out) => {
    const url = new URL(incoming.url ?? '/', 'http://proxy');
    // The most specific fault wins: a /demo fault beside one for the operation's own path.
    const match = (p: string) =>
      [...faults]
        .sort((a, b) => b.path.length - a.path.length)
        .find((f) => p === f.path || p.startsWith(`${f.path}/`));
    match(url.pathname)?.onArrival?.();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(incoming.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    let req: ProxyRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      body: await readBody(incoming),
    };
    const fault = match(req.path);
    if (fault?.request) req = fault.request(req);
    const qs = req.query.toString();
    let res: ProxyResponse;
    try {
      const r = await fetch(`${upstream}${req.path}${qs ? `?${qs}` : ''}`, {
        method: req.method,
        headers: req.headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? null : new Uint8Array(req.body),
        redirect: 'manual',
      });
      const h: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') h[k] = v;
      });
      res = { status: r.status, headers: h, body: Buffer.from(await r.arrayBuffer()) };
    } catch (err) {
      out.writeHead(599).end(String(err));
      return;
    }
    const final = fault?.response ? fault.response(res, req) : res;
    if (final === 'hang') return; // never answer: the suite's timeout must fire
    if (fault?.delayMs && (fault.delayIf?.(req) ?? true))
      await new Promise((r) => setTimeout(r, fault.delayMs));
    out.writeHead(final.status, final.headers).end(final.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
