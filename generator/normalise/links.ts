/**
 * OpenAPI `links` of responses -> `Response.links` of the model, resolved to operation ids after
 * ids are allocated. An asynchronous submit (`x-dataapi-async`) whose success response has no link
 * to its status operation gets one derived from the extension, so the contract suite follows both
 * kinds the same way. A link that names no operation of the description is a finding, not an error.
 */
import { resolve } from '../../model/refs.ts';
import { escapeToken, fragmentToPointer, joinPointer } from '../../model/pointer.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { allParameters, PARAMETER_LOCATIONS } from '../../model/queries.ts';
import type {
  LinkParameter,
  Operation,
  Parameter,
  ParameterLocation,
  ResponseLink,
} from '../../model/types.ts';
import type { Findings } from './findings.ts';

interface Source {
  op: Operation;
  raw: Obj;
}

export function readLinks(
  doc: Obj,
  sources: Source[],
  operations: Operation[],
  findings: Findings,
): void {
  const byOperationId = new Map(
    operations.filter((o) => o.operationId).map((o) => [o.operationId as string, o]),
  );
  const byPointer = new Map(operations.map((o) => [o.pointer, o]));
  for (const { op, raw } of sources) {
    const declared = isObject(raw['responses']) ? raw['responses'] : {};
    for (const [status, value] of Object.entries(declared)) {
      const r = resolve(doc, value);
      if (!isObject(r) || !isObject(r['links'])) continue;
      const response = op.responses.find(
        (x) => x.status === (status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase()),
      );
      if (!response) continue;
      const links: ResponseLink[] = [];
      for (const [name, rawLink] of Object.entries(r['links'])) {
        const pointer = `${op.pointer}${joinPointer('responses', status, 'links', name)}`;
        const link = resolve(doc, rawLink);
        const target = isObject(link) ? targetOf(link, byOperationId, byPointer) : undefined;
        if (!isObject(link) || !target) {
          findings.add(
            'link-unresolved',
            pointer,
            `link ${JSON.stringify(name)} names no operation of this description (operationId or a local operationRef): it is not followed`,
            op.id,
          );
          continue;
        }
        links.push({
          name,
          target: target.id,
          parameters: parametersOf(link, target, pointer, findings, op.id),
          ...('requestBody' in link ? { requestBody: link['requestBody'] } : {}),
          ...(typeof link['description'] === 'string' ? { description: link['description'] } : {}),
          pointer,
        });
      }
      if (links.length > 0) response.links = links;
    }
  }
  for (const op of operations) deriveAsyncLink(op, operations);
}

function targetOf(
  link: Obj,
  byOperationId: Map<string, Operation>,
  byPointer: Map<string, Operation>,
): Operation | undefined {
  if (typeof link['operationId'] === 'string') return byOperationId.get(link['operationId']);
  const ref = link['operationRef'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  try {
    return byPointer.get(fragmentToPointer(ref));
  } catch {
    return undefined; // broken percent-encoding: names no operation
  }
}

/** `path.id`, `query.id` or a bare name (the target's first parameter of that name). */
function parametersOf(
  link: Obj,
  target: Operation,
  pointer: string,
  findings: Findings,
  opId: string,
): LinkParameter[] {
  const out: LinkParameter[] = [];
  const given = isObject(link['parameters']) ? link['parameters'] : {};
  for (const [key, value] of Object.entries(given)) {
    const dot = key.indexOf('.');
    const where = dot > 0 ? (key.slice(0, dot) as ParameterLocation) : undefined;
    const qualified = where !== undefined && PARAMETER_LOCATIONS.includes(where);
    const name = qualified ? key.slice(dot + 1) : key;
    const p = (qualified ? target.parameters[where] : allParameters(target.parameters)).find(
      (x: Parameter) => x.name === name,
    );
    if (!p) {
      findings.add(
        'link-unknown-parameter',
        `${pointer}/parameters/${escapeToken(key)}`,
        `link parameter ${JSON.stringify(key)} is not a parameter of ${target.id}: it is ignored`,
        opId,
      );
      continue;
    }
    out.push({ in: p.in, name: p.name, value });
  }
  return out;
}

/** The submit of an async pair leads to its status operation, task id in the first path parameter. */
function deriveAsyncLink(op: Operation, operations: Operation[]): void {
  if (op.async?.role !== 'submit' || !op.success) return;
  const partner = operations.find((o) => o.id === op.async!.partner);
  const param = partner?.parameters.path[0];
  if (!partner || !param || op.success.links?.some((l) => l.target === partner.id)) return;
  const field = [...(op.envelope ? [op.envelope.payloadKey] : []), op.async.operationIdField];
  const link: ResponseLink = {
    name: 'x-dataapi-async',
    target: partner.id,
    parameters: [
      {
        in: 'path',
        name: param.name,
        value: `$response.body#/${field.map(escapeToken).join('/')}`,
      },
    ],
    pointer: `${op.pointer}/x-dataapi-async`,
  };
  op.success.links = [...(op.success.links ?? []), link];
}
