/**
 * The whole model of a described service (see model/types.ts for its parts) and the findings it
 * carries. Apart from types.ts because findings are typed by the diagnostics catalogue, which the
 * packed client must not carry (it reads a ClientModel).
 */
import type { FindingCode, ModelFindingCode } from './diagnostics.ts';
import type { Finding } from './finding.ts';
import type { BusinessCodeGroup, Category, ClientModel, Operation, RateLimit } from './types.ts';

export interface ServiceModel extends ClientModel {
  title: string;
  version: string;
  description?: string;
  /** OpenAPI version of the input document. */
  openapi: string;
  servers: {
    url: string;
    variables: Record<string, { default: string; enum?: string[]; description?: string }>;
  }[];
  categories: Category[];
  /** Sorted by path, then method: generation order is stable. */
  operations: Operation[];
  businessCodeGroups: BusinessCodeGroup[];
  defaultRateLimit: RateLimit;
  /**
   * A JSON Schema with `$id` = SCHEMA_ROOT_ID whose `$defs` hold every `$ref` target (normalised to
   * 2020-12; component schemas keep their names). Add it to Ajv once; then compile any schema of
   * the model on its own.
   */
  schemaRoot: { [key: string]: unknown };
  /**
   * Webhooks (3.1 `webhooks`): requests the API sends to its subscribers. Shaped like operations
   * (`path` and `pathKey` are the webhook's name, `pointer` is under `/webhooks`); they are typed
   * (openapi-typescript's `webhooks`) but never routed, served or called.
   */
  webhooks: Operation[];
  /**
   * What the description gets wrong or leaves unclear, found while normalising: each is repaired
   * or ignored (never fatal) and located. Sorted by pointer.
   */
  findings: ModelFinding[];
}

/**
 * A finding of the description the toolkit repaired, ignored or cannot serve (never fatal): the one
 * record (model/finding.ts), here always with its file and pointer.
 */
export type ModelFinding<Code extends FindingCode = ModelFindingCode> = Finding<Code> & {
  file: string;
  pointer: string;
};
