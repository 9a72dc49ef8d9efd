/**
 * The template engine: an isolated, strict Handlebars instance with HTML escaping off and only
 * context-aware escaping helpers for spec data (see escape.ts). `SAFE_HELPERS` lists the helpers a
 * template may interpolate through; test/generator/template-safety.test.ts enforces it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { toFileStem, toTypeName } from '../../model/identifiers.ts';
import {
  identifier,
  jsdocText,
  jsonLiteral,
  lineComment,
  markdownBlock,
  markdownInline,
  markdownCode,
  markdownText,
  propertyKey,
  stringLiteral,
  templateText,
} from './escape.ts';

import { scanTemplate } from './template-scan.ts';

export { DATA_HELPERS, SAFE_HELPERS } from './template-scan.ts';

export interface TemplateSet {
  /** Relative template path (e.g. `client/index.ts.hbs`) -> compiled template. */
  templates: Map<string, Handlebars.TemplateDelegate>;
}

export function createEngine(): typeof Handlebars {
  const hb = Handlebars.create();
  const last = <T>(args: T[]) => args.slice(0, -1); // drop Handlebars' options argument
  hb.registerHelper('str', (v: unknown) => stringLiteral(v));
  hb.registerHelper('json', (v: unknown) => jsonLiteral(v));
  // A value's JSON text as a string literal (for JSON.parse): the compiler never types it.
  hb.registerHelper('jsonstr', (v: unknown) => stringLiteral(JSON.stringify(v ?? null)));
  hb.registerHelper('tpl', (v: unknown) => templateText(v));
  hb.registerHelper('key', (v: unknown) => propertyKey(v));
  hb.registerHelper('ident', (v: unknown) => identifier(v));
  hb.registerHelper('type', (v: unknown) => identifier(toTypeName(String(v ?? ''))));
  hb.registerHelper('comment', (v: unknown) => lineComment(v));
  hb.registerHelper('jsdoc', (v: unknown) => jsdocText(v));
  hb.registerHelper('file', (v: unknown) => toFileStem(String(v ?? '')));
  hb.registerHelper('md', (v: unknown) => markdownText(v));
  hb.registerHelper('mdcode', (v: unknown) => markdownCode(v));
  hb.registerHelper('mdblock', (v: unknown) => markdownBlock(v));
  hb.registerHelper('mdinline', (v: unknown) => markdownInline(v));
  hb.registerHelper('mdcell', (v: unknown) => markdownInline(v, true));
  hb.registerHelper('eq', (...args: unknown[]) => last(args)[0] === last(args)[1]);
  hb.registerHelper('and', (...args: unknown[]) => last(args).every(Boolean));
  hb.registerHelper('or', (...args: unknown[]) => last(args).some(Boolean));
  hb.registerHelper('not', (v: unknown) => !v);
  hb.registerHelper('hasItems', (v: unknown) => Array.isArray(v) && v.length > 0);
  return hb;
}

/** Reads every `*.hbs` under `dir`; `_partials/` become partials named by their file stem. */
export async function loadTemplates(dir: string, hb: typeof Handlebars): Promise<TemplateSet> {
  return compileTemplates(await readTemplates(dir), hb);
}

/**
 * The templates under `dir` compiled by an engine of their own, kept for the process while every
 * template's text stays the same: a process that generates many times (the tests, a long-lived
 * tool) parsed and compiled them again on each run (about 20 ms of CPU each).
 */
export async function keptTemplates(dir: string): Promise<TemplateSet> {
  const texts = await readTemplates(dir);
  const key = JSON.stringify(texts);
  const known = kept.get(dir);
  if (known?.key === key) return known.set;
  const set = compileTemplates(texts, createEngine());
  kept.set(dir, { key, set });
  return set;
}

const kept = new Map<string, { key: string; set: TemplateSet }>();

/** [relative path with `/`, text] of every `*.hbs` under `dir`, in path order. */
async function readTemplates(dir: string): Promise<[string, string][]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.hbs')).sort();
  return Promise.all(
    files.map(async (rel): Promise<[string, string]> => [
      rel.split(path.sep).join('/'),
      await readFile(path.join(dir, rel), 'utf8'),
    ]),
  );
}

function compileTemplates(texts: [string, string][], hb: typeof Handlebars): TemplateSet {
  const templates = new Map<string, Handlebars.TemplateDelegate>();
  for (const [rel, text] of texts) {
    // A template that could pass spec text through unescaped is refused, not just flagged by a test.
    const findings = scanTemplate(text, rel);
    if (findings.length > 0) {
      const lines = findings.map((f) => `  ${f.file}:${f.line}:${f.column}: ${f.message}`);
      throw new Error(
        `unsafe template (spec data must go through an escaping helper):\n${lines.join('\n')}`,
      );
    }
    const options = { strict: true, noEscape: true, preventIndent: true } as const;
    if (rel.split('/').includes('_partials')) {
      hb.registerPartial(path.basename(rel, '.hbs'), hb.compile(text, options));
    } else {
      templates.set(rel, hb.compile(text, options));
    }
  }
  return { templates };
}
