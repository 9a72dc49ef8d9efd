/** Runs the validation proxy in-process for a test: its output, a stop, its exit code. */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { model } from '../../generated/model.ts';
import { runProxy, type ProxyRunOptions } from '../../contract-tests/proxy/run.ts';
import { createClient } from '../../generated/client/index.ts';

export const KEY = 'proxy-secret-key-7f3a9c41';

export interface ProxyHandle {
  url: string;
  dir: string;
  /** Everything the proxy printed so far. */
  output(): string;
  /** Finding lines printed so far. */
  findings(): string[];
  /** Stops the proxy (writes reports, and the HAR with record); its exit code. */
  stop(): Promise<number>;
}

export async function runTestProxy(
  upstream: string,
  o: {
    record?: boolean;
    reporters?: string[];
    reportEverySeconds?: number;
    /** Passed to runProxy as they are (judging, timeoutMs, ca, insecure). */
    extra?: Pick<ProxyRunOptions, 'judging' | 'timeoutMs' | 'ca' | 'insecure'>;
  } = {},
): Promise<ProxyHandle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-proxy-'));
  let text = '';
  const out = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let listening!: (url: string) => void;
  const url = new Promise<string>((r) => (listening = r));
  const done = runProxy({
    model,
    upstream,
    port: 0,
    reportDir: path.join(dir, 'reports'),
    root: dir,
    reporters: o.reporters ?? ['junit', 'json', 'html'],
    ...(o.record ? { record: path.join(dir, 'traffic.har') } : {}),
    ...(o.reportEverySeconds ? { reportEverySeconds: o.reportEverySeconds } : {}),
    version: '0.0.0-test',
    out,
    stop: stopped,
    onListening: listening,
    ...o.extra,
  });
  done.catch(() => undefined);
  return {
    url: await Promise.race([url, done.then(() => Promise.reject(new Error('proxy ended')))]),
    dir,
    output: () => text,
    findings: () => text.split('\n').filter((l) => /^[✗!] /.test(l)),
    stop: async () => {
      stop();
      return done;
    },
  };
}

type Client = ReturnType<typeof createClient>;

/** The calls the proxy tests make, by name: each an operation the planted upstream answers. */
export const CALLS = {
  airQuality: (c: Client) => c.getAirQuality({ query: { location: '北京' } }),
  ip: (c: Client) => c.getIpLocation({ query: { ip: '223.5.5.5' } }),
  ssl: (c: Client) => c.getSslCertInfo({ query: { domain: 'https://www.example.com' } }),
  ranking: (c: Client) => c.getGlobalUniversityRanking({ query: { name: '清华' } }),
  realtime: (c: Client) => c.getFundOpenRealtime(),
  basicInfo: (c: Client) => c.getFundBasicInfo(),
} satisfies Record<string, (c: Client) => Promise<unknown>>;
export type CallName = keyof typeof CALLS;

/**
 * Makes the named calls through the proxy, one after another (the generated client, the test
 * key); each call's outcome (`ok` or the client error's name) and the bytes each answer had.
 */
export async function driveCalls(proxyUrl: string, names: CallName[]) {
  const bodies = new Map<string, Buffer>();
  const c = createClient({
    baseUrl: proxyUrl,
    appkey: KEY,
    retry: false,
    fetch: async (request: Request) => {
      const res = await fetch(request);
      bodies.set(new URL(request.url).pathname, Buffer.from(await res.clone().arrayBuffer()));
      return res;
    },
  });
  const outcomes: Partial<Record<CallName, string>> = {};
  for (const name of names)
    outcomes[name] = await CALLS[name](c).then(
      () => 'ok',
      (e: Error) => e.name,
    );
  return { bodies, outcomes };
}

/** Calls the generated client through the proxy, keeping the bytes each answer had. */
export async function driveClient(proxyUrl: string) {
  return driveCalls(proxyUrl, Object.keys(CALLS) as CallName[]);
}
