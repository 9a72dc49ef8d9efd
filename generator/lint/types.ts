/** Findings of `dataapi lint`: one rule broken at one place of the description. */

export type Severity = 'error' | 'warning';

/**
 * Stable rule ids (documented in docs/integrators.md). Scripts and CI filters may rely on them:
 * never rename one, only add.
 */
export const RULES = {
  'operation-category': 'every operation has a category: a first tag that is declared at the root',
  'operation-envelope': 'every operation names its envelope in x-dataapi-envelope (or none)',
  'business-code-group': 'every enveloped operation names its business code group',
  'rate-limit': 'every operation has a rate limit: its own or the root default',
  'example-missing': 'every request body and 200 response has an example',
  'example-invalid': 'every example validates against its schema',
  'preview-variant': 'every detailed operation lists its /demo preview variant explicitly',
  'preview-consistent': 'a preview variant takes no key and answers like its operation',
  'preview-declared': 'every operation says whether it is detailed (x-dataapi-preview)',
  'operation-id-missing': 'every operation has an operationId',
  'operation-id-unique': 'no two operations share an operationId',
  'operation-id-safe': 'an operationId is used as is in generated code',
  'error-responses': 'every operation declares the error responses of docs/service.md §4',
  'extension-invalid': 'x-dataapi-* extensions are well formed',
  'deprecation-sunset':
    "x-dataapi-sunset and x-dataapi-deprecated-since are days (YYYY-MM-DD) on a deprecated operation, and a live operation's sunset is still to come",
  'deprecation-successor': 'x-dataapi-successor names another operation by its operationId',
  'swagger2-converted': 'a Swagger 2.0 description is read after its conversion to OpenAPI 3.0',
} as const;

export type RuleId = keyof typeof RULES;

export interface Finding {
  rule: RuleId;
  severity: Severity;
  message: string;
  /** JSON pointer into the description (where the fact is, or should be). */
  pointer: string;
  /** 1-based line and column of the pointer (or its nearest existing parent) in the root file. */
  line?: number;
  column?: number;
  /** The operation concerned (its operationId, or method and path). */
  operation?: string;
}

export interface LintReport {
  spec: string;
  findings: Finding[];
  errors: number;
  warnings: number;
  operations: number;
}

/** HTTP statuses every operation declares (docs/service.md §4). */
export const ERROR_STATUSES = ['400', '401', '403', '404', '405', '415', '429', '500', '502'];
