/**
 * Fuzzing an operation that changes the held resource (a PUT on the zone the test data names)
 * runs under that operation's hold: no other operation gets the zone until the fuzzed requests
 * are done, as for the fixed ones (held.ts). Before, fuzzing ran after the hold was released, so
 * a fuzzed PUT could change the zone under another operation's requests.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContractConfig } from '../../contract-tests/config.ts';
import { useGivenData } from '../../contract-tests/given-data.ts';
import { hold, releaseHeld, holdResources } from '../../contract-tests/held.ts';
import { createTransport } from '../../contract-tests/http.ts';
import { runProbes } from '../../contract-tests/probes.ts';
import type { Grant, Scheduler } from '../../contract-tests/scheduler.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { ROOT } from './harness.ts';
import { startZonesServer, type ZonesServer } from './zones-server.ts';

const SPEC = path.join(ROOT, 'test/fixtures/given/zones.yaml');
const DATA = {
  createZone: { body: { name: 'probe.example.', kind: 'Native' } },
  putZone: { body: { name: 'probe.example.', kind: 'Master' } },
};

/** Grants every request at once. */
class Unpaced implements Scheduler {
  private seq = 0;
  acquire(): Promise<Grant> {
    return Promise.resolve({ ok: true, token: ++this.seq });
  }
  release(): void {}
  mayRetry(): boolean {
    return false;
  }
}

/** A few turns of the event loop: enough for a lease that is free to be granted. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

let server: ZonesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('--fuzz on the resource the test data names', () => {
  it("runs the fuzzed requests of a PUT under the PUT's own hold", async () => {
    server = await startZonesServer();
    const model = normalise(await loadSpec(SPEC));
    useGivenData(model, DATA);
    const config: ContractConfig = {
      baseUrl: server.url,
      appkey: '',
      timeoutMs: 30_000,
      allowWrites: true,
      maxRetries: 0,
      maxRetryWaitMs: 0,
    };
    const t = createTransport(config, new Unpaced());
    const byId = (id: string) => model.operations.find((o) => o.id === id)!;
    holdResources(
      model,
      async (r) => {
        await fetch(`${server!.url}/zones/${encodeURIComponent(String(r.path[r.param]))}`, {
          method: 'DELETE',
        });
      },
      true,
    );
    const events: string[] = [];
    let other: Promise<void> | undefined;
    const set = await runProbes(model, byId('putZone'), 'main', t, async (probes) => {
      events.push('fuzzing starts');
      // Another operation asks for the zone while the PUT is being fuzzed: it must wait.
      other = hold(model, byId('createZone'), false).then((lease) => {
        events.push('other operation has the zone');
        lease.release();
      });
      await turns(20);
      expect(probes.probes.some((p) => p.role === 'valid')).toBe(true);
      events.push('fuzzing ends');
    });
    await other;
    expect(events).toEqual(['fuzzing starts', 'fuzzing ends', 'other operation has the zone']);
    // The PUT ran on the zone the test data named (created for it), not on a made-up name.
    const put = set.probes.find((p) => p.role === 'valid')!;
    expect(put.exchange.record.request.url).toContain('/zones/probe.example.');
    expect(server.creates.created).toBe(1);
    await releaseHeld(model);
    expect([...server.zones.keys()]).toEqual([]);
  });
});
