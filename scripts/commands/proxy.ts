/** `dataapi proxy`: a validation proxy in front of a deployment, judging live traffic. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { OWN_REPORTERS, reporterError } from '../../contract-tests/reports/index.ts';
import { loadModel } from '../../contract-tests/runner.ts';
import { RunError } from '../../contract-tests/run-error.ts';
import { runProxy } from '../../contract-tests/proxy/run.ts';
import { SpecInputError, suiteFor } from '../spec-suite.ts';
import { toolkitVersion } from '../version.ts';
import { parseSeverity } from '../severity-flag.ts';
import { PROXY_FLAGS } from '../flags/proxy.ts';
import { flagLines } from '../flags/usage.ts';

export const usage = `Usage: dataapi proxy --upstream URL [--host H] [--port P] [--spec FILE]
                     [--reporter NAME,...] [--report-dir DIR] [--report-every S] [--record FILE.har]
                     [--severity CODE=LEVEL,...] [--timeout ms] [--ca FILE] [--insecure]

${flagLines(PROXY_FLAGS)}

Every request and answer passes through unchanged and as it comes (uploads, server-sent
events, large bodies). Each exchange is judged by the contract's checks (status, content type,
envelope, business code, schema, headers) and by what only traffic shows: the key sent the way
the operation does not take it, a 429 without Retry-After. A path or method the description does
not document, refused with 404 or 405, is the right answer and no finding; answered otherwise, it
is a warning about the description (undocumented). Each finding prints as one line (✗ a failure,
! a warning), keys redacted; the reports (with the coverage the traffic gave) are
written on SIGINT/SIGTERM. A finding never changes or fails a request. When the deployment does
not answer, the client gets HTTP 502 in the operation's envelope and a finding is printed.
Bodies are judged up to 1 MiB; past that only the status and headers are. Judging runs on its
own threads, never on the path the bytes take: when it falls behind, exchanges pass through
unjudged and the proxy says how many, live and in every report. A WebSocket (any upgraded
connection) passes through untouched and is not judged.

Exit codes: 0 no failure was seen, 1 a failure was seen, 2 bad input.`;

export function parseProxyFlags(argv: string[]) {
  const { values } = parseFlags(argv, PROXY_FLAGS, usage);
  const upstream = values.upstream;
  if (upstream === undefined) throw new UsageError(`--upstream URL is required\n\n${usage}`);
  if (/[?#]/.test(upstream))
    throw new UsageError(
      `--upstream takes no query or fragment (a key belongs to the clients)\n\n${usage}`,
    );
  const every = values['report-every'];
  const timeout = values.timeout;
  const secure = /^https:/i.test(upstream);
  if (!secure && (values.ca !== undefined || values.insecure === true))
    throw new UsageError(
      `--ca and --insecure are for an https:// --upstream; ${JSON.stringify(upstream)} is plain http\n\n${usage}`,
    );
  const record = values.record;
  if (record !== undefined && !record.endsWith('.har'))
    throw new UsageError(
      `--record takes a file name ending in .har, got ${JSON.stringify(record)}\n\n${usage}`,
    );
  const reporters = values.reporter.flatMap((r) =>
    r
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  const severity = parseSeverity(values.severity);
  const bad = reporterError(reporters);
  if (bad) throw new UsageError(`--reporter: ${bad}\n\n${usage}`);
  const vitestOnly = reporters.filter((r) => !(OWN_REPORTERS as readonly string[]).includes(r));
  if (vitestOnly.length)
    throw new UsageError(
      `--reporter: the proxy writes ${OWN_REPORTERS.join(', ')}; not ${vitestOnly.join(', ')}\n\n${usage}`,
    );
  return {
    upstream,
    host: values.host,
    port: Number(values.port),
    ...(values.spec !== undefined ? { spec: values.spec } : {}),
    ...(reporters.length ? { reporters } : {}),
    reportDir: values['report-dir'],
    ...(every !== undefined ? { reportEverySeconds: Number(every) } : {}),
    ...(record !== undefined ? { record } : {}),
    ...(severity ? { severity } : {}),
    ...(timeout !== undefined ? { timeoutMs: Number(timeout) } : {}),
    ...(values.ca !== undefined ? { ca: values.ca } : {}),
    ...(values.insecure ? { insecure: true } : {}),
  };
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { spec, ...flags } = parseProxyFlags(argv);
      const root = process.cwd();
      try {
        const generatedDir =
          spec !== undefined ? (await suiteFor(spec)).generatedDir : path.join(root, 'generated');
        const model = await loadModel(generatedDir);
        const { ca, ...rest } = flags;
        const caPem = ca !== undefined ? await readCa(path.resolve(root, ca)) : undefined;
        const stop = new Promise<string>((resolve) => {
          const on = (signal: string) => () => {
            process.off('SIGINT', onInt);
            process.off('SIGTERM', onTerm);
            process.stdout.write(`dataapi proxy: ${signal}, writing the reports\n`);
            resolve(signal);
          };
          const onInt = on('SIGINT');
          const onTerm = on('SIGTERM');
          process.on('SIGINT', onInt);
          process.on('SIGTERM', onTerm);
        });
        return await runProxy({
          ...rest,
          ...(caPem ? { ca: caPem } : {}),
          model,
          root,
          out: process.stdout,
          stop,
          version: toolkitVersion(),
          ...(process.env.DATAAPI_APPKEY ? { appkey: process.env.DATAAPI_APPKEY } : {}),
        });
      } catch (err) {
        if (err instanceof SpecInputError || err instanceof RunError) {
          process.stderr.write(`dataapi proxy: ${err.message}\n`);
          return err instanceof RunError ? err.exitCode : 2;
        }
        if ((err as { code?: string }).code === 'EADDRINUSE') {
          process.stderr.write(
            `dataapi proxy: ${flags.host}:${flags.port} is in use (--port 0 takes any free port)\n`,
          );
          return 2;
        }
        throw err;
      }
    }),
};

/** --ca: the file must hold at least one PEM certificate (a clear error otherwise, exit 2). */
async function readCa(file: string): Promise<Buffer> {
  let pem: Buffer;
  try {
    pem = await readFile(file);
  } catch (err) {
    throw new RunError(`--ca: cannot read ${file}: ${(err as Error).message}`, 2);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new RunError(`--ca: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`, 2);
  return pem;
}
