/**
 * SARIF 2.1.0 logs (OASIS; what GitHub code scanning uploads): one run of one tool, its rules, and
 * results located by file (a path relative to the repository, forward slashes), line and column.
 * `dataapi diff --format sarif`, `dataapi lint --format sarif` and the contract reports' `sarif`
 * reporter all write through this: in the bottom layer, as the generator and the judge both use it.
 */
import path from 'node:path';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRule {
  id: string;
  description: string;
  level: SarifLevel;
}

export interface SarifResultInput {
  ruleId: string;
  level: SarifLevel;
  message: string;
  /** The file, as the report names it (a git side's `REV:path` names `path`). */
  file: string;
  line?: number;
  column?: number;
  /** `GET /v1/news (listNews)`: shown by viewers beside the location. */
  logical?: string;
  /** An accepted change (`--allow`, `x-dataapi-allow-breaking`): reported as suppressed. */
  suppressed?: string;
  /** Facts tools may filter on (the JSON pointer, the side, the severity as dataapi names it). */
  properties?: Record<string, string>;
}

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A repository-relative URI of a report's file name (`origin/main:spec/a.yaml` -> `spec/a.yaml`). */
export function artifactUri(file: string, cwd = process.cwd()): string {
  // A description given by URL is located by its URL.
  if (/^https?:\/\//i.test(file)) return file;
  // `REV:path` of a git side; a Windows drive letter (`C:\`) is no revision.
  const colon = file.indexOf(':');
  let p = colon > 1 && !/^[A-Za-z]:[\\/]/.test(file) ? file.slice(colon + 1) : file;
  if (path.isAbsolute(p)) p = path.relative(cwd, p);
  return p
    .split(/[\\/]+/)
    .map((s) => encodeURIComponent(s))
    .join('/');
}

export function sarifLog(
  tool: { name: string; version: string },
  rules: SarifRule[],
  results: SarifResultInput[],
): string {
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            rules: rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.description },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        results: results.map((r) => ({
          ruleId: r.ruleId,
          ...(index.has(r.ruleId) ? { ruleIndex: index.get(r.ruleId) } : {}),
          level: r.level,
          message: { text: r.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(r.file) },
                ...(r.line !== undefined
                  ? {
                      region: {
                        startLine: r.line,
                        ...(r.column !== undefined ? { startColumn: r.column } : {}),
                      },
                    }
                  : {}),
              },
              ...(r.logical !== undefined
                ? { logicalLocations: [{ fullyQualifiedName: r.logical }] }
                : {}),
            },
          ],
          ...(r.suppressed !== undefined
            ? { suppressions: [{ kind: 'external', justification: r.suppressed }] }
            : {}),
          ...(r.properties ? { properties: r.properties } : {}),
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
