/**
 * OpenAPI links at run time: runtime expressions (`$response.body#/Data/operationId`,
 * `$request.path.id`, `{$response.header.Location}` inside a string) evaluated against one
 * exchange, and the request a link leads to. The fixed suite's sequences and fuzzing both follow
 * links through here.
 */
import { coercingValidatorFor, describeErrors } from 'dataapi/model/validate';
import { effective } from 'dataapi/runtime/sampler';
import {
  declaredResponse,
  isObject,
  locatedAt,
  sameParameterName,
  splitPointer,
  type JsonSchema,
  type Operation,
  type Parameter,
  type ResponseLink,
  type ServiceModel,
} from 'dataapi/model';
import type { Exchange } from './http.ts';
import type { RequestSpec } from './requests.ts';

/** What a link's expressions read: the source request (values and wire form) and its answer. */
export interface LinkSource {
  spec: RequestSpec;
  method: string;
  url: string;
  exchange: Exchange;
}

const NOT_FOUND = Symbol('not found');

/** The value of a runtime expression, a string embedding them, or a constant. */
export function evaluate(expr: unknown, src: LinkSource): unknown {
  if (typeof expr !== 'string') return expr;
  if (expr.startsWith('$')) {
    const v = single(expr, src);
    return v === NOT_FOUND ? undefined : v;
  }
  if (!expr.includes('{$')) return expr;
  let missing = false;
  const text = expr.replace(/\{(\$[^}]+)\}/g, (_m, inner: string) => {
    const v = single(inner, src);
    if (v === NOT_FOUND || v === undefined) missing = true;
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
  return missing ? undefined : text;
}

function single(expr: string, src: LinkSource): unknown {
  if (expr === '$url') return src.url;
  if (expr === '$method') return src.method.toUpperCase();
  if (expr === '$statusCode') return src.exchange.record.status ?? NOT_FOUND;
  const m = /^\$(request|response)\.(path|query|header|body)(?:\.([^#]+))?(#.*)?$/.exec(expr);
  if (!m) return NOT_FOUND;
  const [, side, part, name, pointer] = m as unknown as [string, string, string, string?, string?];
  if (side === 'response' && part === 'header')
    return name === undefined ? NOT_FOUND : (src.exchange.headers[name.toLowerCase()] ?? NOT_FOUND);
  if (part === 'body') {
    const body = side === 'request' ? src.spec.body : src.exchange.json;
    return pointer === undefined ? (body ?? NOT_FOUND) : at(body, pointer);
  }
  if (side === 'response' || name === undefined) return NOT_FOUND;
  const where = part as 'path' | 'query' | 'header';
  const values = src.spec[where];
  const key = Object.keys(values).find((k) => sameParameterName(where, k, name));
  return key === undefined ? NOT_FOUND : values[key];
}

function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const token of splitPointer(pointer)) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, token)) return NOT_FOUND;
    v = (v as Record<string, unknown>)[token];
  }
  return v;
}

/** The links of the response an exchange got (by its status), in description order. */
export function linksOf(op: Operation, status: number | undefined): ResponseLink[] {
  if (status === undefined) return [];
  return declaredResponse(op, status)?.links ?? [];
}

/**
 * The request a link leads to: `base` (a valid request of the target) with the link's parameters
 * and body filled in, or the expressions that found nothing in the source.
 */
export function followUp(
  link: ResponseLink,
  src: LinkSource,
  base: RequestSpec,
): { spec: RequestSpec; missing: string[] } {
  const spec: RequestSpec = {
    ...base,
    name: `link ${link.name}`,
    path: { ...base.path },
    query: { ...base.query },
    header: { ...base.header },
    cookie: { ...base.cookie },
  };
  const missing: string[] = [];
  for (const p of link.parameters) {
    const value = evaluate(p.value, src);
    if (value === undefined) missing.push(String(p.value));
    else spec[p.in][p.name] = value;
  }
  if (link.requestBody !== undefined) {
    const body = evaluate(link.requestBody, src);
    if (body === undefined) missing.push(String(link.requestBody));
    else spec.body = structuredClone(body);
  }
  return { spec, missing };
}

/** A link of another operation that leads to this one and fills a path parameter. */
export function linkInto(
  model: ServiceModel,
  op: Operation,
): { source: Operation; link: ResponseLink } | undefined {
  return linksByTarget(model)
    .get(op.id)
    ?.find((l) => l.source !== op);
}

type LinkInto = { source: Operation; link: ResponseLink };
const intoByModel = new WeakMap<ServiceModel, Map<string, LinkInto[]>>();

/**
 * The links that fill a path parameter, by the operation they lead to, in description order;
 * made once per model (every operation asks: scanning every operation's links each time cost
 * GitHub's 1,223 operations about a second of a worker's CPU).
 */
function linksByTarget(model: ServiceModel): Map<string, LinkInto[]> {
  let index = intoByModel.get(model);
  if (!index) {
    index = new Map();
    for (const source of model.operations)
      for (const r of source.responses)
        for (const link of r.links ?? [])
          if (locatedAt(link.parameters, 'path').length > 0)
            index.set(link.target, [...(index.get(link.target) ?? []), { source, link }]);
    intoByModel.set(model, index);
  }
  return index;
}

/**
 * The link's parameter values the target's own schemas refuse (read as a server reads them, with
 * query-string coercion): the description contradicts itself (an `id` with no pattern feeding a
 * parameter with one), so following the link proves nothing about the target.
 */
export function misfits(
  model: ServiceModel,
  link: ResponseLink,
  target: Operation,
  spec: RequestSpec,
): string[] {
  const v = coercingValidatorFor(model);
  const out: string[] = [];
  for (const lp of link.parameters) {
    const param = target.parameters[lp.in].find((p: Parameter) =>
      sameParameterName(lp.in, p.name, lp.name),
    );
    if (!param || param.mediaType) continue;
    const value = spec[lp.in][lp.name];
    const check = v.compile(param.schema);
    if (!check(structuredClone(value)))
      out.push(
        `${lp.name}=${JSON.stringify(value)} (${describeErrors(check.errors, value).join('; ')})`,
      );
  }
  return out;
}

/**
 * Whether a value can stand at `pointer` in a value of `schema`: false when the schema rules it
 * out (an object step into an array or a scalar, an undeclared property of a closed object, a
 * text index into a list). A link reading such a place is the description's fault.
 */
export function reachable(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  tokens: string[],
  depth = 0,
): boolean {
  if (tokens.length === 0 || schema === undefined || depth > 32) return true;
  const { s, choices, allowed } = effective(model, schema);
  if (choices.some((c) => c.options.some((o) => reachable(model, o, tokens, depth + 1))))
    return true;
  const [token, ...rest] = tokens as [string, ...string[]];
  const types = new Set(Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
  const props = isObject(s.properties) ? (s.properties as Record<string, JsonSchema>) : {};
  if (Object.hasOwn(props, token)) return reachable(model, props[token], rest, depth + 1);
  if (s.items !== undefined || types.has('array'))
    return (
      /^(0|[1-9][0-9]*)$/.test(token) && reachable(model, s.items as JsonSchema, rest, depth + 1)
    );
  if (types.size > 0 && !types.has('object')) return false;
  if (s.additionalProperties === false || (allowed && !allowed.has(token))) return false;
  return true;
}

/** The JSON-pointer tokens a `$response.body#...` expression reads, if it is one. */
export function responseBodyTokens(expr: unknown): string[] | undefined {
  if (typeof expr !== 'string') return undefined;
  const m = /^\$response\.body(#.*)?$/.exec(expr);
  return m ? splitPointer((m[1] ?? '').replace(/^#/, '')) : undefined;
}
