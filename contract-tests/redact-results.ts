/**
 * Applies the one redaction module (runtime/shared/redact.ts) to the run's results, field by field:
 * URLs as URLs (a preview's `/demo` path is not a value), texts as texts (they quote what the
 * target sent), and names (operation ids, check names, variants, purposes, parameter names,
 * statuses) never, so a short key cannot damage the structure of any report.
 */
import type { Finding } from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import type { CheckResult, ContractRunResult, ExchangeRecord, FuzzFinding } from './results.ts';

export function redactExchange(e: ExchangeRecord, x: Redactor): ExchangeRecord {
  return {
    ...e,
    request: { ...e.request, url: x.url(e.request.url) },
    ...(e.excerpt !== undefined ? { excerpt: x.text(e.excerpt) } : {}),
    ...(e.error !== undefined ? { error: x.text(e.error) } : {}),
  };
}

/** A finding: its message and what the target answered as texts, the request's URL as a URL. */
export function redactFindingRecord(f: Finding, x: Redactor): Finding {
  const e = f.evidence;
  return {
    ...f,
    message: x.text(f.message),
    ...(e
      ? {
          evidence: {
            ...e,
            ...(e.request ? { request: { ...e.request, url: x.url(e.request.url) } } : {}),
            // What was expected comes from the description, never from the target.
            ...(e.expected !== undefined ? { expected: x.composed(e.expected) } : {}),
            ...(e.actual !== undefined ? { actual: x.text(e.actual) } : {}),
            ...(e.errors ? { errors: e.errors.map((t) => x.text(t)) } : {}),
            ...(e.excerpt !== undefined ? { excerpt: x.text(e.excerpt) } : {}),
          },
        }
      : {}),
  };
}

export function redactCheckResult(r: CheckResult, x: Redactor): CheckResult {
  return {
    ...r,
    message: x.text(r.message),
    ...(r.request ? { request: { ...r.request, url: x.url(r.request.url) } } : {}),
    // What was expected comes from the description, never from the target.
    ...(r.expected !== undefined ? { expected: x.composed(r.expected) } : {}),
    ...(r.actual !== undefined ? { actual: x.text(r.actual) } : {}),
    errors: r.errors.map((e) => x.text(e)),
    ...(r.excerpt !== undefined ? { excerpt: x.text(r.excerpt) } : {}),
    exchanges: r.exchanges.map((e) => redactExchange(e, x)),
    ...(r.fuzz ? { fuzz: redactFinding(r.fuzz, x) } : {}),
    ...(r.toolkitFaults
      ? {
          toolkitFaults: r.toolkitFaults.map((f) => ({
            ...f,
            request: { ...f.request, url: x.url(f.request.url) },
            actual: x.text(f.actual),
          })),
        }
      : {}),
    ...(r.findings ? { findings: r.findings.map((f) => redactFindingRecord(f, x)) } : {}),
  };
}

/**
 * A fuzz finding is built with a placeholder where the key goes (fuzz/wire.ts); the target's
 * address may still carry one (a key in --base-url): URLs and the curl line are redacted too.
 */
export function redactFinding(f: FuzzFinding, x: Redactor): FuzzFinding {
  return {
    ...f,
    wire: { ...f.wire, url: x.url(f.wire.url) },
    curl: x.composed(f.curl),
    ...(f.replay
      ? {
          replay: {
            ...f.replay,
            seedCommand: x.composed(f.replay.seedCommand),
          },
        }
      : {}),
  };
}

export function redactRunResult<T extends ContractRunResult>(result: T, x: Redactor): T {
  return {
    ...result,
    target: { ...result.target, baseUrl: x.url(result.target.baseUrl) },
    results: result.results.map((r) => redactCheckResult(r, x)),
    ...(result.toolkitFaults
      ? {
          toolkitFaults: result.toolkitFaults.map((f) => ({
            ...f,
            request: { ...f.request, url: x.url(f.request.url) },
            actual: x.text(f.actual),
          })),
        }
      : {}),
    errors: result.errors.map((e) => x.text(e)),
    ...(result.findings ? { findings: result.findings.map((f) => redactFindingRecord(f, x)) } : {}),
  };
}
