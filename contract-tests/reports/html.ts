/**
 * The HTML report: one self-contained page (inline CSS and script, nothing loaded from the network)
 * with the operations-by-checks matrix as a coloured grid, the coverage summary and every failure
 * expandable to its request and response excerpt.
 *
 * All text is HTML-escaped where it lands (response excerpts, headers and messages come from the
 * target, names from the spec); report data is rendered into markup on the server side and never
 * embedded as script. A Content-Security-Policy allows only the page's own script (by hash), so
 * markup that slipped through could still not run.
 */
import { expectedGotOf } from '../checks/verdict.ts';
import { createHash } from 'node:crypto';
import { CHECKS, type CheckResult, type ExchangeRecord } from '../results.ts';
import { html } from './escape.ts';
import { SCRIPT, STYLE } from './html-assets.ts';
import {
  answerLine,
  failuresOf,
  counted,
  fuzzLines,
  headline,
  responseOf,
  matrixOf,
  percent,
  unjudgedNote,
  waitsOf,
  type ContractReport,
  type MatrixRow,
} from './report.ts';
import {
  failureOf,
  faultsOf,
  messageOf,
  notKeptLine,
  notTestedOf,
  warningsOf,
} from './findings-view.ts';

const SYMBOL = { passed: '✓', failed: '✗', skipped: '·' } as const;

export function renderHtml(report: ContractReport): string {
  const failures = failuresOf(report);
  const ids = new Map<CheckResult, string>(failures.map((f, i) => [f, `f-${i + 1}`]));
  const hash = createHash('sha256').update(SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${html(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>dataapi contract report: ${report.summary.failed} failed</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    header(report),
    '<main>',
    runErrors(report),
    descriptionWarnings(report),
    toolkitFaults(report),
    matrix(matrixOf(report.results), ids),
    coverage(report),
    failureSection(failures, ids),
    allChecks(report),
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function header(r: ContractReport): string {
  const s = r.summary;
  const waits = waitsOf(r);
  const opts = [
    r.options.only ? `only ${r.options.only.join(', ')}` : '',
    r.options.shard ? `shard ${r.options.shard}` : '',
    `timeout ${r.options.timeoutMs} ms`,
    r.options.allowWrites ? 'writes allowed' : 'writes skipped',
    r.options.maxResponseTimeMs !== undefined
      ? `max response time ${r.options.maxResponseTimeMs} ms`
      : '',
    r.options.budget !== undefined ? `budget ${r.options.budget} requests` : '',
    r.options.fuzz !== undefined ? `--fuzz ${r.options.fuzz} --seed ${r.options.seed}` : '',
  ].filter(Boolean);
  return `<header>
<h1>dataapi contract report</h1>
<p class="meta" id="target">Target: <code>${html(r.target.baseUrl)}</code>${r.target.embeddedMock ? ' (embedded mock)' : ''}</p>${keyNote(r)}
<p class="meta">Started ${html(r.startedAt)}, took ${(r.durationMs / 1000).toFixed(1)} s; ${html(opts.join('; '))}</p>
<ul class="totals" id="totals">
<li class="passed">${s.passed} passed</li><li class="${s.failed ? 'failed' : 'none-failed'}">${s.failed} failed</li><li class="skipped">${s.skipped} skipped</li>
<li class="info">${counted(new Set(r.results.map((x) => x.operation)).size, 'operation')}</li><li class="info">${counted(s.requests, 'request')}</li>${waits.retries ? `<li class="info">429 retries: ${waits.retries} (waited ${Math.round(waits.waitedMs)} ms)</li>` : ''}${r.budgetExhausted ? '<li class="failed">request budget ran out</li>' : ''}${unjudgedNote(r) ? `<li class="skipped" id="unjudged">traffic: ${html(unjudgedNote(r))}</li>` : ''}
</ul>
</header>`;
}

/** A run against a deployment without DATAAPI_APPKEY, on a description that declares security. */
function keyNote(r: ContractReport): string {
  if (r.target.embeddedMock || r.target.keyProvided !== false) return '';
  if (!r.results.some((x) => notTestedOf(x)?.code === 'no-credentials')) return '';
  return '\n<p class="meta key-missing" id="key-missing">No key was set (DATAAPI_APPKEY was empty): operations that need one were not tested (no-credentials), only their refusal of no key and a wrong key.</p>';
}

function runErrors(r: ContractReport): string {
  if (!r.errors.length) return '';
  return `<section class="errors" id="run-errors"><h2>Errors outside any check (${r.errors.length})</h2>
${r.errors.map((e) => `<pre>${html(e)}</pre>`).join('\n')}</section>`;
}

/** Requests the suite built wrong (recheck.ts): listed apart, neither the target's nor the description's. */
function toolkitFaults(r: ContractReport): string {
  const list = faultsOf(r);
  if (!list.length) return '';
  const rows = list
    .map(
      (f) =>
        `<tr><td>${html(f.operation)}</td><td>${html(f.check)}</td><td>${html(f.purpose)}</td><td><code>${html(`${f.request.method} ${f.request.url}`)}</code></td><td>${html(expectedGotOf(f.expected, f.actual))}</td><td>${html(f.why)}</td></tr>`,
    )
    .join('\n');
  return `<section class="warnings" id="toolkit-faults"><h2>Toolkit faults (${list.length})</h2>
<p>The suite's own mistakes, not failures of the target: please report them to dataapi.</p>
<table><thead><tr><th scope="col">operation</th><th scope="col">check</th><th scope="col">request for</th><th scope="col">request</th><th scope="col">answer</th><th scope="col">why</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>`;
}

function descriptionWarnings(r: ContractReport): string {
  const list = warningsOf(r);
  if (!list.length) return '';
  const rows = list
    .map(
      (w) =>
        `<tr><td><code>${html(w.pointer)}</code></td><td>${html(w.code)}</td><td>${html(w.operation ?? '')}</td><td>${html(w.message)}</td></tr>`,
    )
    .join('\n');
  return `<section class="warnings" id="description-warnings"><h2>Description warnings (${list.length})</h2>
<p>What the description gets wrong or leaves unsaid (${r.options.strict ? 'failing the run under --strict' : 'not failures of the target'}).</p>
<table><thead><tr><th scope="col">JSON pointer</th><th scope="col">code</th><th scope="col">operation</th><th scope="col">warning</th></tr></thead>
<tbody>
${rows}
</tbody></table></section>`;
}

function matrix(rows: MatrixRow[], ids: Map<CheckResult, string>): string {
  const head = CHECKS.map(
    (c) =>
      `<th scope="col" data-check="${html(c)}" title="${html(c)}"><span>${html(c)}</span></th>`,
  ).join('');
  const body = rows.map((row) => {
    const failed = Object.values(row.cells).some((c) => c?.status === 'failed');
    const cells = CHECKS.map((c) => {
      const r = row.cells[c];
      if (!r)
        return `<td class="none" data-check="${html(c)}" title="${html(`${c}: not run for this variant`)}"></td>`;
      const title = html(`${c}: ${r.status}: ${messageOf(r)}`);
      const id = ids.get(r);
      return id
        ? `<td class="failed" data-check="${html(c)}" data-status="failed" data-failure="${id}" title="${title}"><a href="#${id}">${SYMBOL.failed}</a></td>`
        : `<td class="${html(r.status)}" data-check="${html(c)}" data-status="${html(r.status)}" title="${title}">${html(SYMBOL[r.status])}</td>`;
    }).join('');
    return `<tr data-operation="${html(row.operation)}" data-variant="${html(row.variant)}"${failed ? ' class="has-failure"' : ''}><th scope="row">${html(row.label)}</th>${cells}</tr>`;
  });
  return `<section id="matrix-section"><h2>Operations by checks</h2>
<table class="matrix" id="matrix"><thead><tr><th scope="col">operation</th>${head}</tr></thead>
<tbody>
${body.join('\n')}
</tbody></table>
<p class="legend"><span class="c passed" style="background:var(--pass-bg)"></span>passed<span style="background:var(--fail)"></span>failed (click for details)<span style="background:var(--skip-bg)"></span>skipped (hover for why)<span class="none"></span>not run for the variant</p>
</section>`;
}

function coverage(r: ContractReport): string {
  const c = r.coverageReport;
  const row = (id: string, name: string, t: { covered: number; total: number }) => {
    const pct = t.total ? (100 * t.covered) / t.total : 0;
    return `<tr data-coverage="${id}"><th scope="row">${name}</th><td>${t.covered} / ${t.total}</td><td>${percent(t)}</td><td><div class="bar"><i style="width:${pct.toFixed(1)}%"></i></div></td></tr>`;
  };
  const codes = (xs: (string | number)[]) =>
    xs.length ? xs.map((x) => `<code>${html(x)}</code>`).join(' ') : 'none';
  const never: string[] = [
    `<p class="never"><b>Operations:</b> ${codes(c.operations.missed)}</p>`,
    `<p class="never"><b>Preview variants:</b> ${codes(c.previews.missed)}</p>`,
    ...Object.entries(c.statuses)
      .filter(([, s]) => s.missed.length)
      .map(
        ([op, s]) => `<p class="never"><b>HTTP statuses of ${html(op)}:</b> ${codes(s.missed)}</p>`,
      ),
    ...Object.entries(c.businessCodes)
      .filter(([, g]) => g.missed.length)
      .map(
        ([name, g]) =>
          `<p class="never"><b>Business codes of group ${html(name)}</b> (${html(g.operations.join(', '))}): ${codes(g.missed)}</p>`,
      ),
    ...Object.entries(c.parameters)
      .filter(([, p]) => p.missed.length)
      .map(
        ([op, p]) => `<p class="never"><b>Parameters of ${html(op)}:</b> ${codes(p.missed)}</p>`,
      ),
  ];
  if (c.fuzz)
    for (const [name, items] of [
      ['Enum values (fuzz)', c.fuzz.missed.enumValues],
      ['Presence (fuzz)', c.fuzz.missed.presence],
      ['Boundary values (fuzz)', c.fuzz.missed.boundaries],
    ] as const)
      if (items.length) never.push(`<p class="never"><b>${name}:</b> ${codes(items)}</p>`);
  if (c.operations.notInRun.length)
    never.push(`<p class="never"><b>Not in this run:</b> ${codes(c.operations.notInRun)}</p>`);
  return `<section id="coverage"><h2>Coverage</h2>
<table class="coverage"><tbody>
${row('operations', 'Operations', c.totals.operations)}
${row('previews', 'Preview variants', c.totals.previews)}
${row('statuses', 'Declared HTTP statuses', c.totals.statuses)}
${row('businessCodes', 'Business codes', c.totals.businessCodes)}
${row('parameters', 'Parameters and body fields', c.totals.parameters)}
${c.fuzz ? row('fuzzEnumValues', 'Enum values (fuzz)', c.fuzz.totals.enumValues) : ''}
${c.fuzz ? row('fuzzPresence', 'Fields present and absent (fuzz)', c.fuzz.totals.presence) : ''}
${c.fuzz ? row('fuzzBoundaries', 'Boundary values (fuzz)', c.fuzz.totals.boundaries) : ''}
</tbody></table>
<details id="never-reached"><summary>Never reached</summary>
${never.join('\n')}
</details>
</section>`;
}

function failureSection(failures: CheckResult[], ids: Map<CheckResult, string>): string {
  if (!failures.length) return '<section id="failures"><h2>Failures</h2><p>None.</p></section>';
  return `<section id="failures"><h2>Failures (${failures.length})</h2>
<p><button type="button" data-toggle="open">Expand all</button><button type="button" data-toggle="close">Collapse all</button></p>
${failures.map((f) => failure(f, ids.get(f)!)).join('\n')}
</section>`;
}

function failure(f: CheckResult, id: string): string {
  const field = (name: string, value: string | undefined, cls = '') =>
    value === undefined
      ? ''
      : `<dt>${name}</dt><dd><pre${cls ? ` class="${cls}"` : ''}>${html(value)}</pre></dd>`;
  const variant = f.variant === 'preview' ? ' (preview)' : '';
  const response = responseOf(f);
  const v = failureOf(f);
  return `<details class="failure" id="${id}" data-operation="${html(f.operation)}" data-variant="${html(f.variant)}" data-check="${html(f.check)}">
<summary>✗ ${html(f.operation)}${variant} · ${html(headline(f))}</summary>
<dl>
${field('Request', v?.request ? `${v.request.method} ${v.request.url}` : undefined, 'request')}
${field('Expected', v?.expected)}
${field('Actual', v?.actual)}
${v?.errors.length ? `<dt>Errors</dt><dd><pre class="errors-list">${html(v.errors.join('\n'))}</pre></dd>` : ''}${v?.notKept ? field('Not kept', notKeptLine(v.notKept)) : ''}
${field('Offending value', v?.excerpt, 'excerpt')}
${response ? field('Response', answerLine(response), 'answer') : ''}
${response?.excerpt !== undefined ? field('Response excerpt', response.excerpt, 'response') : ''}
${f.waitedMs > 0 ? `<dt>Waited</dt><dd>${Math.round(f.waitedMs)} ms on 429 Retry-After</dd>` : ''}
${f.fuzz ? field('Fuzzing', fuzzLines(f.fuzz).join('\n'), 'fuzz') : ''}
</dl>
${exchanges(f.exchanges)}
</details>`;
}

function exchanges(list: ExchangeRecord[]): string {
  if (!list.length) return '';
  const rows = list.map(
    (e) =>
      `<tr><td>${html(e.request.method)}</td><td class="url">${html(e.request.url)}</td><td>${html(e.request.purpose)}</td><td>${html(e.status ?? e.error ?? '')}</td><td>${html(e.businessCode ?? '')}</td><td>${html(e.contentType ?? '')}</td><td>${e.durationMs.toFixed(0)} ms${e.retries ? `, ${e.retries} retries, waited ${Math.round(e.waitedMs)} ms` : ''}</td></tr>`,
  );
  return `<table class="exchanges"><thead><tr><th>method</th><th>url</th><th>purpose</th><th>status</th><th>code</th><th>content type</th><th>time</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** Every check with its message (why a check was skipped, what passed), collapsed. */
function allChecks(r: ContractReport): string {
  const rows = r.results.map(
    (x) =>
      `<tr><td>${html(x.operation)}</td><td>${html(x.variant)}</td><td>${html(x.check)}</td><td>${html(x.status)}</td><td>${html(messageOf(x))}</td></tr>`,
  );
  return `<section id="all-checks"><details><summary>All ${r.results.length} checks</summary>
<table class="all"><thead><tr><th>operation</th><th>variant</th><th>check</th><th>status</th><th>message</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></details></section>`;
}
