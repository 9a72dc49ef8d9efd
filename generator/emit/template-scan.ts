/**
 * Template safety scan: spec data may reach generated code only through an escaping helper.
 *
 * Parses each template with Handlebars' own parser (so whitespace control, `else` chains and
 * comments are read as Handlebars reads them) and reports every output expression that is not
 * `{{helper ...}}` with a helper of SAFE_HELPERS, every block other than #each/#if/#unless/#with
 * (whose parameters may use only the data helpers), every triple-stash or `{{& ...}}`, raw block
 * and decorator. Partials and comments are allowed.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';

/** Helpers whose output is safe where their name says it lands (engine.ts registers them). */
export const SAFE_HELPERS = [
  'str',
  'json',
  'jsonstr',
  'tpl',
  'key',
  'ident',
  'type',
  'comment',
  'jsdoc',
  'file',
  'md',
  'mdcode',
  'mdblock',
  'mdinline',
  'mdcell',
] as const;
/** Helpers that return data for block use (#each, #if), never text. */
export const DATA_HELPERS = ['eq', 'and', 'or', 'not', 'hasItems'] as const;

export interface TemplateFinding {
  /** Template path relative to the scanned folder, `/`-separated. */
  file: string;
  line: number;
  column: number;
  message: string;
}

type Node = hbs.AST.Node;
const BLOCKS = new Set(['each', 'if', 'unless', 'with']);
const SAFE = new Set<string>(SAFE_HELPERS);
const DATA = new Set<string>(DATA_HELPERS);

const nameOf = (expr: hbs.AST.Expression): string | undefined =>
  expr.type === 'PathExpression' ? (expr as hbs.AST.PathExpression).original : undefined;

/** Parameters of a block: paths, literals and data-helper subexpressions (nested) only. */
function checkDataParam(expr: hbs.AST.Expression, report: (n: Node, m: string) => void): void {
  if (expr.type !== 'SubExpression') return;
  const sub = expr as hbs.AST.SubExpression;
  const name = nameOf(sub.path);
  if (name === undefined || !DATA.has(name)) {
    report(
      sub,
      `block parameter calls ${JSON.stringify(name ?? sub.path.type)}, not a data helper (${DATA_HELPERS.join(', ')})`,
    );
  }
  for (const p of sub.params) checkDataParam(p, report);
  for (const pair of sub.hash?.pairs ?? []) checkDataParam(pair.value, report);
}

export function scanTemplate(text: string, file: string): TemplateFinding[] {
  const findings: TemplateFinding[] = [];
  const report = (node: Node, message: string) =>
    findings.push({
      file,
      line: node.loc?.start.line ?? 1,
      column: (node.loc?.start.column ?? 0) + 1,
      message,
    });
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(text);
  } catch (err) {
    const m = /line (\d+)/.exec((err as Error).message);
    findings.push({
      file,
      line: m ? Number(m[1]) : 1,
      column: 1,
      message: `does not parse: ${(err as Error).message.split('\n')[0]}`,
    });
    return findings;
  }
  const visitProgram = (program: hbs.AST.Program | undefined) => {
    for (const node of program?.body ?? []) visit(node);
  };
  const visit = (node: hbs.AST.Statement) => {
    switch (node.type) {
      case 'ContentStatement':
      case 'CommentStatement':
        return;
      case 'PartialStatement':
        return;
      case 'PartialBlockStatement': {
        const p = node as unknown as hbs.AST.PartialBlockStatement;
        visitProgram(p.program);
        return;
      }
      case 'MustacheStatement': {
        const m = node as hbs.AST.MustacheStatement;
        const name = nameOf(m.path);
        if (!m.escaped) {
          report(
            m,
            `triple-stash or {{& }} output (${name ?? m.path.type}); use a safe helper in {{ }}`,
          );
        } else if (name === undefined || !SAFE.has(name) || m.params.length === 0) {
          report(
            m,
            `{{${name ?? m.path.type}${m.params.length ? ' …' : ''}}} interpolates without an escaping helper (${SAFE_HELPERS.join(', ')})`,
          );
        }
        return;
      }
      case 'BlockStatement': {
        const b = node as hbs.AST.BlockStatement;
        const name = nameOf(b.path);
        if (name === undefined || !BLOCKS.has(name)) {
          report(b, `block {{#${name ?? b.path.type}}} is not one of #each, #if, #unless, #with`);
        }
        for (const p of b.params) checkDataParam(p, report);
        for (const pair of b.hash?.pairs ?? []) checkDataParam(pair.value, report);
        visitProgram(b.program);
        visitProgram(b.inverse);
        return;
      }
      default:
        // DecoratorStatement, DecoratorBlock and anything a later Handlebars adds.
        report(node, `${node.type} is not allowed in templates`);
    }
  };
  visitProgram(ast);
  // The parser reads `{{{{raw}}}}` blocks as plain blocks named `raw`; catch their opening too.
  text.split('\n').forEach((line, i) => {
    const col = line.indexOf('{{{{');
    if (col !== -1) findings.push({ file, line: i + 1, column: col + 1, message: 'raw block' });
  });
  return findings;
}

/** Scans every `*.hbs` under `dir`. */
export async function scanTemplates(dir: string): Promise<TemplateFinding[]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.hbs')).sort();
  const findings: TemplateFinding[] = [];
  for (const rel of files) {
    const text = await readFile(path.join(dir, rel), 'utf8');
    findings.push(...scanTemplate(text, rel.split(path.sep).join('/')));
  }
  return findings;
}
