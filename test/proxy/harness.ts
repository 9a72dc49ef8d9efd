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

/** Calls the generated client through the proxy, keeping the bytes each answer had. */
export async function driveClient(proxyUrl: string) {
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
  const settle = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: Error) => e.name,
    );
  const outcomes = {
    airQuality: await settle(c.getAirQuality({ query: { location: '北京' } })),
    ip: await settle(c.getIpLocation({ query: { ip: '223.5.5.5' } })),
    ssl: await settle(c.getSslCertInfo({ query: { domain: 'https://www.example.com' } })),
    ranking: await settle(c.getGlobalUniversityRanking({ query: { name: '清华' } })),
    realtime: await settle(c.getFundOpenRealtime()),
    basicInfo: await settle(c.getFundBasicInfo()),
  };
  return { bodies, outcomes };
}
