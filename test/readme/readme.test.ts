/**
 * The README's examples as a newcomer runs them, so a README step cannot break unnoticed. Cheap
 * by design (the expensive steps are proven elsewhere: `npm pack ./dist/client` as printed in
 * test/pack/pack.test.ts, the client snippet compiled in test/pack/declarations.test.ts, the
 * contract suite against the mock and serve in test/contract and test/serve):
 * - every `dataapi` line of its shell blocks names a real command and only flags it documents;
 * - the CI lint step and the integrator's scaffold dry run, as written;
 * - the integrator's curl against the mock (its path, key and Prefer header);
 * - the operator's handler block, run by bash in a fresh folder (the project's package.json,
 *   spec/ and generated/ linked in, as in a clone), then `dataapi serve --handlers handlers` answering
 *   from that handler.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT as ROOT } from '../../generator/root.ts';
import { startMock } from '../client/helpers.ts';
import { model } from '../../generated/model.ts';

const README = await readFile(path.join(ROOT, 'README.md'), 'utf8');
const BIN = path.join(ROOT, 'bin/dataapi.js');
const run = promisify(execFile);

/** The README's ```sh blocks, as written. */
const SH_BLOCKS = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** Shell lines with `\` continuations joined and comments dropped (a heredoc's body stays out). */
function commandLines(block: string): string[] {
  const out: string[] = [];
  let heredoc: string | undefined;
  for (const raw of block.replace(/\\\n\s*/g, ' ').split('\n')) {
    if (heredoc !== undefined) {
      if (raw.trim() === heredoc) heredoc = undefined;
      continue;
    }
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    heredoc = /<<\s*'?(\w+)'?/.exec(line)?.[1];
    out.push(line);
  }
  return out;
}

/** `dataapi CMD args...` within a line (after npx, env assignments, `&&`). */
function dataapiCalls(line: string): { command: string; args: string[] }[] {
  return line
    .split(/&&|;|\|/)
    .map((part) => /(?:^|\s)dataapi\s+(\S+)(.*)$/.exec(part.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ command: m[1]!, args: m[2]!.trim().split(/\s+/).filter(Boolean) }));
}

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('the README', () => {
  const calls = SH_BLOCKS.flatMap(commandLines).flatMap(dataapiCalls);

  it('names real commands, and only flags their --help documents', async () => {
    expect(calls.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const { command, args } of calls) {
      const mod = (await import(`../../scripts/commands/${command}.ts`).catch(() => undefined)) as
        { command: { usage: string } } | undefined;
      if (!mod) {
        problems.push(`dataapi ${command}: no such command`);
        continue;
      }
      for (const flag of args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]!))
        if (!new RegExp(`(^|[\\s\\[|])${flag}\\b`, 'm').test(mod.command.usage))
          problems.push(`dataapi ${command} ${flag}: not in its --help`);
    }
    expect(problems).toEqual([]);
  });

  it('`npm run corpus` and `npm run bench` lines use only flags their --help documents', async () => {
    const scripts = { corpus: 'bench/corpus/cli.ts', bench: 'bench/cli.ts' } as const;
    const lines = SH_BLOCKS.flatMap(commandLines)
      .map((l) => /(?:^|\s)npm run (corpus|bench)\b(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(lines.map((m) => m[1])).toEqual(expect.arrayContaining(['corpus', 'bench']));
    const problems: string[] = [];
    for (const [name, file] of Object.entries(scripts)) {
      const help = await run(process.execPath, ['--import', 'tsx', file, '--help'], { cwd: ROOT });
      for (const m of lines.filter((x) => x[1] === name))
        for (const flag of (m[2] ?? '').split(/\s+/).filter((a) => /^--[a-z]/.test(a)))
          if (!new RegExp(`(^|[\\s\\[|])${flag}\\b`, 'm').test(help.stdout))
            problems.push(`npm run ${name} ${flag}: not in its --help`);
    }
    expect(problems).toEqual([]);
  });

  it('quick start: `npm start` is `dataapi start` (run whole by nothing here: a full suite, ~40 s)', async () => {
    expect(SH_BLOCKS[0]).toMatch(/^npm ci && npm start /m);
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['start']).toMatch(/dataapi(\.js)? start$/);
  });

  it('CI: `npx dataapi lint` passes as written', async () => {
    expect(calls.some((c) => c.command === 'lint' && c.args.length === 0)).toBe(true);
    const r = await run(process.execPath, [BIN, 'lint'], { cwd: ROOT });
    expect(r.stdout).toMatch(/no problems/);
  });

  it('integrator: the scaffold dry run runs as written and changes nothing', async () => {
    const scaffold = calls.find((c) => c.command === 'scaffold' && c.args.includes('--dry-run'));
    expect(scaffold).toBeDefined();
    // The shell removes the quotes around "Weather, air quality".
    const args = scaffold!.args
      .join(' ')
      .match(/"[^"]*"|\S+/g)!
      .map((a) => a.replace(/^"|"$/g, ''));
    const before = await readFile(path.join(ROOT, 'spec/openapi.yaml'), 'utf8');
    // An integrator who followed the README has added this operation already (the integrator's
    // path must keep `npm test` green): the dry run then refuses it, and still changes nothing.
    const method = args[args.indexOf('--method') + 1]!;
    const route = args[args.indexOf('--path') + 1]!;
    const added = model.operations.some((o) => o.method === method && o.path === route);
    const r = await run(process.execPath, [BIN, 'scaffold', ...args], { cwd: ROOT }).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    if (added) {
      expect(r).toMatchObject({ code: 2 });
      expect(r.stderr).toContain(`${method.toUpperCase()} ${route} already exists`);
    } else expect(r.stdout).toContain('getWeatherForecast');
    expect(await readFile(path.join(ROOT, 'spec/openapi.yaml'), 'utf8')).toBe(before);
  });

  it('integrator: the curl against the mock gets the 429 it asks for', async () => {
    const curl = SH_BLOCKS.flatMap(commandLines).find((l) => l.startsWith('curl '));
    const m = /-H '([^:]+): ([^']+)' 'http:\/\/127\.0\.0\.1:4010([^']+)'/.exec(curl ?? '');
    expect(m).not.toBeNull();
    const mock = await startMock();
    try {
      const r = await fetch(`${mock.baseUrl}${m![3]}`, { headers: { [m![1]!]: m![2]! } });
      expect(r.status).toBe(429);
      await r.arrayBuffer();
    } finally {
      await mock.close();
    }
  });

  it('operator: the handler block creates handlers/, and serve answers from it', async () => {
    const block = SH_BLOCKS.find((b) => b.includes('mkdir -p handlers'));
    expect(block).toBeDefined();
    // The lines up to the heredoc's end: what a newcomer pastes first.
    const setup = block!.slice(0, block!.indexOf('\nEOF\n') + 5);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-readme-'));
    made.push(dir);
    // A clone as far as serve can tell: package.json (an ES module project), spec/ and generated/.
    for (const sub of ['package.json', 'spec', 'generated'])
      await symlink(path.join(ROOT, sub), path.join(dir, sub));
    await run('bash', ['-euc', setup], { cwd: dir });
    const line = commandLines(block!).find((l) => l.startsWith('dataapi serve --port 8080'))!;
    expect(line).toContain('--handlers handlers');
    // As written but for what only a deployment has: a free port, any key instead of a keys
    // file, no Redis.
    const child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--handlers',
        'handlers',
        '--insecure-any-key',
        '--no-docs',
      ],
      {
        cwd: dir,
        env: { ...process.env, DATAAPI_KEYS: '', REDIS_URL: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString();
          const found = /listening on (http:\/\/\S+)/.exec(err);
          if (found) resolve(found[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${err}`)));
      });
      const r = await fetch(`${url}/v2/location/ip?ip=223.5.5.5&appkey=any-key`);
      expect(r.status).toBe(200);
      expect(JSON.stringify(await r.json())).toContain('杭州');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
