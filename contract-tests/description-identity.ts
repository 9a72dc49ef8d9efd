/**
 * Which description a run judged by: its title, its version and a hash of what the judges read of
 * it. `dataapi report merge` refuses to merge results of different descriptions; title and
 * version alone would let an edited description with an unchanged version through.
 */
import { createHash } from 'node:crypto';
import type { ServiceModel } from 'dataapi/model';

export interface DescriptionIdentity {
  title: string;
  version: string;
  /** sha256 (hex, 16 characters) of the model's operations, schemas, code groups and webhooks. */
  hash: string;
}

/** Kept per model: the proxy asks again at every periodic report. */
const known = new WeakMap<ServiceModel, DescriptionIdentity>();

export function descriptionIdentity(model: ServiceModel): DescriptionIdentity {
  const kept = known.get(model);
  if (kept) return kept;
  // Not the findings: they may name files as the command line did (`./spec` or `spec`), which
  // says nothing about the description itself.
  const judged = {
    openapi: model.openapi,
    operations: model.operations,
    schemaRoot: model.schemaRoot,
    businessCodeGroups: model.businessCodeGroups,
    webhooks: model.webhooks,
  };
  const hash = createHash('sha256').update(JSON.stringify(judged)).digest('hex').slice(0, 16);
  const identity = { title: model.title, version: model.version, hash };
  known.set(model, identity);
  return identity;
}

/** `Museum API 1.0.0 (3f2a9c01b7e4d5a6)`: how messages name a description. */
export function describeIdentity(d: DescriptionIdentity): string {
  return `${JSON.stringify(d.title)} ${d.version} (${d.hash})`;
}
