// The report's only stylesheet, inlined in the page: no external assets, readable on screen and
// on paper. Colours meet WCAG AA contrast on white (text #1a1a1a ≈ 17:1, badges ≥ 7:1).
export const REPORT_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 80rem; padding: 1.5rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #1a1a1a; background: #fff; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 2px solid #1a1a1a; padding-bottom: .2rem; }
.meta { margin: 0; color: #333; }
.verdict { font-weight: 600; padding: .6rem .8rem; border-left: .4rem solid; margin: 1rem 0; }
.verdict.needs { border-color: #8b0000; background: #fdecea; }
.verdict.clear { border-color: #1e5631; background: #eaf5ec; }
.action { margin: .25rem 0 .75rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
th, td { border: 1px solid #8c8c8c; padding: .3rem .45rem; vertical-align: top; text-align: left; }
thead th { background: #e8e8e8; }
tbody th { font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.date { white-space: nowrap; }
td.id, th.id { color: #4d4d4d; font-size: .75em; }
.ref { font-size: .8em; color: #4d4d4d; }
.iban { white-space: nowrap; }
tr.off td { font-weight: 700; }
td.note { font-size: .8em; color: #333; overflow-wrap: anywhere; }
td.id { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
details.zero { color: #4d4d4d; margin: 0.5em 0; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: .2rem; color: #fff; font-size: .8rem; font-weight: 600; }
.badge.error { background: #8b0000; }
.badge.warning { background: #6b4400; }
.badge.info { background: #1f4e79; }
.truncated { font-style: italic; }
a { color: #0b4a8b; }
@page { size: A4 landscape; margin: 10mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  a { color: inherit; text-decoration: none; }
  .verdict, thead th { background: none; }
  .badge { color: #000; background: none; border: 1px solid #000; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  h2 { break-after: avoid; }
}
`;
