/** The benchmarks `npm run bench` runs, in report order. */
import type { BenchContext, Section } from './lib/context.ts';
import { mockThroughput } from './mock.ts';
import { validationThroughput } from './validation.ts';
import { contractSuite } from './contract.ts';
import { contractAnyDescription, TARGET as CONTRACT_ANY_TARGET } from './contract-any.ts';
import { livePacing } from './pacing.ts';
import { serviceGeneration, syntheticGeneration } from './generation.ts';
import { githubGeneration, githubTypecheck } from './github.ts';
import { githubMock, MOCK_TARGET, CONTRACT_TARGET } from './mock-github.ts';
import { clientPackage } from './client-package.ts';
import { fuzzThroughput } from './fuzz.ts';
import { serveThroughput } from './serve.ts';
import { startup, STARTUP_TARGETS } from './startup.ts';
import { proxyOverhead } from './proxy.ts';
import { proxySoak } from './soak.ts';
import { corpusTimes } from './corpus-times.ts';

export interface Benchmark {
  id: string;
  title: string;
  /** The targets it reports, listed as "not measured" when it cannot run. */
  targets: string[];
  run(ctx: BenchContext): Promise<Section>;
}

export const BENCHMARKS: Benchmark[] = [
  {
    id: 'generation-service',
    title: '1. Generating the service description',
    targets: [
      'service description, whole output cold <= 1.5x openapi-typescript',
      'service description, re-run with unchanged input <= 0.3x openapi-typescript',
    ],
    run: serviceGeneration,
  },
  {
    id: 'generation-github',
    title: "2. Generating GitHub's REST description (1,223 operations)",
    targets: [
      "GitHub: dataapi's whole output <= 1.6x openapi-typescript alone (regression guard)",
      "GitHub: dataapi's peak memory <= 1.25 GiB (regression guard)",
    ],
    run: githubGeneration,
  },
  {
    id: 'typecheck-github',
    title: "2b. Type-checking GitHub's generated output",
    targets: ["GitHub: tsc over dataapi's output <= 1.5x tsc over openapi-typescript's"],
    run: githubTypecheck,
  },
  {
    id: 'generation-synthetic',
    title: '3. Scaling: synthetic descriptions of 200, 1,000 and 2,000 operations',
    targets: [
      'synthetic: time per operation at 2000 <= 1.5x that at 200',
      'synthetic: peak memory < 1 GiB',
    ],
    run: syntheticGeneration,
  },
  {
    id: 'mock',
    title: '4. Mock throughput and latency (air quality)',
    targets: [
      'mock throughput >= 60% of bare Fastify',
      'mock throughput >= 10x Prism',
      'mock p99 <= 2x bare Fastify',
    ],
    run: mockThroughput,
  },
  {
    id: 'mock-github',
    title: "4b. The mock of GitHub's description, and its contract suite",
    targets: [MOCK_TARGET, CONTRACT_TARGET],
    run: githubMock,
  },
  {
    id: 'validation',
    title: '5. Validation throughput (contract runtime vs Ajv directly)',
    targets: [
      'validation (getAirQuality): contract runtime >= 90% of Ajv directly',
      'validation (predictAdmission): contract runtime >= 90% of Ajv directly',
    ],
    run: validationThroughput,
  },
  {
    id: 'contract',
    title: '6. Contract suite against the embedded mock',
    targets: [],
    run: contractSuite,
  },
  {
    id: 'pacing',
    title: '7. Live pacing of the contract runner',
    targets: [
      'pacing: every operation at or under its declared limit (whole suite and saturated)',
      'pacing: >= 90% of the limit with enough work (saturated)',
    ],
    run: livePacing,
  },
  {
    id: 'client-package',
    title: '8. The packed client (dataapi pack client)',
    targets: [
      'client package: tarball < 100 kB',
      "client package: one operation's browser bundle <= 60% of the whole client's",
    ],
    run: clientPackage,
  },
  {
    id: 'serve',
    title: '9. Serve throughput: rate limits in Redis, in memory, off (air quality)',
    targets: [],
    run: serveThroughput,
  },
  {
    id: 'contract-any',
    title:
      "10. Contract suite of any description: Box (296 operations) against its own mock, and against Prism's",
    targets: [CONTRACT_ANY_TARGET],
    run: contractAnyDescription,
  },
  {
    id: 'fuzz',
    title: '11. Fuzzing: generated requests per second and time to shrink',
    targets: [],
    run: fuzzThroughput,
  },
  {
    id: 'proxy',
    title: '12. Validation proxy overhead (air quality)',
    targets: [
      'dataapi proxy throughput >= 70% of the forwarding-only floor',
      'dataapi proxy p50 <= floor + 0.3 ms',
      'dataapi proxy p99 <= 1.5x the floor',
      'every exchange judged at that load',
      "dataapi proxy >= 5x Prism's proxy",
      'large answer: dataapi proxy throughput >= 70% of the forwarding-only floor',
    ],
    run: proxyOverhead,
  },
  {
    id: 'startup',
    title: '13. Start-up of the installed commands, and the package',
    targets: STARTUP_TARGETS,
    run: startup,
  },
  {
    id: 'corpus',
    title: '14. The corpus run: time per description',
    targets: [],
    run: corpusTimes,
  },
  {
    id: 'soak',
    title: '15. Validation proxy soak run',
    targets: [
      'soak: resident memory flat (last tenth within 10% of the first) and under 300 MiB',
      'soak: 0 altered bytes',
      'soak: every planted violation reported once',
    ],
    run: proxySoak,
  },
];

export const BENCHMARK_IDS = BENCHMARKS.map((b) => b.id);
