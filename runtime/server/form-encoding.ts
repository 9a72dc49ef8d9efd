/**
 * A form body's fields read back as its `encoding` wrote them (the client's and the suite's
 * runtime/shared/form.ts): a list not exploded split on its style's delimiter, an object in the
 * form style gathered from `k,v,k,v` (explode false) or from its own property names written at
 * the top level (explode true). The bracket form (deepObject, and objects without an encoding)
 * is gathered by param-styles.ts.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { propertiesOf } from 'dataapi/model';
import { typesOf } from './schema-types.ts';

type Bag = Record<string, unknown>;

const DELIMITER = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' } as const;

/** The steps that decode an operation's form body by its encoding (none without one). */
export function formEncodingDecoders(model: ServiceModel, op: Operation): ((body: Bag) => void)[] {
  const encoding = op.body?.kind === 'form' ? op.body.encoding : undefined;
  if (!encoding) return [];
  const fields = propertiesOf(model, op.body!.schema);
  const steps: ((body: Bag) => void)[] = [];
  for (const [name, enc] of Object.entries(encoding)) {
    const schema = fields.get(name);
    if (schema === undefined) continue;
    const types = typesOf(model, schema);
    const style = enc.style ?? 'form';
    const explode = enc.explode ?? style === 'form';
    if (types.has('array') && !explode && style !== 'deepObject') {
      const delimiter = DELIMITER[style];
      steps.push((body) => {
        const v = body[name];
        if (typeof v === 'string') body[name] = v === '' ? [] : v.split(delimiter);
      });
    } else if (types.has('object') && style === 'form' && !explode) {
      steps.push((body) => {
        const v = body[name];
        if (typeof v !== 'string') return;
        const parts = v.split(',');
        const obj = Object.create(null) as Bag;
        for (let i = 0; i + 1 < parts.length; i += 2) obj[parts[i]!] = parts[i + 1];
        body[name] = obj;
      });
    } else if (types.has('object') && style === 'form' && explode) {
      // The object's own properties, written beside the other fields: taken back into it.
      const own = [...propertiesOf(model, schema).keys()].filter((k) => !fields.has(k));
      steps.push((body) => {
        if (Object.hasOwn(body, name)) return;
        const obj = Object.create(null) as Bag;
        for (const k of own)
          if (Object.hasOwn(body, k)) {
            obj[k] = body[k];
            delete body[k];
          }
        if (Object.keys(obj).length > 0) body[name] = obj;
      });
    }
  }
  return steps;
}
