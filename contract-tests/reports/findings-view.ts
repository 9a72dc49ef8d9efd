/**
 * What the reporters show of the one finding record (model/finding.ts), read from nothing else:
 * a failed check's failure (its first violation's request and values, every violation's lines),
 * the description warnings, the toolkit faults and what was not tested. Results without findings
 * (written before the field existed) are upgraded first (findings-of-result.ts).
 */
import type { Finding } from 'dataapi/model';
import {
  findingsOfCheck,
  findingsOfRun,
  isFailure,
  isNotTested,
  isToolkitFault,
  isWarning,
  notTestedMessage,
} from '../findings-of-result.ts';
import type { CheckName, CheckResult, ContractRunResult } from '../results.ts';
import { dedupeWarnings, type DescriptionWarning } from '../warnings.ts';

/** Most detail lines kept per failed check (the results file's `errors` keeps as many). */
const MAX_LINES = 20;

/** A failed check as reports show it. */
export interface FailureView {
  /** The first violation's message (`<what the request was for>: expected X, got Y`). */
  message: string;
  request?: { method: string; url: string };
  /** What the failing request was for, when the record says. */
  purpose?: string;
  expected?: string;
  actual?: string;
  /** Every violation's detail lines (Ajv paths), or its message. */
  errors: string[];
  excerpt?: string;
  /** Findings of the check counted but not kept (a long proxy run's). */
  notKept?: number;
}

/** What a report says of a check's findings counted but not kept. */
export const notKeptLine = (n: number): string => `... ${n} more like these (counted, not kept)`;

/** The failure a check's findings record; undefined when they record none. */
export function failureOf(r: CheckResult): FailureView | undefined {
  const list = findingsOfCheck(r).filter(isFailure);
  const first = list[0];
  if (!first) return undefined;
  const e = first.evidence ?? {};
  const purpose = e.request?.purpose;
  return {
    message: first.message,
    ...(e.request ? { request: { method: e.request.method, url: e.request.url } } : {}),
    ...(purpose !== undefined ? { purpose } : {}),
    ...(e.expected !== undefined ? { expected: e.expected } : {}),
    ...(e.actual !== undefined ? { actual: e.actual } : {}),
    errors: list.flatMap(linesOf).slice(0, MAX_LINES),
    ...(e.excerpt !== undefined ? { excerpt: e.excerpt } : {}),
    ...(r.findingsNotKept ? { notKept: r.findingsNotKept } : {}),
  };
}

/** What an exchange the proxy observed was for: the traffic's own request, not one the suite built. */
export const observedPurpose = (method: string): string => `observed ${method}`;

/**
 * A violation's detail lines, each after what its request was for; its message when it has none
 * (an upgraded result's first finding has none at all: its lines follow as findings). Observed
 * traffic's purpose is the same for every exchange: its lines name the request (method and URL,
 * redacted when judged) instead.
 */
function linesOf(f: Finding): string[] {
  const request = f.evidence?.request;
  const purpose = request?.purpose;
  const observed = request !== undefined && purpose === observedPurpose(request.method);
  const where = observed ? `${request.method} ${request.url}` : purpose;
  const errors = f.evidence?.errors;
  if (errors === undefined)
    return [
      observed && f.message.startsWith(`${purpose}: `)
        ? `${where}${f.message.slice(purpose!.length)}`
        : f.message,
    ];
  return errors.map((e) => (where !== undefined ? `${where}: ${e}` : e));
}

/** What the run lacked to test the check (a skipped check's code and reason), if that. */
export function notTestedOf(r: CheckResult): Finding | undefined {
  return findingsOfCheck(r).find(isNotTested);
}

/**
 * The check's one line: a failure's message, a lack's `not tested (<code>): <reason>`, else the
 * result's own (what passed, why it was skipped).
 */
export function messageOf(r: CheckResult): string {
  if (r.status === 'failed') return failureOf(r)?.message ?? r.message;
  const lack = r.status === 'skipped' ? notTestedOf(r) : undefined;
  return lack ? notTestedMessage(lack.code, lack.message) : r.message;
}

/**
 * The run's description warnings: each once by code, pointer and message, sorted by pointer, code
 * and message (as they were always listed).
 */
export function warningsOf(report: ContractRunResult): DescriptionWarning[] {
  return dedupeWarnings(
    findingsOfRun(report)
      .filter(isWarning)
      .map((f) => ({
        code: f.code as DescriptionWarning['code'],
        message: f.message,
        pointer: f.pointer ?? '',
        ...(f.operation !== undefined ? { operation: f.operation } : {}),
        ...(f.file !== undefined && f.line !== undefined ? { file: f.file, line: f.line } : {}),
      })),
  );
}

/** A toolkit fault as reports show it. */
export interface FaultView {
  operation: string;
  check: CheckName;
  /** What the request was for. */
  purpose: string;
  request: { method: string; url: string };
  expected: string;
  actual: string;
  /** The record's message: what the request was for, then why the suite built it wrong. */
  message: string;
  /** Why alone (the message without the purpose). */
  why: string;
}

/** Every check's toolkit faults, in result order (each check's in the order it found them). */
export function faultsOf(report: ContractRunResult): FaultView[] {
  return report.results.flatMap((r) =>
    findingsOfCheck(r)
      .filter(isToolkitFault)
      .map((f) => {
        const e = f.evidence ?? {};
        const purpose = e.request?.purpose ?? '';
        const lead = `${purpose}: `;
        return {
          operation: f.operation ?? r.operation,
          check: r.check,
          purpose,
          request: { method: e.request?.method ?? '', url: e.request?.url ?? '' },
          expected: e.expected ?? '',
          actual: e.actual ?? '',
          message: f.message,
          why: f.message.startsWith(lead) ? f.message.slice(lead.length) : f.message,
        };
      }),
  );
}
