/**
 * Start-up of the installed commands, cold processes side by side: `dataapi --help` against
 * `openapi-typescript --help` and a bare `node -e 0`, the mock's first answer, and a contract run
 * of one operation; with BENCH_BEFORE=<checkout of an earlier commit, built and installed> the
 * same commands of that checkout take turns with these (the figures before and after a change).
 * Also the package as users get it: the tarball, and what `npm install` of it puts on disk.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { sideBySide, timingTable, commandList, type Contender } from './lib/side-by-side.ts';
import { fmtMs, median } from './lib/stats.ts';

const HELP_TARGET = 'dataapi --help at most 0.3 s of CPU';
const MOCK_TARGET = "the mock answers within 1 s of start on the service's description";
export const STARTUP_TARGETS = [HELP_TARGET, MOCK_TARGET];

function exec(cmd: string, args: string[], cwd: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { cwd, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr}`)) : resolve({ stdout }),
    ),
  );
}

const AIR_QUALITY = '/Weather/AirQuality?city=Beijing&appkey=mock-appkey';

/** Wall time from spawning `dataapi mock` to its first 200 answer. */
async function firstAnswer(root: string, bin: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'mock', '--port', '0'], {
    cwd: root,
    env: { ...process.env, DATAAPI_APPKEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += String(chunk);
        const m = /listening on (http:\/\/[\d.:]+)/.exec(text);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`mock exited ${code}: ${text}`)));
    });
    const res = await fetch(`${url}${AIR_QUALITY}`);
    if (res.status !== 200) throw new Error(`mock answered ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - started;
  } finally {
    await new Promise((done) => (child.once('exit', done), child.kill('SIGTERM')));
  }
}

/** Tarball size and files (`npm pack --dry-run`), and the installed size in an empty project. */
async function packageSize(ctx: BenchContext): Promise<string[]> {
  const dir = path.join(ctx.work, 'startup-install');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const packed = await exec('npm', ['pack', ctx.root, '--pack-destination', dir, '--json'], dir);
  const [info] = JSON.parse(packed.stdout) as {
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
  }[];
  await writeFile(path.join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  await exec(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', info!.filename],
    dir,
  );
  // Two runs: du counts a folder once, so the second of one call would read 0.
  const kb = async (folder: string) =>
    Number((await exec('du', ['-sk', folder], dir)).stdout.split('\t')[0]) / 1024;
  const [all, own] = [await kb('node_modules'), await kb('node_modules/dataapi')];
  return [
    '| package | size |',
    '| --- | ---: |',
    `| tarball (\`npm pack\`) | ${(info!.size / 1024).toFixed(0)} kB, ${info!.entryCount} files |`,
    `| dataapi unpacked | ${(info!.unpackedSize / 1024).toFixed(0)} kB |`,
    `| installed in an empty project (\`node_modules\`, all dependencies) | ${all?.toFixed(0)} MiB (dataapi itself ${own?.toFixed(1)} MiB) |`,
  ];
}

export async function startup(ctx: BenchContext): Promise<Section> {
  const before = process.env.BENCH_BEFORE;
  const help: Contender[] = [
    { label: 'node -e 0', argv: ['node', '-e', '0'] },
    { label: 'openapi-typescript --help', argv: ['openapi-typescript', '--help'] },
    { label: 'dataapi --help', argv: ['node', 'bin/dataapi.js', '--help'] },
    ...(before
      ? [
          {
            label: 'dataapi --help (before)',
            argv: ['node', path.join(before, 'bin/dataapi.js'), '--help'],
          },
        ]
      : []),
  ];
  const contract: Contender[] = [
    {
      label: 'dataapi contract --only getAirQuality',
      argv: ['node', 'bin/dataapi.js', 'contract', '--only', 'getAirQuality', '--reporter', 'dot'],
    },
    ...(before
      ? [
          {
            label: 'dataapi contract --only getAirQuality (before)',
            argv: [
              'node',
              path.join(before, 'bin/dataapi.js'),
              'contract',
              '--only',
              'getAirQuality',
              '--reporter',
              'dot',
            ],
            cwd: path.relative(ctx.root, before),
          },
        ]
      : []),
  ];
  ctx.log('startup: --help');
  const helpRuns = await sideBySide(ctx, help, { runs: Math.max(ctx.runs, 5) });
  ctx.log('startup: contract --only getAirQuality');
  const contractRuns = await sideBySide(ctx, contract);
  ctx.log('startup: mock first answer');
  const mockTimes: Record<string, number[]> = { now: [], before: [] };
  for (let i = 0; i < Math.max(ctx.runs, 3); i++) {
    mockTimes.now!.push(await firstAnswer(ctx.root, 'bin/dataapi.js'));
    if (before) mockTimes.before!.push(await firstAnswer(before, 'bin/dataapi.js'));
  }
  const sizes = await packageSize(ctx);
  const ours = helpRuns.find((m) => m.contender.label === 'dataapi --help')!;
  const mockMs = median(mockTimes.now!);
  return {
    id: 'startup',
    title: '13. Start-up of the installed commands, and the package',
    body: [
      timingTable(helpRuns, 'node -e 0'),
      '',
      timingTable(contractRuns, contract[0]!.label),
      '',
      '| mock: spawn to first 200 answer (service description) | median |',
      '| --- | ---: |',
      `| dataapi mock | ${fmtMs(mockMs)} |`,
      ...(before ? [`| dataapi mock (before) | ${fmtMs(median(mockTimes.before!))} |`] : []),
      '',
      ...sizes,
      '',
      'Commands:',
      commandList([...helpRuns, ...contractRuns]),
      `- mock: \`node bin/dataapi.js mock --port 0\`, then \`GET ${AIR_QUALITY}\` as soon as it prints its address`,
      before
        ? `- before: the same commands of \`${before}\` (an earlier commit, built and installed), taking turns with these`
        : '- before: set BENCH_BEFORE to a checkout of an earlier commit to measure it side by side',
    ].join('\n'),
    verdicts: [
      { target: HELP_TARGET, measured: `${fmtMs(ours.cpuMs)} CPU`, met: ours.cpuMs <= 300 },
      { target: MOCK_TARGET, measured: fmtMs(mockMs), met: mockMs <= 1000 },
    ],
  };
}
