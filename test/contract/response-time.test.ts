/**
 * Proof that the contract suite catches an answer slower than --max-response-time, through the
 * real CLI and a proxy in front of the conforming mock (fault-runs.ts, as violations.test.ts).
 */
import { expect } from 'vitest';
import { faultRuns, type Case } from './fault-runs.ts';

const group = faultRuns();

// --max-response-time holds every answer of a run to it: the slow operation runs alone, so a busy
// machine cannot make another operation's answers fail it. Its own answers are held longer than
// the limit by the proxy, so they fail it however fast the machine is.
const SLOW: Case[] = [
  {
    name: 'a response slower than --max-response-time',
    operation: 'getFundOpenRealtime',
    check: 'response-time',
    fault: {
      path: '/fund/open/realtime',
      delayMs: 1200,
      delayIf: (req) => req.method === 'GET' && req.query.has('appkey'),
    },
    detail: (r) => expect(r.expected).toBe('a response within 800 ms'),
  },
];
group('a slow response', SLOW, ['--max-response-time', '800']);
