/**
 * How an operation takes its credential: the security requirements (alternatives, each needing
 * every scheme it names) as transports, plus the service's JSON-body key (`x-dataapi-body-key`).
 * apiKey is read in its query, header or cookie; http basic as `Authorization: Basic`; http
 * bearer, oauth2 and openIdConnect as bearer tokens. See docs/service.md for the service's own.
 */
import type { Auth, KeyTransport } from '../../model/types.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { escapeToken } from '../../model/pointer.ts';
import { headerOfTransport } from '../../model/locations.ts';
import type { Findings } from './findings.ts';
import type { Problems } from './problems.ts';
import { TOKEN } from './parts.ts';

const same = (a: KeyTransport, b: KeyTransport) => JSON.stringify(a) === JSON.stringify(b);

export function readAuth(
  doc: Obj,
  op: Obj,
  pointer: string,
  problems: Problems,
  findings: Findings,
): Auth {
  const schemes =
    isObject(doc['components']) && isObject(doc['components']['securitySchemes'])
      ? doc['components']['securitySchemes']
      : {};
  const own = Array.isArray(op['security']);
  const declared = own
    ? (op['security'] as unknown[])
    : Array.isArray(doc['security'])
      ? doc['security']
      : [];
  const at = own ? `${pointer}/security` : '/security';
  const requirements: KeyTransport[][] = [];
  let anonymous = declared.length === 0;
  declared.forEach((req, index) => {
    if (!isObject(req) || Object.keys(req).length === 0) {
      anonymous = true; // `{}` in the list: anonymous access is allowed
      return;
    }
    const all: KeyTransport[] = [];
    let unsendable = false;
    for (const name of Object.keys(req)) {
      const scheme = schemes[name];
      const here = `${at}/${index}/${escapeToken(name)}`;
      if (!isObject(scheme)) {
        findings.add(
          'security-unknown-scheme',
          here,
          `unknown security scheme ${JSON.stringify(name)}: ignored`,
        );
        continue;
      }
      const t = toTransport(name, scheme);
      // rapidapi.com/dynamicdocs's `ADVICEment API Key`: no client can send that header (fetch
      // and node:http throw), so every request the suite made threw; ignored as such a parameter is.
      if (t && (t.in === 'header' || t.in === 'cookie') && !TOKEN.test(t.name)) {
        // Located at the scheme's `name`, which the author writes once for every operation.
        findings.add(
          'header-name-invalid',
          `/components/securitySchemes/${escapeToken(name)}/name`,
          `security scheme ${JSON.stringify(name)} sends its key in the ${t.in} ${JSON.stringify(t.name)}, which is no ${t.in === 'header' ? 'HTTP field' : 'cookie'} name: ignored`,
        );
        unsendable = true;
        continue;
      }
      if (!t) {
        findings.add(
          'security-unsupported-scheme',
          here,
          `security scheme ${JSON.stringify(name)} (${String(scheme['type'])}) carries no credential a client sends: not checked`,
        );
        continue;
      }
      if (!all.some((x) => same(x, t))) all.push(t);
    }
    // A requirement no request can meet is no alternative; when none is left, the operation is
    // open (below), since no client could call it otherwise.
    if (unsendable) return;
    if (all.length === 0) anonymous = true;
    for (const one of splitSameHeader(all, `${at}/${index}`, findings))
      if (
        !requirements.some(
          (r) => r.length === one.length && r.every((t, i) => same(t, one[i] as KeyTransport)),
        )
      )
        requirements.push(one);
  });
  const bodyKey = op['x-dataapi-body-key'];
  if (bodyKey !== undefined) {
    if (typeof bodyKey !== 'string' || bodyKey === '')
      problems.add(
        'spec-extension',
        `${pointer}/x-dataapi-body-key`,
        'must be the name of a JSON body field',
      );
    else requirements.push([{ in: 'body', name: bodyKey }]);
  }
  const transports: KeyTransport[] = [];
  for (const t of requirements.flat()) if (!transports.some((x) => same(x, t))) transports.push(t);
  return { transports, requirements, required: requirements.length > 0 && !anonymous };
}

/**
 * One requirement naming two schemes sent in the same header (PagerDuty SCIM: an apiKey in
 * `Authorization` and http bearer, together) asks for what no request can carry: one header, two
 * credentials. Read as alternatives, each scheme with the rest of the requirement, with a finding.
 */
function splitSameHeader(all: KeyTransport[], at: string, findings: Findings): KeyTransport[][] {
  const byHeader = new Map<string, KeyTransport[]>();
  for (const t of all) {
    const h = headerOfTransport(t);
    if (h !== undefined) byHeader.set(h, [...(byHeader.get(h) ?? []), t]);
  }
  const clash = [...byHeader.entries()].find(([, ts]) => ts.length > 1);
  if (!clash) return all.length > 0 ? [all] : [];
  const [header, clashing] = clash;
  findings.add(
    'security-same-header',
    at,
    `schemes ${clashing.map((t) => ('scheme' in t ? t.scheme : t.name)).join(' and ')} are required together but both are sent in the ${header} header: read as alternatives`,
  );
  const rest = all.filter((t) => !clashing.includes(t));
  return clashing.flatMap((t) => splitSameHeader([t, ...rest], at, findings));
}

function toTransport(name: string, scheme: Obj): KeyTransport | undefined {
  if (scheme['type'] === 'apiKey' && typeof scheme['name'] === 'string') {
    const where = scheme['in'];
    if (where === 'query' || where === 'header' || where === 'cookie')
      return { in: where, name: scheme['name'], scheme: name };
  }
  const http = String(scheme['scheme']).toLowerCase();
  if (scheme['type'] === 'http' && http === 'basic') return { in: 'basic', scheme: name };
  if (scheme['type'] === 'http' && http !== 'bearer') return undefined; // digest, hoba, ...: not sent
  if (
    scheme['type'] === 'http' ||
    scheme['type'] === 'oauth2' ||
    scheme['type'] === 'openIdConnect'
  )
    return { in: 'bearer', scheme: name };
  return undefined; // mutualTLS and the like carry no key a client sends
}
