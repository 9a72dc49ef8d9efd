/**
 * Probes for an orchestrator: `/healthz` answers while the process serves (liveness), `/readyz`
 * only when every dependency answers (readiness: Redis, when the limits are kept there). While
 * the server shuts down Fastify answers 503 to new requests, so a draining instance leaves the
 * load balancer's rotation.
 */
import type { FastifyInstance } from 'fastify';

/** A dependency's check: resolves true when it is usable. */
export type ReadinessCheck = () => Promise<boolean>;

export interface HealthOptions {
  /** Named readiness checks (default none: ready whenever alive). */
  checks?: Record<string, ReadinessCheck>;
  /** Paths (default /healthz and /readyz). */
  livePath?: string;
  readyPath?: string;
}

export function installHealth(app: FastifyInstance, options: HealthOptions = {}): void {
  const checks = Object.entries(options.checks ?? {});
  app.get(options.livePath ?? '/healthz', async () => ({ status: 'ok' }));
  app.get(options.readyPath ?? '/readyz', async (_request, reply) => {
    const results = await Promise.all(
      checks.map(async ([name, check]) => [name, await check().catch(() => false)] as const),
    );
    const ready = results.every(([, ok]) => ok);
    reply.code(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'not ready',
      checks: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'up' : 'down'])),
    };
  });
}
