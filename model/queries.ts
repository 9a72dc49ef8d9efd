/** The questions every layer asks of the model: which operation, which code group, which outcome. */
import type {
  BusinessCodeGroup,
  Operation,
  Outcome,
  Parameter,
  ParameterLocation,
  Parameters,
  Response,
} from './types.ts';
import type { ServiceModel } from './service-model.ts';

/** The parameter locations in the model's order. */
export const PARAMETER_LOCATIONS: readonly ParameterLocation[] = [
  'path',
  'query',
  'header',
  'cookie',
];

/**
 * Every parameter of an operation as one list, by location (path, query, header, cookie): for the
 * questions that concern them all (examples, coverage, diffs). The model keeps them grouped.
 */
export function allParameters(parameters: Parameters): Parameter[] {
  return PARAMETER_LOCATIONS.flatMap((where): Parameter[] => parameters[where]);
}

/** No parameters at all, for an operation built by hand. */
export function noParameters(): Parameters {
  return { path: [], query: [], header: [], cookie: [] };
}

export function findOperation(model: ServiceModel, id: string): Operation {
  const op = model.operations.find((o) => o.id === id);
  if (!op) throw new Error(`unknown operation ${JSON.stringify(id)}`);
  return op;
}

export function codeGroupOf(
  model: Pick<ServiceModel, 'businessCodeGroups'>,
  op: Operation,
): BusinessCodeGroup | undefined {
  return op.businessCodes === undefined
    ? undefined
    : model.businessCodeGroups.find((g) => g.name === op.businessCodes);
}

/** The canonical outcome of a business code in the operation's group ('ok' when it is the success code). */
export function outcomeOf(
  model: Pick<ServiceModel, 'businessCodeGroups'>,
  op: Operation,
  code: number | undefined,
): { outcome?: Outcome; meaning?: string } {
  const group = codeGroupOf(model, op);
  if (!group || code === undefined) return {};
  const entry = group.codes.find((c) => c.code === code);
  return entry ? { outcome: entry.outcome, meaning: entry.meaning } : {};
}

/**
 * The response an operation declares for a status: the exact key, else its range (`4XX`), else
 * `default`. The one matcher: the checks judge by it and coverage counts by it.
 */
export function declaredResponse(op: Operation, status: number): Response | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    op.responses.find((r) => r.status === exact) ??
    op.responses.find((r) => r.status.toUpperCase() === range) ??
    op.responses.find((r) => r.status === 'default')
  );
}

/**
 * The list a page of a paged answer holds: the payload itself when it is an array, or the one
 * array-valued property of an object payload (`{ meta, templates: [...] }`); undefined otherwise.
 * The mock trims this list to the page size and the paging check counts it: one rule for both.
 */
export function pageListKey(payload: unknown): '' | string | undefined {
  if (Array.isArray(payload)) return '';
  if (typeof payload !== 'object' || payload === null) return undefined;
  const keys = Object.keys(payload).filter((k) =>
    Array.isArray((payload as Record<string, unknown>)[k]),
  );
  return keys.length === 1 ? keys[0] : undefined;
}

/** `application/xml`, `text/xml` and any `+xml` type (`application/atom+xml`). */
export function isXmlMedia(type: string | undefined): boolean {
  return type !== undefined && /^[^;]*[/+]xml\s*(;|$)/i.test(type.trim());
}

/**
 * The body a request of the operation carries: none for GET and HEAD, whatever the description
 * declares (fetch refuses one, and servers do not read it: RFC 9110 gives it no meaning).
 */
export function sentBody(op: Operation): Operation['body'] {
  return op.method === 'get' || op.method === 'head' ? undefined : op.body;
}

/**
 * The path of the description's first server URL (its variables at their defaults), without a
 * trailing slash: `/api/v1` for `https://example.com/api/v1/` or `/api/v1`; '' when it has none
 * or when an operation's own path already starts with it (then it is part of the paths).
 */
export function serverPath(model: ServiceModel): string {
  const server = model.servers[0];
  if (!server) return '';
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (whole, name: string) => server.variables[name]?.default ?? whole,
  );
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://base.invalid').pathname);
  } catch {
    return '';
  }
  // A variable with no default left in the path: no path to join.
  if (/[{}]/.test(pathname)) return '';
  const path = pathname.replace(/\/+$/, '');
  if (path === '' || model.operations.some((o) => o.path.startsWith(`${path}/`))) return '';
  return path;
}
