/**
 * SARIF 2.1.0 logs checked against the OASIS schema itself (test/fixtures/sarif), then against a
 * stricter part of it for what dataapi writes, with its closed objects (additionalProperties:
 * false) and enums, plus the cross-references the schema cannot express.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its function is the default export or that export's `default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const message = {
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string' } },
  additionalProperties: false,
};
const level = { enum: ['none', 'note', 'warning', 'error'] };
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  required,
  properties,
  additionalProperties: false,
});

const SCHEMA = closed(
  {
    $schema: { type: 'string', format: 'uri' },
    version: { const: '2.1.0' },
    runs: {
      type: 'array',
      minItems: 1,
      items: closed(
        {
          tool: closed(
            {
              driver: closed(
                {
                  name: { type: 'string', minLength: 1 },
                  version: { type: 'string' },
                  informationUri: { type: 'string', format: 'uri' },
                  rules: {
                    type: 'array',
                    uniqueItems: true,
                    items: closed(
                      {
                        id: { type: 'string', minLength: 1 },
                        shortDescription: message,
                        defaultConfiguration: closed({ level }),
                      },
                      ['id'],
                    ),
                  },
                },
                ['name'],
              ),
            },
            ['driver'],
          ),
          results: {
            type: 'array',
            items: closed(
              {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: -1 },
                level,
                message,
                locations: {
                  type: 'array',
                  items: closed({
                    physicalLocation: closed(
                      {
                        artifactLocation: closed(
                          { uri: { type: 'string', format: 'uri-reference' } },
                          ['uri'],
                        ),
                        region: closed(
                          {
                            startLine: { type: 'integer', minimum: 1 },
                            startColumn: { type: 'integer', minimum: 1 },
                          },
                          ['startLine'],
                        ),
                      },
                      ['artifactLocation'],
                    ),
                    logicalLocations: {
                      type: 'array',
                      items: closed({ fullyQualifiedName: { type: 'string' } }),
                    },
                  }),
                },
                suppressions: {
                  type: 'array',
                  items: closed(
                    { kind: { enum: ['inSource', 'external'] }, justification: { type: 'string' } },
                    ['kind'],
                  ),
                },
                properties: { type: 'object' },
              },
              ['message'],
            ),
          },
        },
        ['tool'],
      ),
    },
  },
  ['version', 'runs'],
);

interface Log {
  runs: {
    tool: { driver: { rules?: { id: string }[] } };
    results?: { ruleId?: string; ruleIndex?: number }[];
  }[];
}

/** The problems of a SARIF log (empty when it conforms). */
const OASIS = JSON.parse(
  readFileSync(new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const oasis = addFormats(new Ajv2020({ allErrors: true, strict: false }) as unknown as Ajv).compile(
  OASIS,
);

export function sarifProblems(text: string): string[] {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  const log = JSON.parse(text) as Log;
  if (!oasis(log))
    return (oasis.errors ?? []).map((e) => `OASIS schema: ${e.instancePath} ${e.message ?? ''}`);
  const validate = ajv.compile(SCHEMA);
  if (!validate(log))
    return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  const problems: string[] = [];
  for (const run of log.runs) {
    const rules = run.tool.driver.rules ?? [];
    for (const [i, r] of (run.results ?? []).entries()) {
      // §3.27.6: ruleIndex, when given, names the rule whose id is ruleId.
      if (r.ruleIndex !== undefined && rules[r.ruleIndex]?.id !== r.ruleId)
        problems.push(`/runs/0/results/${i}: ruleIndex ${r.ruleIndex} is not rule ${r.ruleId}`);
    }
  }
  return problems;
}
