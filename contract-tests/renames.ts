/**
 * An update that renames its resource: a PUT or PATCH on an item (`/zones/{zone_id}`) whose body
 * gives the identifier's field another value (a zone's `name`). The later requests of the
 * operation, and of every operation after it on a held resource (held.ts), must name it by its
 * new identifier: by the old one they meet 404, which is no fault of the target.
 *
 * The new identifier is read back from the update's answer, else taken from the body sent, and
 * confirmed with the item's reader where the description has one: the new identifier answers (it
 * was renamed), or the old one still does (the field was not the identifier, or the server kept
 * it). When neither answers, the identifier is lost: the later requests name a resource the suite
 * cannot name, and a 404 to them is missing test data, not a failure.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { readEnvelope } from 'dataapi/runtime/shared';
import { ok, type Probe } from './probe.ts';
import { validRequests, type RequestSpec } from './requests.ts';
import type { Send } from './sequences.ts';
import { fits, idFields, idIn, opAt } from './test-data.ts';

/** What an update did to its resource's identifier. */
export type Rename =
  | { renamed: false }
  | { renamed: true; param: string; value: string | number }
  | { renamed: true; param: string; lost: true };

const KEPT: Rename = { renamed: false };

/** Whether the answered update `probe` (sent as `spec`) renamed its resource, and to what. */
export async function followRename(
  model: ServiceModel,
  op: Operation,
  spec: RequestSpec,
  probe: Probe,
  send: Send,
): Promise<Rename> {
  const param = /\{([^}/]+)\}$/.exec(op.path)?.[1];
  if ((op.method !== 'put' && op.method !== 'patch') || !param || !ok(probe)) return KEPT;
  const fields = idFields(param);
  const sent = idIn(spec.body, fields);
  const before = spec.path[param];
  if (sent === undefined || String(sent) === String(before)) return KEPT;
  const answered = idIn(readEnvelope(op, probe.exchange.json).payload, fields);
  const value = answered ?? sent;
  const reader = opAt(model, 'get', op.path);
  if (!reader) return fits(model, op, param, value) ? { renamed: true, param, value } : KEPT;
  const read = async (id: unknown, why: string) => {
    const base = validRequests(model, reader)[0];
    if (!base) return false;
    const p = await send(
      'lifecycle',
      reader,
      { ...base, path: { ...spec.path, [param]: id } },
      why,
      {
        keyMode: 'key',
        testData: true,
      },
    );
    return ok(p);
  };
  if (
    fits(model, op, param, value) &&
    (await read(value, `${reader.id} after ${op.id} renamed it`))
  )
    return { renamed: true, param, value };
  if (await read(before, `${reader.id} after ${op.id}, by its former identifier`)) return KEPT;
  return { renamed: true, param, lost: true };
}
