/** What a client sends: parameters (with their schemas) and the request body. */
import { parameterKey } from '../../model/locations.ts';
import { allParameters } from '../../model/queries.ts';
import type { Parameter } from '../../model/types.ts';
import { compareSchemas } from './schemas.ts';
import type { OperationPair } from './pair.ts';
import { bodyPointer, mediaPointer, parameterPointer } from './side.ts';

const paramTitle = (p: Parameter) => `${p.in} parameter ${p.name}`;

export function compareParameters(pair: OperationPair): void {
  const { base, head, b, h, emit } = pair;
  const bm = new Map(allParameters(b.parameters).map((p) => [parameterKey(p), p]));
  const hm = new Map(allParameters(h.parameters).map((p) => [parameterKey(p), p]));
  for (const [key, pb] of bm) {
    const ph = hm.get(key);
    const atB = parameterPointer(base, b, pb);
    if (!ph) {
      emit('request-parameter-removed', 'base', atB, `${paramTitle(pb)} was removed`);
      continue;
    }
    const atH = parameterPointer(head, h, ph);
    if (!pb.required && ph.required)
      emit(
        'request-parameter-became-required',
        'head',
        `${atH}/required`,
        `${paramTitle(ph)} is now required`,
      );
    else if (pb.required && !ph.required)
      emit('request-parameter-became-optional', 'head', atH, `${paramTitle(ph)} is now optional`);
    const serial = (p: Parameter) => `${p.style}/${p.explode}/${p.mediaType ?? ''}`;
    if (serial(pb) !== serial(ph))
      emit(
        'request-parameter-style-changed',
        'head',
        atH,
        `${paramTitle(ph)}: serialisation ${serial(pb)} → ${serial(ph)} (style/explode/media type)`,
      );
    compareSchemas(
      pb.schema,
      ph.schema,
      { base: `${atB}/schema`, head: `${atH}/schema`, label: paramTitle(ph) },
      pair.schemas('request'),
    );
  }
  for (const [key, ph] of hm) {
    if (bm.has(key)) continue;
    const atH = parameterPointer(head, h, ph);
    if (ph.required)
      emit('request-parameter-added-required', 'head', atH, `required ${paramTitle(ph)} was added`);
    else emit('request-parameter-added', 'head', atH, `optional ${paramTitle(ph)} was added`);
  }
  const groups = (groupsOf: string[][]) => groupsOf.map((g) => [...g].sort().join(' | '));
  const before = groups(b.requireAnyOf);
  for (const g of groups(h.requireAnyOf))
    if (!before.includes(g))
      emit(
        'request-require-any-of-added',
        'head',
        `${h.pointer}/x-dataapi-require-any-of`,
        `one of ${g} is now required`,
      );
}

export function compareBody(pair: OperationPair): void {
  const { base, head, b, h, emit } = pair;
  if (!b.body && !h.body) return;
  const atB = b.body ? bodyPointer(base, b) : undefined;
  const atH = h.body ? bodyPointer(head, h) : undefined;
  if (!h.body) {
    emit('request-body-removed', 'base', atB, 'the request body was removed');
    return;
  }
  if (!b.body) {
    if (h.body.required)
      emit('request-body-added-required', 'head', atH, 'a required request body was added');
    else emit('request-body-added', 'head', atH, 'an optional request body was added');
    return;
  }
  if (!b.body.required && h.body.required)
    emit(
      'request-body-became-required',
      'head',
      `${atH}/required`,
      'the request body is now required',
    );
  else if (b.body.required && !h.body.required)
    emit('request-body-became-optional', 'head', atH, 'the request body is now optional');
  if (b.body.mediaType !== h.body.mediaType)
    emit(
      'request-body-media-type-changed',
      'head',
      `${atH}/content`,
      `request body ${b.body.mediaType} → ${h.body.mediaType}`,
    );
  compareSchemas(
    b.body.schema,
    h.body.schema,
    {
      base: mediaPointer(atB!, b.body.mediaType),
      head: mediaPointer(atH!, h.body.mediaType),
      label: 'request body',
    },
    pair.schemas('request'),
  );
}
