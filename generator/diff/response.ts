/** What a client reads: statuses, media types, bodies and headers of the responses. */
import type { Response } from '../../model/types.ts';
import { escapeToken } from '../../model/pointer.ts';
import { compareSchemas } from './schemas.ts';
import type { OperationPair } from './pair.ts';
import { mediaPointer, responsePointer } from './side.ts';

const isSuccess = (status: string) => /^2(\d\d|XX)$/.test(status);

export function compareResponses(pair: OperationPair): void {
  const { base, head, b, h, emit } = pair;
  const hm = new Map(h.responses.map((r) => [r.status, r]));
  for (const rb of b.responses) {
    const rh = hm.get(rb.status);
    const atB = responsePointer(base, b, rb.status);
    if (!rh) {
      const rule = isSuccess(rb.status)
        ? 'response-success-status-removed'
        : 'response-status-removed';
      emit(rule, 'base', atB, `status ${rb.status} is no longer answered`);
      continue;
    }
    compareResponse(pair, rb, rh, atB, responsePointer(head, h, rh.status));
  }
  const statuses = new Set(b.responses.map((r) => r.status));
  for (const rh of h.responses)
    if (!statuses.has(rh.status))
      emit(
        'response-status-added',
        'head',
        responsePointer(head, h, rh.status),
        `status ${rh.status} can now be answered`,
      );
}

function compareResponse(
  pair: OperationPair,
  rb: Response,
  rh: Response,
  atB: string,
  atH: string,
): void {
  const { emit } = pair;
  const label = `${rh.status} response`;
  if (rb.schema !== undefined && rh.schema === undefined && rh.kind === 'empty') {
    emit('response-body-removed', 'base', `${atB}/content`, `${label}: the body was removed`);
    return;
  }
  if (rb.mediaType !== undefined && rh.mediaType !== undefined && rb.mediaType !== rh.mediaType)
    emit(
      'response-media-type-changed',
      'head',
      `${atH}/content`,
      `${label}: ${rb.mediaType} → ${rh.mediaType}`,
    );
  if (rb.schema !== undefined || rh.schema !== undefined) {
    compareSchemas(
      rb.schema ?? {},
      rh.schema ?? {},
      {
        base: mediaPointer(atB, rb.mediaType),
        head: mediaPointer(atH, rh.mediaType),
        label: `${label} body`,
      },
      pair.schemas('response'),
    );
  }
  const headers = new Map(rh.headers.map((x) => [x.name.toLowerCase(), x]));
  for (const hb of rb.headers) {
    const hh = headers.get(hb.name.toLowerCase());
    const at = `${atB}/headers/${escapeToken(hb.name)}`;
    if (!hh) {
      const rule = hb.required ? 'response-required-header-removed' : 'response-header-removed';
      emit(rule, 'base', at, `${label}: header ${hb.name} removed`);
      continue;
    }
    const atHeader = `${atH}/headers/${escapeToken(hh.name)}`;
    compareSchemas(
      hb.schema,
      hh.schema,
      { base: `${at}/schema`, head: `${atHeader}/schema`, label: `${label} header ${hh.name}` },
      pair.schemas('response'),
    );
  }
}
