/** One side of a comparison: the loaded description, its model, and where things are in it. */
import type { LoadedSpec } from '../load.ts';
import type { Operation, Parameter } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';
import { isObject as isObj, type Obj } from '../../model/object.ts';
import { escapeToken, joinPointer, unescapeToken } from '../../model/pointer.ts';
import { followRefs, getAt } from '../../model/refs.ts';
import { sameParameterName } from '../../model/locations.ts';
import { SchemaSpace } from './canon.ts';

export interface DiffSide {
  /** How the user named it: a file, or `REV:path` for a git revision. */
  label: string;
  loaded: Pick<LoadedSpec, 'document' | 'locate' | 'file'>;
  model: ServiceModel;
  space: SchemaSpace;
}

export function makeSide(label: string, loaded: DiffSide['loaded'], model: ServiceModel): DiffSide {
  return { label, loaded, model, space: new SchemaSpace(model, loaded.document) };
}

/** Where a parameter of an operation is written (its own list first, then the path item's). */
export function parameterPointer(side: DiffSide, op: Operation, p: Parameter): string {
  const doc = side.loaded.document;
  const itemPointer = op.pointer.slice(0, op.pointer.lastIndexOf('/'));
  const same = (raw: unknown) =>
    isObj(raw) &&
    raw['in'] === p.in &&
    typeof raw['name'] === 'string' &&
    sameParameterName(p.in, raw['name'], p.name);
  for (const holder of [op.pointer, itemPointer]) {
    const list = getAt(doc, `${holder}/parameters`);
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const at = followRefs(doc, `${holder}/parameters/${i}`);
      if (same(getAt(doc, at))) return at;
    }
  }
  return `${op.pointer}/parameters`;
}

export function bodyPointer(side: DiffSide, op: Operation): string {
  return followRefs(side.loaded.document, `${op.pointer}/requestBody`);
}

/** Where a response is written; `status` as the model spells it (`default`, `4XX`). */
export function responsePointer(side: DiffSide, op: Operation, status: string): string {
  const responses = getAt(side.loaded.document, `${op.pointer}/responses`);
  const key = isObj(responses)
    ? (Object.keys(responses).find((k) => k.toUpperCase() === status.toUpperCase()) ?? status)
    : status;
  return followRefs(side.loaded.document, joinPointer(...splitOp(op.pointer), 'responses', key));
}

// Not splitPointer: a path key may hold a `%` that is not percent-encoding.
const splitOp = (pointer: string) => pointer.slice(1).split('/').map(unescapeToken);

export const mediaPointer = (holder: string, mediaType: string | undefined) =>
  mediaType === undefined ? holder : `${holder}/content/${escapeToken(mediaType)}/schema`;

/** The line of a pointer (or of its nearest written parent) in the side's root file. */
export function lineOf(side: DiffSide, pointer: string | undefined): number | undefined {
  if (pointer === undefined) return undefined;
  const tokens = pointer.split('/').slice(1);
  // Not above two levels: the line of `/paths` or `/components` would only mislead.
  for (let n = tokens.length; n >= Math.min(2, tokens.length); n--) {
    const pos = side.loaded.locate('/' + tokens.slice(0, n).join('/'));
    if (pos) return pos.line;
  }
  return undefined;
}
