/**
 * The packed client's sources from templates/pack/: the entry (index.ts: the typed client,
 * standalone functions and the slim model), the README, LICENSE and third-party notices.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PARAMETER_LOCATIONS } from '../../model/queries.ts';
import type { ServiceModel } from '../../model/service-model.ts';
import { doNotEditHeader } from '../emit/header.ts';
import type { PackPlan } from './client-model.ts';
import { packageDir } from './package-dir.ts';
import { readmeOperations } from './readme.ts';

export interface PackTexts {
  name: string;
  version: string;
  tarball: string;
  baseUrl: string;
  license: { name: string; url?: string };
  specLabel: string;
}

export interface PackSources {
  entry: string;
  readme: string;
  license: string;
  notices: string;
}

const MIT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/** Notices of the packages whose code or declarations the client carries. */
async function notices(root: string) {
  const out = [];
  for (const name of ['openapi-fetch', 'openapi-typescript-helpers']) {
    const dir = packageDir(root, name);
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    const text = await readFile(path.join(dir, 'LICENSE'), 'utf8');
    out.push({ name, version: manifest.version, license: manifest.license, text });
  }
  return out;
}

/** A value as a TypeScript object literal (`{ query: { city: "北京" } }`), as people write it. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).map(
    ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v)}`,
  );
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/** An example call for the README: the first plain operation, its required parameters filled. */
function exampleOf(model: ServiceModel, plan: PackPlan) {
  const op =
    model.operations.find((o) => !o.streaming && !o.body && !o.async) ?? model.operations[0];
  if (!op) return undefined;
  const input: Record<string, Record<string, unknown>> = {};
  // The required parameters, and one of each group of which one must be sent (air quality's
  // location or city): a call the server accepts.
  const wanted = new Set(op.requireAnyOf.map((group) => group[0]));
  for (const where of PARAMETER_LOCATIONS)
    for (const p of op.parameters[where]) {
      if (!p.required && !(where === 'query' && wanted.has(p.name))) continue;
      (input[where] ??= {})[p.name] = p.example ?? (where === 'path' ? 'id' : 'value');
    }
  const name = plan.methods.find((m) => m.id === op.id)?.name ?? op.id;
  return {
    id: op.id,
    name,
    input: literal(input).replace(/[<]/g, '\\u003c'),
  };
}

export async function renderSources(
  root: string,
  model: ServiceModel,
  plan: PackPlan,
  texts: PackTexts,
): Promise<PackSources> {
  const { keptTemplates } = await import('../emit/engine.ts');
  const { templates } = await keptTemplates(path.join(root, 'templates', 'pack'));
  const render = (name: string, extra: object = {}) => {
    const template = templates.get(name);
    if (!template) throw new Error(`templates/pack/${name} is missing`);
    return template({ model, ...extra });
  };
  const header = doNotEditHeader(texts.specLabel, 'dataapi pack client');
  const pack = {
    ...plan,
    name: texts.name,
    version: texts.version,
    tarball: texts.tarball,
    baseUrl: texts.baseUrl,
    license: texts.license.name,
    licenseName: texts.license.name,
    licenseUrl: texts.license.url,
    example: exampleOf(model, plan),
    mitText: MIT,
    notices: await notices(root),
  };
  return {
    entry: render('index.ts.hbs', { header, pack }),
    readme: render('README.md.hbs', { pack, operations: readmeOperations(model) }),
    license: render('LICENSE.hbs', { pack }),
    notices: render('THIRD-PARTY-NOTICES.md.hbs', { pack }),
  };
}
