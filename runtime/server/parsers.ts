/**
 * Body parsers: JSON that must be valid UTF-8 (a lossy decode would hide the client's error; the
 * __proto__ and constructor keys are refused), multipart within the limits, and the form, text
 * and binary media types the model's operations declare.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import type { FastifyMultipartOptions } from '@fastify/multipart';
import type { ServiceModel } from 'dataapi/model';
import { HttpError } from './errors.ts';

export interface ParserLimits {
  bodyBytes: number;
  fileBytes: number;
  files: number;
}

export function mediaEssence(header: string | undefined): string {
  if (!header) return '';
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}

export async function installParsers(
  app: FastifyInstance,
  model: ServiceModel,
  limits: ParserLimits,
): Promise<void> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const addJson = (type: string | RegExp) =>
    app.addContentTypeParser(type, { parseAs: 'buffer' }, (request, data, done) => {
      const bytes = data as Buffer;
      if (!isUtf8(bytes)) {
        done(
          new HttpError(400, 'Body is not valid UTF-8', { outcome: 'invalid_parameters' }),
          undefined,
        );
        return;
      }
      parseJson(request, bytes.toString('utf8'), done);
    });
  app.removeContentTypeParser('application/json');
  addJson('application/json');
  if (model.operations.some((op) => op.body?.kind === 'multipart')) {
    await registerMultipart(app, {
      throwFileSizeLimit: true,
      limits: {
        fileSize: limits.fileBytes,
        files: limits.files,
        fieldSize: limits.bodyBytes,
        fields: 1000,
        parts: limits.files + 1000,
        headerPairs: 200,
      },
    });
  }
  // Every wildcard media type (`*/*`, `application/*`) is one catch-all parser: the first wins.
  let catchAll = false;
  for (const op of model.operations) {
    const type = op.body ? mediaEssence(op.body.mediaType) : '';
    if (!type || type === 'multipart/form-data' || app.hasContentTypeParser(type)) continue;
    if (type.includes('*')) {
      if (catchAll) continue;
      catchAll = true;
    }
    if (op.body?.kind === 'form') {
      app.addContentTypeParser(type, { parseAs: 'string' }, (_req, text, done) =>
        done(null, parseFormText(text as string)),
      );
    } else if (op.body?.kind === 'json') {
      // JSON by another name (`application/merge-patch+json`, `application/json-patch+json`).
      addJson(type.includes('*') ? /.*/ : type);
    } else {
      const parseAs = op.body?.kind === 'text' ? 'string' : 'buffer';
      app.addContentTypeParser(type.includes('*') ? /.*/ : type, { parseAs }, (_req, data, done) =>
        done(null, data),
      );
    }
  }
}

/** A form body's text as its fields (a repeated name as a list; no prototype to reach). */
export function parseFormText(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

type PluginCallback = (
  instance: FastifyInstance,
  options: FastifyMultipartOptions,
  done: (err?: Error) => void,
) => void;

/**
 * @fastify/multipart without the two hooks it gives every request of every route (an onRequest
 * that listens for the connection's close, an onResponse): both only clean up the temporary files
 * of its disk mode (`saveRequestFiles`), which this server never uses (multipart.ts reads the parts
 * into memory before any handler runs). They cost the mock a tenth of its time per request.
 */
async function registerMultipart(app: FastifyInstance, options: FastifyMultipartOptions) {
  // Loaded only for a description with an upload: it and busboy are some 30 modules to load.
  const { default: multipart } = await import('@fastify/multipart');
  const original = multipart as unknown as PluginCallback & Record<symbol, unknown>;
  const plugin: PluginCallback = (instance, opts, done) => {
    const withoutCleanup: FastifyInstance = new Proxy(instance, {
      get(target, key) {
        if (key === 'addHook') {
          return (name: string, hook: unknown) => {
            if (name !== 'onRequest' && name !== 'onResponse')
              (target.addHook as (n: string, h: unknown) => unknown)(name, hook);
            return withoutCleanup;
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    original(withoutCleanup, opts, done);
  };
  // Registered as the plugin itself is (fastify-plugin's marks: not encapsulated, its name).
  for (const mark of ['skip-override', 'fastify.display-name', 'plugin-meta'])
    (plugin as unknown as Record<symbol, unknown>)[Symbol.for(mark)] = original[Symbol.for(mark)];
  await app.register(plugin as never, options);
}
