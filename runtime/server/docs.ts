/**
 * The API reference at /docs: Swagger UI (@fastify/swagger-ui, its assets served from this
 * process, so the page needs no internet) over the description given, in its own plugin scope so
 * an application's own @fastify/swagger is not disturbed. The document is also served as JSON and
 * YAML (/docs/json, /docs/yaml).
 */
import type { FastifyInstance } from 'fastify';

export interface DocsOptions {
  /** The OpenAPI document (bundled: one object, no external $refs). */
  document: Record<string, unknown>;
  /** Where the page is served (default /docs). */
  routePrefix?: string;
}

export async function installDocs(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  await app.register(async (scope) => {
    await scope.register(swagger, {
      mode: 'static',
      specification: { document: options.document as never },
    });
    await scope.register(swaggerUi, {
      routePrefix: options.routePrefix ?? '/docs',
      staticCSP: true,
      uiConfig: { deepLinking: true, docExpansion: 'list', tryItOutEnabled: false },
    });
  });
}
