/**
 * Telling the caller once that an operation it calls is deprecated: because the description says
 * so (known at generation), or because an answer carries `Deprecation` (RFC 9745: a server that
 * deprecated it after this client was generated). One notice per operation and client; the
 * default handler is one `process.emitWarning` per operation and process (console.warn where there
 * is no `process`, in a browser).
 */
import type { Operation } from '../../model/types.ts';

export interface DeprecationNotice {
  /** The operation's id (a preview variant reports its operation). */
  operation: string;
  /** `METHOD /path` of the operation. */
  request: string;
  /** Where the client learnt it: the description it was generated from, or an answer's header. */
  source: 'description' | 'response';
  /** The deprecation day (`YYYY-MM-DD`), or the `Deprecation` header's date as given. */
  since?: string;
  /** The sunset day (`YYYY-MM-DD`), or the `Sunset` header as given. */
  sunset?: string;
  /** The successor's operation id (or, from an answer, its link target). */
  successor?: string;
  message: string;
}

export type OnDeprecated = (notice: DeprecationNotice) => void;

const warned = new Set<string>();

/** The default: one process warning per operation and process, whatever the number of clients. */
export const emitDeprecationWarning: OnDeprecated = (notice) => {
  if (warned.has(notice.request)) return;
  warned.add(notice.request);
  const proc = (globalThis as { process?: { emitWarning?: (...args: unknown[]) => void } }).process;
  if (typeof proc?.emitWarning === 'function')
    proc.emitWarning(notice.message, { type: 'DeprecationWarning', code: 'DATAAPI_DEPRECATED' });
  else console.warn(`DeprecationWarning: ${notice.message}`);
};

function messageOf(n: Omit<DeprecationNotice, 'message'>): string {
  const parts = [`${n.operation} (${n.request}) is deprecated`];
  if (n.since !== undefined) parts.push(`since ${n.since}`);
  if (n.sunset !== undefined) parts.push(`and may be removed from ${n.sunset}`);
  let text = parts.join(' ');
  if (n.successor !== undefined) text += `; use ${n.successor} instead`;
  return n.source === 'response' ? `${text} (the server says so)` : text;
}

/** The link target of a `successor-version` Link, if the header has one. */
function successorOf(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const m of link.matchAll(/<([^>]*)>([^,<]*)/g))
    if (/;\s*rel\s*=\s*"?[^";,]*\bsuccessor-version\b/i.test(m[2]!)) return m[1];
  return undefined;
}

/** Per client: notices each operation at most once. */
export class DeprecationNotices {
  private readonly done = new Set<string>();
  constructor(private readonly handler: OnDeprecated | false) {}

  /** Before a call: the description deprecates the operation. */
  beforeCall(op: Operation): void {
    if (!op.deprecated) return;
    const d = op.deprecation;
    this.notify(op, {
      source: 'description',
      ...(d?.since !== undefined ? { since: d.since } : {}),
      ...(d?.sunset !== undefined ? { sunset: d.sunset } : {}),
      ...(d?.successor !== undefined ? { successor: d.successor } : {}),
    });
  }

  /** After a call: the answer says the operation is deprecated. */
  afterCall(op: Operation, headers: Headers): void {
    const deprecation = headers.get('deprecation');
    if (deprecation === null) return;
    const sunset = headers.get('sunset');
    const successor = successorOf(headers.get('link'));
    this.notify(op, {
      source: 'response',
      since: deprecation,
      ...(sunset !== null ? { sunset } : {}),
      ...(successor !== undefined ? { successor } : {}),
    });
  }

  private notify(
    op: Operation,
    facts: Pick<DeprecationNotice, 'source' | 'since' | 'sunset' | 'successor'>,
  ): void {
    if (this.handler === false || this.done.has(op.id)) return;
    this.done.add(op.id);
    const base = { operation: op.id, request: `${op.method.toUpperCase()} ${op.path}`, ...facts };
    this.handler({ ...base, message: messageOf(base) });
  }
}
