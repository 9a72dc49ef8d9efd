import type { Operation } from '../../model/types.ts';
import { queryNameClashes } from '../../model/query-objects.ts';
import type { SchemaRoot } from '../../model/schema.ts';
import type { Findings } from './findings.ts';

/**
 * Properties of exploded query objects that share a name with another query parameter or
 * object's property (see model/query-objects.ts): requests cannot say whose they are. One
 * finding per operation, naming each such property.
 */
export function reportQueryNameClashes(model: SchemaRoot, op: Operation, findings: Findings): void {
  const list: string[] = [];
  for (const [param, clashes] of queryNameClashes(model, op))
    for (const [name, others] of clashes)
      list.push(`${param}.${name} (written as ${name}=..., as ${others.join(' and ')} also is)`);
  if (list.length === 0) return;
  findings.add(
    'query-name-clash',
    `${op.pointer}/parameters`,
    `query objects (style form, exploded) write each property under its own name, so a server cannot tell these from another parameter's: ${list.join('; ')}; they are not sent, nor read as the object's`,
    op.id,
  );
}
