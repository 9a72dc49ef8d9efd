/** Test helpers: the generated mock on 127.0.0.1 and an ephemeral port, and valid requests built from the IR. */
import type { FastifyInstance } from 'fastify';
import type { Operation, Parameter, ServiceModel } from 'dataapi/model';
import type { MockOptions } from 'dataapi/runtime/mock';
import { sample } from 'dataapi/runtime/sampler';
import { createMockServer } from '../../generated/mock/index.ts';

export const KEY = 'mock-appkey';

export interface Running {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startMock(options: MockOptions = {}): Promise<Running> {
  const app = await createMockServer({ appkeys: [KEY], ...options });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, close: () => app.close() };
}

function valueOf(model: ServiceModel, p: Parameter): unknown {
  return p.example !== undefined ? p.example : sample(model, p.schema);
}

/** `<binary content of a.pdf>` -> `a.pdf`: the spec's examples name their files. */
function fileName(text: unknown, i: number): string {
  const m = /^<binary content of (.+)>$/.exec(String(text));
  return m?.[1] ?? `file-${i}.bin`;
}

export interface BuiltRequest {
  path: string;
  init: RequestInit & { headers: Record<string, string> };
}

/**
 * A valid request for an operation (or its preview variant): every parameter with an example,
 * required ones sampled, the first body example, and the key in the operation's first transport.
 */
export function validRequest(
  model: ServiceModel,
  op: Operation,
  options: { preview?: boolean; key?: string | null } = {},
): BuiltRequest {
  const preview = options.preview === true;
  const key = options.key === undefined ? KEY : options.key;
  let path = preview && op.preview ? op.preview.path : op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const sent = (p: Parameter) => p.required || p.example !== undefined;
  for (const p of op.parameters.path.filter(sent))
    path = path.replace(`{${p.name}}`, encodeURIComponent(String(valueOf(model, p))));
  for (const p of op.parameters.query.filter(sent)) query.set(p.name, String(valueOf(model, p)));
  for (const p of op.parameters.header.filter(sent)) headers[p.name] = String(valueOf(model, p));
  const transport = preview ? undefined : op.auth.transports[0];
  if (key !== null && transport?.in === 'query') query.set(transport.name, key);
  if (key !== null && transport?.in === 'header') headers[transport.name] = key;
  if (key !== null && transport?.in === 'bearer') headers.authorization = `Bearer ${key}`;
  const init: BuiltRequest['init'] = { method: op.method.toUpperCase(), headers };
  if (op.body) {
    const example = op.body.examples[0]?.value ?? sample(model, op.body.schema);
    if (op.body.kind === 'multipart') {
      const form = new FormData();
      for (const [name, value] of Object.entries(example as Record<string, unknown>)) {
        const list = Array.isArray(value) ? value : [value];
        if (op.body.fileFields.includes(name)) {
          list.forEach((v, i) =>
            form.append(name, new Blob([`content of ${String(v)}`]), fileName(v, i)),
          );
        } else for (const v of list) form.append(name, String(v));
      }
      init.body = form;
    } else {
      const isObject = typeof example === 'object' && example !== null && !Array.isArray(example);
      const body = isObject ? { ...(example as Record<string, unknown>) } : example;
      if (isObject) {
        const fields = body as Record<string, unknown>;
        if (key !== null && transport?.in === 'body') fields[transport.name] = key;
        if (key === null && op.auth.transports.some((t) => t.in === 'body')) {
          for (const t of op.auth.transports) if (t.in === 'body') delete fields[t.name];
        }
      }
      headers['content-type'] = op.body.mediaType;
      init.body =
        op.body.kind === 'form'
          ? new URLSearchParams(body as Record<string, string>).toString()
          : JSON.stringify(body);
    }
  }
  const qs = query.toString();
  return { path: qs ? `${path}?${qs}` : path, init };
}

export async function call(
  base: string,
  req: BuiltRequest,
  extra: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const res = await fetch(base + req.path, {
    ...req.init,
    headers: { ...req.init.headers, ...extra },
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}
