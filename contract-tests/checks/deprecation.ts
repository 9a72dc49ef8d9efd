/**
 * The deprecation check: a deprecated operation answers with the `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594, when the description gives a day) and successor `Link` headers the model
 * computes; any other operation sends no `Deprecation` and no successor link (nor a `Sunset` it
 * does not declare). Values are compared as what they mean (the same instant, the same path), not
 * as text, so a server may spell them its own way.
 */
import { deprecationHeaders, type Operation, type ServiceModel } from 'dataapi/model';
import { answered, isValid, own, type Judge, type Violation } from './judge.ts';
import type { Probe } from '../probes.ts';

/** The seconds of an sf-date (`@1768435200`), or undefined when it is not one. */
function sfDate(value: string): number | undefined {
  const m = /^@(-?\d{1,15})$/.exec(value.trim());
  return m ? Number(m[1]) : undefined;
}

/** The targets of the `successor-version` links of a Link header (RFC 8288). */
function successorLinks(value: string | undefined): string[] {
  if (value === undefined) return [];
  const out: string[] = [];
  for (const m of value.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s,]+))/i.exec(m[2]!);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('successor-version')) out.push(m[1]!);
  }
  return out;
}

/** The path a link target names (a relative reference or an absolute URL), decoded. */
function pathOf(target: string): string {
  try {
    return decodeURI(new URL(target, 'http://target.invalid').pathname);
  } catch {
    return target;
  }
}

function expectPresent(
  model: ServiceModel,
  op: Operation,
  p: Probe,
  headers: Record<string, string>,
): Violation[] {
  const want = deprecationHeaders(model, op)!;
  const out: Violation[] = [];
  const got = headers['deprecation'];
  if (got === undefined || sfDate(got) !== sfDate(want['deprecation']!))
    out.push({
      probe: p,
      expected: `Deprecation: ${want['deprecation']} (RFC 9745)`,
      actual: got === undefined ? 'no Deprecation header' : `Deprecation: ${got}`,
    });
  if (want['sunset'] !== undefined) {
    const sunset = headers['sunset'];
    if (sunset === undefined || Date.parse(sunset) !== Date.parse(want['sunset']))
      out.push({
        probe: p,
        expected: `Sunset: ${want['sunset']} (RFC 8594)`,
        actual: sunset === undefined ? 'no Sunset header' : `Sunset: ${sunset}`,
      });
  }
  const successor = model.operations.find((o) => o.id === op.deprecation?.successor);
  if (successor && !successorLinks(headers['link']).some((t) => pathOf(t) === successor.path))
    out.push({
      probe: p,
      expected: `Link: <${successor.path}>; rel="successor-version"`,
      actual: headers['link'] === undefined ? 'no Link header' : `Link: ${headers['link']}`,
    });
  return out;
}

function expectAbsent(op: Operation, p: Probe, headers: Record<string, string>): Violation[] {
  const out: Violation[] = [];
  const deprecation = headers['deprecation'];
  if (deprecation !== undefined)
    out.push({
      probe: p,
      expected: 'no Deprecation header (the operation is not deprecated)',
      actual: `Deprecation: ${deprecation}`,
    });
  const declaresSunset = op.responses.some((r) =>
    r.headers.some((h) => h.name.toLowerCase() === 'sunset'),
  );
  if (headers['sunset'] !== undefined && !declaresSunset)
    out.push({
      probe: p,
      expected: 'no Sunset header (the operation is not deprecated)',
      actual: `Sunset: ${headers['sunset']}`,
    });
  if (successorLinks(headers['link']).length > 0)
    out.push({
      probe: p,
      expected: 'no successor-version link (the operation is not deprecated)',
      actual: `Link: ${headers['link']}`,
    });
  return out;
}

export const deprecation: Judge = (ctx) => {
  // A wrong method's answer comes from the path, not from this operation.
  const covered = own(ctx).filter((p) => answered(p) && p.role !== 'wrong-method');
  const violations: Violation[] = [];
  const deprecated = deprecationHeaders(ctx.model, ctx.op) !== undefined;
  for (const p of covered) {
    const headers = p.exchange.headers;
    // Every answer of a deprecated operation should say so; a valid request's answer must.
    if (deprecated) {
      if (isValid(p)) violations.push(...expectPresent(ctx.model, ctx.op, p, headers));
    } else violations.push(...expectAbsent(ctx.op, p, headers));
  }
  return { covered, violations };
};
