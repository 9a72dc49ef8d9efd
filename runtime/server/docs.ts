/**
 * The API reference at /docs: Swagger UI (@fastify/swagger-ui, its assets served from this
 * process, so the page needs no internet) over the description given, in its own plugin scope so
 * an application's own @fastify/swagger is not disturbed. The document is also served as JSON and
 * YAML (/docs/json, /docs/yaml). The server list starts with the server serving the page (a
 * relative `/`, which Swagger UI resolves against the page's own address, so it holds behind a
 * proxy too): "Try it out" then calls this server, not the description's placeholder.
 */
import type { FastifyInstance } from 'fastify';

export interface DocsOptions {
  /** The OpenAPI document (bundled: one object, no external $refs). */
  document: Record<string, unknown>;
  /** Where the page is served (default /docs). */
  routePrefix?: string;
}

/** The document as /docs shows it: this server first, then the description's own servers. */
export function withThisServer(document: Record<string, unknown>): Record<string, unknown> {
  const servers = Array.isArray(document['servers']) ? (document['servers'] as unknown[]) : [];
  const self = { url: '/', description: 'This server (the one serving these docs)' };
  return { ...document, servers: [self, ...servers] };
}

export async function installDocs(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  await app.register(async (scope) => {
    await scope.register(swagger, {
      mode: 'static',
      specification: { document: withThisServer(options.document) as never },
    });
    await scope.register(swaggerUi, {
      routePrefix: options.routePrefix ?? '/docs',
      staticCSP: true,
      uiConfig: { deepLinking: true, docExpansion: 'list', tryItOutEnabled: false },
    });
  });
}
