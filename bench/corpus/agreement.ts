/**
 * Agreement by construction (issue 48): for every parameter and request body of an operation, a
 * seeded valid value is serialised as the contract suite sends it (serialise.ts) and read back as
 * the server reads it (agreement-read.ts); it must be accepted and equal the value sent. Every
 * invalid value the suite's negatives module makes must be refused, for the reason it was made.
 * No server, no HTTP: a disagreement here is a pair of functions that disagree.
 */
import {
  allParameters,
  atLocation,
  drawnParameterSchema,
  keyTransport,
  locatedAt,
  unsentQueryNames,
  sentBody,
  withoutClashes,
  type Operation,
  type Parameter,
  type ServiceModel,
} from '../../model/index.ts';
import { draw, hashText } from '../../runtime/sampler/index.ts';
import { negativeCases } from '../../contract-tests/negatives.ts';
import { emptySegment, holdsSegmentText } from '../../contract-tests/path-values.ts';
import {
  carriesCredential,
  drawBody,
  emptyRequest,
  type RequestSpec,
} from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { isXmlMedia } from '../../runtime/shared/index.ts';
import { xmlFault } from '../../runtime/xml/index.ts';
import { framingParameter } from '../../contract-tests/fetch-headers.ts';
import { headerCarries } from '../../contract-tests/header-values.ts';
import { typesOf } from '../../runtime/server/schema-types.ts';
import {
  emptyIsNull,
  firstReading,
  refusedForReason,
  sameOneOrList,
  sameValue,
  withoutAdded,
} from './agreement-compare.ts';
import { requestReader, type Outcome, type Refusal } from './agreement-read.ts';

export type Location = 'path' | 'query' | 'header' | 'cookie' | 'body';
export type FindingKind =
  'valid-not-equal' | 'valid-refused' | 'invalid-accepted' | 'invalid-wrong-reason' | 'threw';

export interface Finding {
  operation: string;
  location: Location;
  name: string;
  mediaType?: string;
  style?: string;
  explode?: boolean;
  kind: FindingKind;
  detail: string;
}

export interface Agreement {
  findings: Finding[];
  /** What was checked: operations, parameters and bodies sent valid, invalid cases sent. */
  counts: { operations: number; parameters: number; bodies: number; invalid: number };
}

export interface AgreementOptions {
  seed: number;
  /** Valid values drawn per parameter and body (each a request of its own). */
  perOperation: number;
}

export async function agreementOf(model: ServiceModel, o: AgreementOptions): Promise<Agreement> {
  const findings: Finding[] = [];
  const counts = { operations: 0, parameters: 0, bodies: 0, invalid: 0 };
  for (const op of model.operations) {
    counts.operations++;
    try {
      await operationAgreement(model, op, o, findings, counts);
    } catch (err) {
      findings.push({
        ...where(op),
        kind: 'threw',
        detail: String((err as Error).message).slice(0, 200),
      });
    }
  }
  return { findings: dedupe(findings), counts };
}

const where = (op: Operation): Pick<Finding, 'operation' | 'location' | 'name'> => ({
  operation: `${op.method.toUpperCase()} ${op.path}`,
  location: 'path',
  name: '(request)',
});

async function operationAgreement(
  model: ServiceModel,
  op: Operation,
  o: AgreementOptions,
  findings: Finding[],
  counts: Agreement['counts'],
): Promise<void> {
  const read = requestReader(model, op);
  const clashes = unsentQueryNames(model, op);
  // A path key's fixed query pairs (`/frame.jpeg?src={src}`) are sent too, as the suite
  // sends them (requests.ts draws their one value): left out, the server refused the request.
  const params = allParameters(op.parameters).filter((p) => !carriesCredential(op, p));
  const body = sentBody(op);
  const send = async (spec: RequestSpec): Promise<Outcome> => {
    const req = serialise(op, spec, {
      path: op.path,
      // The key where the operation takes it, as the suite sends it: a credential that is also
      // a required header parameter (Invoice Ninja's X-API-TOKEN) was otherwise missing.
      key: 'key',
      appkey: 'agreement-key',
      purpose: 'agreement',
      model,
    });
    return read(req);
  };
  let base: RequestSpec | undefined;
  for (let round = 0; round < o.perOperation; round++) {
    const seed = (o.seed + hashText(op.id) + round * 7919) | 0;
    const spec = validSpec(model, op, params, seed);
    if (!spec) continue;
    base ??= spec;
    const sentParams = params.filter((p) => Object.hasOwn(spec[p.in], p.name));
    // Allowance 7: a framing header (Content-Length) is the transport's to write from the body
    // (serialise.ts): the value drawn for it is never sent, so not compared.
    const compared = sentParams.filter((p) => !framingParameter(p));
    counts.parameters += sentParams.length;
    if (spec.body !== undefined) counts.bodies++;
    let outcome: Outcome;
    try {
      outcome = await send(spec);
    } catch (err) {
      findings.push({ ...where(op), kind: 'threw', detail: (err as Error).message.slice(0, 200) });
      continue;
    }
    if ('refused' in outcome) {
      findings.push({
        ...blame(op, params, outcome.refused),
        kind: 'valid-refused',
        detail: said(outcome.refused),
      });
      continue;
    }
    const got = outcome.read;
    for (const p of compared) {
      const { sent, read } = atLocation<{ sent: unknown; read: unknown }>(p, {
        path: (x) => ({ sent: spec.path[x.name], read: got.path[x.name] }),
        query: (x) => ({
          sent: withoutClashes(spec.query[x.name], clashes.get(x.name)),
          read: got.query[x.name],
        }),
        // Header names are read back in lower case (RFC 9110: they ignore case).
        header: (x) => ({ sent: spec.header[x.name], read: got.header[x.name.toLowerCase()] }),
        cookie: (x) => ({ sent: spec.cookie[x.name], read: got.cookie[x.name] }),
      });
      const types = typesOf(model, p.schema);
      if (
        !sameValue(sent, read, true) &&
        !sameOneOrList(sent, read, types) &&
        !firstReading(sent, read, types) &&
        !emptyIsNull(sent, read, types) &&
        !unwritten(p, sent, read)
      )
        findings.push({
          ...describe(op, p),
          kind: 'valid-not-equal',
          detail: `sent ${show(sent)}, read ${show(read)}`,
        });
    }
    if (body && spec.body !== undefined && body.kind !== 'binary') {
      const textual = body.kind === 'form' || body.kind === 'multipart';
      // A string that is not XML under an XML media type goes as the text of one element
      // (serialise.ts): the server reads that document's text, so it is not compared either.
      const xmlText =
        body.kind === 'text' &&
        (typeof spec.body !== 'string' ||
          (isXmlMedia(body.mediaType) && xmlFault(spec.body) !== undefined));
      // Allowance 4: the suite takes a body credential field out and writes the key in its place.
      const keyField = keyTransport(op.auth, 'body')?.name;
      const files = keyField ? [...body.fileFields, keyField] : body.fileFields;
      const readBody = withoutAdded(model, body.schema, spec.body, got.body, files);
      const sent = withoutAdded(model, body.schema, spec.body, spec.body, files);
      // A text body that is not text (XML written from a value) reaches the handler as text:
      // validation read it back; equality is not asked of it.
      if (!xmlText && !sameValue(sent, readBody, textual))
        findings.push({
          operation: where(op).operation,
          location: 'body',
          name: '(body)',
          mediaType: body.mediaType,
          kind: 'valid-not-equal',
          detail: `sent ${show(sent)}, read ${show(readBody)}`,
        });
    }
  }
  if (!base) return;
  for (const c of negativeCases(model, op)) {
    counts.invalid++;
    let outcome: Outcome;
    try {
      outcome = await send(c.apply(structuredClone(base)));
    } catch (err) {
      findings.push({
        ...targetOf(op, params, c.target),
        kind: 'threw',
        detail: `${c.label}: ${(err as Error).message}`,
      });
      continue;
    }
    if (!('refused' in outcome))
      findings.push({
        ...targetOf(op, params, c.target),
        kind: 'invalid-accepted',
        detail: c.label,
      });
    else if (!refusedForReason(c, outcome.refused))
      findings.push({
        ...targetOf(op, params, c.target),
        kind: 'invalid-wrong-reason',
        detail: `${c.label}: refused as ${said(outcome.refused)}`,
      });
  }
}

/**
 * A valid request with every parameter drawn (optional ones too) and the body, or undefined when
 * the sampler finds no valid value for some required part (the description's own contradiction,
 * which the suite reports as such). A path value that is no segment of its own is drawn again.
 */
function validSpec(
  model: ServiceModel,
  op: Operation,
  params: Parameter[],
  seed: number,
): RequestSpec | undefined {
  const spec = emptyRequest('agreement');
  for (const p of params) {
    // A path value must make a segment of the URL, a header value one fetch sends as written
    // (requests.ts draws the suite's so); other places take any value.
    const fits = (v: unknown) =>
      atLocation(p, {
        path: () => pathable(op, p, v),
        query: () => true,
        header: () => headerCarries(v),
        cookie: () => true,
      });
    // As the suite draws it (requests.ts): a required query object with one property at least.
    const schema = drawnParameterSchema(model, p);
    let d = draw(model, schema, { direction: 'request', seed: seed ^ hashText(p.name) });
    for (let again = 1; again < 8 && d.valid && !fits(d.value); again++)
      d = draw(model, schema, {
        direction: 'request',
        seed: seed + again,
        preferExamples: false,
      });
    if (!d.valid || !fits(d.value)) {
      if (p.required) return undefined;
      continue;
    }
    spec[p.in][p.name] = d.value;
  }
  const body = sentBody(op);
  if (body) {
    const d = drawBody(model, body, seed); // as the suite draws it (requests.ts)
    if (!d.valid) return body.required ? undefined : spec;
    spec.body = d.value;
  }
  return spec;
}

/**
 * Allowance 6: an empty object spread over the query (form exploded, deepObject) writes no pair
 * (RFC 6570 expands it to nothing): an optional one sent empty is read back absent.
 */
const unwritten = (p: Parameter, sent: unknown, read: unknown) =>
  locatedAt([p], 'query').length === 1 &&
  !p.mediaType &&
  (p.style === 'deepObject' || (p.style === 'form' && p.explode)) &&
  read === undefined &&
  typeof sent === 'object' &&
  sent !== null &&
  !Array.isArray(sent) &&
  Object.keys(sent).length === 0;

/** A path value that stays one segment (not empty, without the template's own text). */
const pathable = (op: Operation, p: Parameter, v: unknown) =>
  !emptySegment(v) &&
  !holdsSegmentText(op.path, p.name, v) &&
  !/[/?#]/.test(JSON.stringify(v) ?? '');

function describe(op: Operation, p: Parameter): Omit<Finding, 'kind' | 'detail'> {
  return {
    operation: where(op).operation,
    location: p.in,
    name: p.name,
    ...(p.mediaType ? { mediaType: p.mediaType } : { style: p.style, explode: p.explode }),
  };
}

/** The parameter a refusal of a valid request names (its Ajv path or its message), else the request. */
function blame(op: Operation, params: Parameter[], r: Refusal): Omit<Finding, 'kind' | 'detail'> {
  if (r.part === 'body') {
    const mediaType = op.body?.mediaType;
    return {
      operation: where(op).operation,
      location: 'body',
      name: '(body)',
      ...(mediaType ? { mediaType } : {}),
    };
  }
  const token = r.errors[0]?.instancePath.split('/')[1] || r.errors[0]?.params['missingProperty'];
  const p = params.find(
    (x) =>
      (x.name === token || x.name.toLowerCase() === token || r.message.includes(`/${x.name}`)) &&
      partOf(x) === r.part,
  );
  return p ? describe(op, p) : where(op);
}

const partOf = (p: Parameter): Refusal['part'] =>
  ({ path: 'params', query: 'querystring', header: 'headers', cookie: 'cookie' })[
    p.in
  ] as Refusal['part'];

function targetOf(
  op: Operation,
  params: Parameter[],
  target: string,
): Omit<Finding, 'kind' | 'detail'> {
  const [loc, ...rest] = target.split('|')[0]!.split('.');
  const name = rest.join('.');
  if (loc === 'body') {
    const mediaType = op.body?.mediaType;
    return {
      operation: where(op).operation,
      location: 'body',
      name: name || '(body)',
      ...(mediaType ? { mediaType } : {}),
    };
  }
  const p = locatedAt(params, loc as Parameter['in']).find((x) => x.name === name);
  return p ? describe(op, p) : { ...where(op), name };
}

function said(r: Refusal): string {
  const e = r.errors[0];
  const text = e
    ? `${r.part}${e.instancePath} ${e.keyword}: ${e.message ?? ''}`
    : `${r.part}: ${r.message}`;
  return text.slice(0, 200);
}

function show(v: unknown): string {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 80 ? `${t.slice(0, 79)}…` : t;
}

function dedupe(list: Finding[]): Finding[] {
  const seen = new Set<string>();
  return list.filter((f) => {
    const key = `${f.operation}|${f.location}|${f.name}|${f.kind}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The class of a finding: its kind, location and serialisation (what one fix would cover). */
export function classOf(f: Finding): string {
  const how = f.mediaType ?? (f.style ? `${f.style}${f.explode ? ', explode' : ''}` : '');
  return `${f.kind} ${f.location}${how ? ` (${how})` : ''}`;
}
