/**
 * A request as it goes on the wire, for reports and replays: built by the same serialiser the
 * suite sends with, but with a placeholder where the key goes, so the key is never in it. Shown
 * with `***`; as a curl command the key is read from $DATAAPI_APPKEY.
 */
import { keyTransport, type Operation, type ServiceModel } from 'dataapi/model';
import { operationPreference } from '../shared-route.ts';
import type { RequestSpec } from '../requests.ts';
import { multipartParts, serialise } from '../serialise.ts';
import type { WireRequest } from './types.ts';

const PLACEHOLDER = 'DATAAPI-KEY-PLACEHOLDER-5d1c';

export function wireOf(
  model: ServiceModel,
  baseUrl: string,
  op: Operation,
  spec: RequestSpec,
  withKey: boolean,
): { wire: WireRequest; curl: string } {
  const req = serialise(op, spec, {
    path: op.path,
    key: withKey ? 'key' : 'none',
    appkey: PLACEHOLDER,
    purpose: '',
    model,
  });
  const prefer = operationPreference(model, op);
  if (prefer !== undefined) req.headers['prefer'] = prefer;
  const basic = keyTransport(op.auth, 'basic') !== undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    headers[k] = /^basic /i.test(v) && basic ? 'Basic ***' : v;
  const wire: WireRequest = {
    method: req.method.toUpperCase(),
    url: `${baseUrl}${req.pathAndQuery}`,
    headers,
  };
  if (typeof req.body === 'string') wire.body = req.body;
  else if (req.body !== undefined && op.body) {
    const bodyKey = keyTransport(op.auth, 'body')?.name;
    wire.parts = multipartParts(spec.body, op.body.fileFields)
      .filter((p) => p.name !== bodyKey)
      .map(({ text: _bytes, ...p }) => p);
  }
  const curl = curlOf(wire);
  return { wire: shown(wire), curl };
}

/** The wire request with the key shown as `***`. */
function shown(w: WireRequest): WireRequest {
  const hide = (s: string) => s.split(PLACEHOLDER).join('***');
  return {
    method: w.method,
    url: hide(w.url),
    headers: Object.fromEntries(Object.entries(w.headers).map(([k, v]) => [k, hide(v)])),
    ...(w.body !== undefined ? { body: hide(w.body) } : {}),
    ...(w.parts
      ? {
          parts: w.parts.map((p) => (p.value !== undefined ? { ...p, value: hide(p.value) } : p)),
        }
      : {}),
  };
}

/** Single-quoted for a POSIX shell; the key as "$DATAAPI_APPKEY". */
function sh(s: string): string {
  return s
    .split(PLACEHOLDER)
    .map((piece) => `'${piece.replace(/'/g, `'\\''`)}'`)
    .join('"$DATAAPI_APPKEY"')
    .replace(/^''(?=")|(?<=")''$/g, '');
}

function curlOf(w: WireRequest): string {
  const args = ['curl', '-sS', '-X', w.method, sh(w.url)];
  for (const [k, v] of Object.entries(w.headers)) {
    if (w.parts && k === 'content-type') continue; // curl writes its own boundary
    if (/^basic /i.test(v) && v === 'Basic ***') args.push('-u', '"$DATAAPI_APPKEY"');
    else args.push('-H', sh(`${k}: ${v}`));
  }
  if (w.body !== undefined) args.push('--data-binary', sh(w.body));
  for (const p of w.parts ?? [])
    args.push(
      ...(p.file !== undefined
        ? ['-F', sh(`${p.name}=@${p.file};type=${p.type ?? 'application/octet-stream'}`)]
        : ['--form-string', sh(`${p.name}=${p.value ?? ''}`)]),
    );
  return args.join(' ');
}
