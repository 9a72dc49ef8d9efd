/** Key transports per operation (seed section 5): query, header, bearer, JSON body, or none. */
import type { Auth, KeyTransport } from '../../model/types.ts';
import { isObject, type Obj } from '../../model/object.ts';
import type { Problems } from './problems.ts';

export function readAuth(doc: Obj, op: Obj, pointer: string, problems: Problems): Auth {
  const schemes =
    isObject(doc['components']) && isObject(doc['components']['securitySchemes'])
      ? doc['components']['securitySchemes']
      : {};
  const requirements = Array.isArray(op['security'])
    ? op['security']
    : Array.isArray(doc['security'])
      ? doc['security']
      : [];
  const transports: KeyTransport[] = [];
  let optional = requirements.length === 0;
  for (const req of requirements) {
    if (!isObject(req) || Object.keys(req).length === 0) {
      optional = true; // `{}` in the list: anonymous access is allowed
      continue;
    }
    for (const name of Object.keys(req)) {
      const scheme = schemes[name];
      if (!isObject(scheme)) {
        problems.add(pointer + '/security', `unknown security scheme ${JSON.stringify(name)}`);
        continue;
      }
      const t = toTransport(name, scheme);
      if (t && !transports.some((x) => JSON.stringify(x) === JSON.stringify(t))) transports.push(t);
    }
  }
  const bodyKey = op['x-dataapi-body-key'];
  if (bodyKey !== undefined) {
    if (typeof bodyKey !== 'string' || bodyKey === '')
      problems.add(`${pointer}/x-dataapi-body-key`, 'must be the name of a JSON body field');
    else transports.push({ in: 'body', name: bodyKey });
  }
  return { transports, required: transports.length > 0 && !optional };
}

function toTransport(name: string, scheme: Obj): KeyTransport | undefined {
  if (scheme['type'] === 'apiKey' && typeof scheme['name'] === 'string') {
    const where = scheme['in'];
    if (where === 'query' || where === 'header' || where === 'cookie')
      return { in: where, name: scheme['name'], scheme: name };
  }
  if (scheme['type'] === 'http' && String(scheme['scheme']).toLowerCase() === 'basic')
    return { in: 'header', name: 'Authorization', scheme: name };
  if (
    scheme['type'] === 'http' ||
    scheme['type'] === 'oauth2' ||
    scheme['type'] === 'openIdConnect'
  )
    return { in: 'bearer', scheme: name };
  return undefined; // mutualTLS and the like carry no key a client sends
}
