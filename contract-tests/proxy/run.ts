/**
 * `dataapi proxy`: the validation proxy as a long-running command. Live findings print as they
 * come; every `reportEvery` seconds and when stopped (SIGINT/SIGTERM, or `stop` in tests) the
 * reports are written (and the HAR file, with --record).
 */
import path from 'node:path';
import type { ServiceModel, SeveritySettings } from 'dataapi/model';
import { redactorFor } from 'dataapi/runtime/shared';
import { startProxy, type ProxyOptions, type RunningProxy } from './server.ts';
import { TrafficSession } from './session.ts';

export interface ProxyRunOptions {
  model: ServiceModel;
  upstream: string;
  host?: string;
  port?: number;
  reporters?: string[];
  reportDir: string;
  root: string;
  record?: string;
  reportEverySeconds?: number;
  appkey?: string;
  /** The package version HAR files name as their creator. */
  version: string;
  out: NodeJS.WritableStream;
  /** Resolves when the proxy is to stop (the command: on SIGINT/SIGTERM). */
  stop: Promise<unknown>;
  /** Told the proxy's URL once it listens. */
  onListening?(url: string): void;
  /** --severity: a check's or a warning code's severity (the same verdicts as a run's). */
  severity?: SeveritySettings;
  /** Judging threads and the bound of their queue (defaults: judge-pool.ts). */
  judging?: ProxyOptions['judging'];
  /** Upstream timeout, ms; trust for an https upstream. */
  timeoutMs?: number;
  ca?: string | Buffer;
  insecure?: boolean;
}

/** Exit code: 1 when the traffic gave a failure, else 0. */
export async function runProxy(o: ProxyRunOptions): Promise<number> {
  const given = o.appkey ? [o.appkey] : [];
  let secrets = (): string[] => given;
  let judging: RunningProxy['judging'] | undefined;
  const session = new TrafficSession({
    model: o.model,
    out: o.out,
    secrets: () => secrets(),
    ...(o.record ? { record: true } : {}),
    judging: () => judging!(),
  });
  const proxy = await startProxy({
    model: o.model,
    upstream: o.upstream,
    ...(o.host !== undefined ? { host: o.host } : {}),
    ...(o.port !== undefined ? { port: o.port } : {}),
    secrets: given,
    onExchange: (observed, j) => session.observe(observed, j),
    // The HAR holds the bodies: they stay on this thread too.
    ...(o.record ? { keepBodies: true } : {}),
    ...(o.severity ? { severity: o.severity } : {}),
    ...(o.judging ? { judging: o.judging } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.ca ? { ca: o.ca } : {}),
    ...(o.insecure ? { insecure: true } : {}),
  });
  secrets = proxy.secrets;
  judging = proxy.judging;
  const target = redactorFor(given).url(o.upstream);
  const reportDir = path.resolve(o.root, o.reportDir);
  o.out.write(
    `dataapi proxy: ${proxy.url} -> ${target}; findings print below, reports go to ${path.relative(o.root, reportDir) || '.'} when stopped (Ctrl-C)\n`,
  );
  if (o.insecure)
    o.out.write(
      `dataapi proxy: WARNING --insecure: the certificate of ${target} is NOT verified; anyone on the path can read and change the traffic\n`,
    );
  o.onListening?.(proxy.url);
  // The HAR first: whoever sees reports that count an exchange finds it in the HAR too.
  const write = async (quiet: boolean) => {
    if (o.record) await session.recordTo(path.resolve(o.root, o.record), o.version);
    await session.report({
      ...(o.reporters ? { reporters: o.reporters } : {}),
      reportDir,
      root: o.root,
      target,
      quiet,
    });
  };
  // Periodic reports, one at a time: a slow disk never stacks writes up.
  let writing: Promise<void> = Promise.resolve();
  const timer =
    o.reportEverySeconds !== undefined
      ? setInterval(() => {
          writing = writing
            .then(() => write(true))
            .catch((err: Error) => {
              o.out.write(`dataapi proxy: could not write the reports: ${err.message}\n`);
            });
        }, o.reportEverySeconds * 1000)
      : undefined;
  // Judging that falls behind is said as it happens (once a second at most) and when stopping.
  let told = 0;
  const tellBehind = () => {
    const n = proxy.judging().overloaded;
    if (n > told)
      o.out.write(
        `dataapi proxy: the judges are behind: ${n} exchange${n === 1 ? '' : 's'} passed through unjudged so far\n`,
      );
    told = n;
  };
  const behind = setInterval(tellBehind, 1000);
  behind.unref();
  try {
    await o.stop;
  } finally {
    clearInterval(behind);
    if (timer) clearInterval(timer);
    await proxy.close();
    tellBehind();
    await writing;
  }
  await write(false);
  return session.log.failures > 0 ? 1 : 0;
}
