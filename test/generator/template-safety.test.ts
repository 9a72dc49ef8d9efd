/**
 * Template safety: every `{{...}}` in templates/ goes through an escaping helper (SAFE_HELPERS),
 * blocks are #each/#if/#unless/#with with data helpers only, no triple-stash. The scanner is
 * proved on planted templates in a temporary folder, bad and good.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAFE_HELPERS } from '../../generator/emit/engine.ts';
import { scanTemplates, type TemplateFinding } from '../../generator/emit/template-scan.ts';
import { cleanup, ROOT, scratch } from './helpers.ts';

describe('templates/', () => {
  it('interpolates spec data only through escaping helpers', async () => {
    const dir = path.join(ROOT, 'templates');
    const count = (await readdir(dir, { recursive: true })).filter((f) =>
      f.endsWith('.hbs'),
    ).length;
    expect(count).toBeGreaterThan(0);
    const findings = await scanTemplates(dir);
    expect(findings.map((f) => `templates/${f.file}:${f.line}:${f.column} ${f.message}`)).toEqual(
      [],
    );
  });

  it('SAFE_HELPERS is the documented list', () => {
    expect([...SAFE_HELPERS].sort()).toEqual(
      [
        'comment',
        'file',
        'ident',
        'json',
        'jsonstr',
        'jsdoc',
        'key',
        'str',
        'tpl',
        'type',
        'md',
        'mdcode',
        'mdblock',
        'mdinline',
        'mdcell',
      ].sort(),
    );
  });
});

/** Each bad template has exactly one unsafe spot; `line` is where it is. */
const BAD: Record<string, { text: string; line: number; message: RegExp }> = {
  'bare.ts.hbs': {
    text: '// ok\nconst s = "{{op.summary}}";\n',
    line: 2,
    message: /op\.summary.*without an escaping helper/,
  },
  'triple.ts.hbs': { text: 'const s = {{{str op.summary}}};\n', line: 1, message: /triple-stash/ },
  'ampersand.ts.hbs': {
    text: '\n\nconst s = {{& op.summary}};\n',
    line: 3,
    message: /triple-stash/,
  },
  'this.ts.hbs': {
    text: '{{#each model.operations}}\n  {{this}}\n{{/each}}\n',
    line: 2,
    message: /this/,
  },
  'index.ts.hbs': { text: '{{#each xs}}{{@index}}{{/each}}', line: 1, message: /@index/ },
  'unknown-helper.ts.hbs': { text: '{{lookup op "summary"}}', line: 1, message: /lookup/ },
  'no-args.ts.hbs': { text: 'x{{str}}', line: 1, message: /str/ },
  'block-helper.ts.hbs': {
    text: '{{#str op.id}}x{{/str}}',
    line: 1,
    message: /block \{\{#str\}\}/,
  },
  'block-param.ts.hbs': {
    text: '{{#if (lookup op "x")}}y{{/if}}',
    line: 1,
    message: /lookup.*not a data helper/,
  },
  'inside-else.ts.hbs': {
    text: '{{#if a}}\n{{else if b}}\n{{else}}\n{{op.description}}\n{{/if}}',
    line: 4,
    message: /op\.description/,
  },
  'in-partial/_partials/p.hbs': { text: '{{#each xs}}{{name}}{{/each}}', line: 1, message: /name/ },
  'decorator.ts.hbs': { text: '{{#*inline "x"}}y{{/inline}}', line: 1, message: /Decorator/ },
  'broken.ts.hbs': { text: '{{#if a}}\n', line: 2, message: /does not parse/ },
};

const GOOD = [
  '// {{comment header}}\nexport const id = {{json op.id}};\n',
  '/** {{jsdoc op.description}} */\nexport function {{ident op.id}}() { return `{{tpl op.path}}`; }\n',
  '{{#each model.operations}}{{key name}}: {{str path}},{{else}}{{!-- none --}}{{/each}}',
  '{{#if (and (eq op.method "get") (not (hasItems op.parameters)))}}a{{else if (or a b)}}b{{else}}c{{/if}}',
  '{{#unless x}}{{~type op.id~}}{{/unless}}{{#with op}}{{file id}}{{/with}}{{> shared}}',
  '{{#each op.parameters as |p|}}{{ident p.identifier}}{{/each}}',
];

describe('the scanner', () => {
  let findings: TemplateFinding[];
  let good: TemplateFinding[];
  let dir: string;
  afterAll(() => cleanup(dir));
  beforeAll(async () => {
    dir = await scratch('template-scan', true);
    for (const [rel, { text }] of Object.entries(BAD)) {
      await mkdir(path.dirname(path.join(dir, 'bad', rel)), { recursive: true });
      await writeFile(path.join(dir, 'bad', rel), text);
    }
    await mkdir(path.join(dir, 'good/_partials'), { recursive: true });
    for (const [i, text] of GOOD.entries())
      await writeFile(path.join(dir, 'good', `t${i}.ts.hbs`), text);
    await writeFile(path.join(dir, 'good/_partials/shared.hbs'), '{{str x}}');
    findings = await scanTemplates(path.join(dir, 'bad'));
    good = await scanTemplates(path.join(dir, 'good'));
  });

  for (const [rel, { line, message }] of Object.entries(BAD)) {
    it(`fails on a planted ${rel}`, () => {
      const mine = findings.filter((f) => f.file === rel);
      expect(mine, JSON.stringify(findings)).toHaveLength(1);
      expect(mine[0]?.line).toBe(line);
      expect(mine[0]?.message).toMatch(message);
    });
  }

  it('accepts helpers, blocks with data helpers, else chains, partials and comments', () => {
    expect(good).toEqual([]);
  });
});

describe('the engine', () => {
  it('refuses to render from an unsafe template, and writes nothing', async () => {
    const { createEngine, loadTemplates } = await import('../../generator/emit/engine.ts');
    const dir = await scratch('unsafe-templates');
    await mkdir(path.join(dir, 'client'), { recursive: true });
    await writeFile(
      path.join(dir, 'client', 'index.ts.hbs'),
      '// {{comment header}}\nexport const a = 1;\n',
    );
    // Good alone: it loads.
    await expect(loadTemplates(dir, createEngine())).resolves.toBeDefined();
    await writeFile(path.join(dir, 'client', 'leak.ts.hbs'), '/** {{op.description}} */\n');
    await expect(loadTemplates(dir, createEngine())).rejects.toThrow(
      /unsafe template[\s\S]*client\/leak\.ts\.hbs:1:5/,
    );
  });
});

describe('kept templates', () => {
  it('are compiled once per process while their texts stay the same, and again when one changes', async () => {
    const { keptTemplates } = await import('../../generator/emit/engine.ts');
    const dir = await scratch('kept-templates');
    await mkdir(path.join(dir, 'client'), { recursive: true });
    const file = path.join(dir, 'client', 'index.ts.hbs');
    await writeFile(file, 'export const a = {{json value}};\n');
    const first = await keptTemplates(dir);
    expect(await keptTemplates(dir)).toBe(first);
    await writeFile(file, 'export const b = {{json value}};\n');
    const changed = await keptTemplates(dir);
    expect(changed).not.toBe(first);
    expect(changed.templates.get('client/index.ts.hbs')!({ value: 1 })).toBe(
      'export const b = 1;\n',
    );
    // Still refused when a template turns unsafe.
    await writeFile(file, '/** {{op.description}} */\n');
    await expect(keptTemplates(dir)).rejects.toThrow(/unsafe template/);
  });
});

describe('markdownInline (the description author’s Markdown on one line)', () => {
  it('keeps inline code, joins lines, neutralises HTML and a block opener, escapes | in a cell', async () => {
    const { markdownInline } = await import('../../generator/emit/escape.ts');
    expect(markdownInline('At least `location`\nor `city`.')).toBe(
      'At least `location` or `city`.',
    );
    expect(markdownInline('<script>x</script>')).toBe('&lt;script>x&lt;/script>');
    expect(markdownInline('# not a heading')).toBe('\\# not a heading');
    expect(markdownInline('502. not an item')).toBe('502\\. not an item');
    expect(markdownInline('a | b', true)).toBe('a \\| b');
  });
});
