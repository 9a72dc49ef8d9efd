/**
 * The inline stylesheet and script of the HTML report (no network: nothing is loaded from
 * anywhere). The script only opens failure details; it reads no report data, so no untrusted text
 * ever reaches JavaScript. The page's Content-Security-Policy allows this script by hash and
 * nothing else, a second line of defence behind the HTML escaping.
 */

export const STYLE = `
:root { --pass: #2e7d32; --pass-bg: #c8e6c9; --fail: #b71c1c; --fail-bg: #ffcdd2;
  --skip: #616161; --skip-bg: #eeeeee; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
  color: #1f2328; background: #fff; }
header, main { padding: 0 24px; }
header { border-bottom: 1px solid var(--line); padding-bottom: 12px; }
h1 { font-size: 22px; margin: 16px 0 4px; } h2 { font-size: 18px; margin: 24px 0 8px; }
.meta { color: var(--muted); margin: 2px 0; word-break: break-all; }
.totals { display: flex; gap: 12px; flex-wrap: wrap; list-style: none; padding: 0; margin: 10px 0 0; }
.totals li { padding: 4px 10px; border-radius: 12px; font-weight: 600; }
.totals .passed { background: var(--pass-bg); color: var(--pass); }
.totals .failed { background: var(--fail-bg); color: var(--fail); }
.totals .skipped, .totals .info, .totals .none-failed { background: var(--skip-bg); color: var(--skip); }
.key-missing { color: var(--fail); font-weight: 600; }
.errors { border: 1px solid var(--fail); background: #fff5f5; padding: 8px 12px; border-radius: 6px; }
.errors pre { margin: 4px 0; }
table { border-collapse: collapse; }
.matrix th, .matrix td { border: 1px solid var(--line); }
.matrix thead th { vertical-align: bottom; padding: 6px 2px; font-weight: 600; font-size: 12px; }
.matrix thead th span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }
.matrix tbody th { text-align: left; padding: 2px 8px; font-weight: 500; white-space: nowrap;
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
.matrix td { width: 30px; min-width: 30px; height: 26px; text-align: center; font-weight: 700; }
.matrix td a { display: block; color: inherit; text-decoration: none; }
td.passed { background: var(--pass-bg); color: var(--pass); }
td.failed { background: var(--fail); color: #fff; cursor: pointer; }
td.skipped { background: var(--skip-bg); color: var(--skip); }
td.none { background: repeating-linear-gradient(45deg, #fff, #fff 4px, #f4f4f4 4px, #f4f4f4 8px); }
tr.has-failure th { color: var(--fail); }
.legend { color: var(--muted); margin: 6px 0; }
.legend span { display: inline-block; width: 14px; height: 14px; vertical-align: -2px;
  border: 1px solid var(--line); margin: 0 4px 0 12px; }
.coverage td, .coverage th { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; }
.bar { width: 160px; height: 10px; background: var(--skip-bg); border-radius: 5px; overflow: hidden; }
.bar i { display: block; height: 100%; background: var(--pass); }
.never { margin: 6px 0 0; }
.never code { background: #f6f8fa; padding: 0 4px; border-radius: 4px; margin-right: 4px; }
details.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail);
  border-radius: 6px; margin: 8px 0; padding: 0 12px; }
details.failure[open] { background: #fffafa; }
details.failure > summary { cursor: pointer; padding: 8px 0; font-weight: 600; }
details.failure:target, details.failure.flash { outline: 3px solid #f9a825; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0 0 10px; }
dt { font-weight: 600; color: var(--muted); }
dd { margin: 0; min-width: 0; }
pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; padding: 6px 8px;
  border-radius: 4px; margin: 0; }
.exchanges { font-size: 12px; margin: 0 0 12px; }
.exchanges th, .exchanges td { border-bottom: 1px solid var(--line); padding: 2px 6px;
  text-align: left; vertical-align: top; }
.exchanges td.url { word-break: break-all; }
button { font: inherit; padding: 3px 10px; margin-right: 6px; }
.all td, .all th { padding: 2px 8px; border-bottom: 1px solid var(--line); text-align: left; font-size: 12px; }
`;

/** Opens (and scrolls to) the failure a clicked grid cell points at; expand and collapse all. */
export const SCRIPT = `
(function () {
  function open(id) {
    var el = document.getElementById(id);
    if (!el) return;
    el.open = true;
    el.classList.add('flash');
    el.scrollIntoView({ block: 'start' });
  }
  document.addEventListener('click', function (ev) {
    var cell = ev.target.closest && ev.target.closest('td.failed[data-failure]');
    if (cell) { ev.preventDefault(); history.replaceState(null, '', '#' + cell.dataset.failure); open(cell.dataset.failure); }
    var all = ev.target.closest && ev.target.closest('button[data-toggle]');
    if (all) {
      var want = all.dataset.toggle === 'open';
      document.querySelectorAll('details.failure').forEach(function (d) { d.open = want; });
    }
  });
  if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1)));
})();
`;
