// The console's one stylesheet, served from the app (/console/style.css): no external assets,
// no scripts; the CSP allows styles from 'self' only. Colours keep a contrast ratio ≥ 4.5:1.
// Every page fits a 390 px phone without scrolling sideways: a table wider than the screen
// scrolls inside its own region (div.table, src/html's Table and Facts), long words (ids, IBANs,
// file names) break anywhere outside tables and in a record's facts, and a cell never grows
// wider than a readable column.
export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f6f7f9}
a{color:#0b4fa8}
a:focus,button:focus,input:focus,select:focus{outline:3px solid #f0b400;outline-offset:1px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px}
header{background:#14213d;color:#fff;padding:8px 16px;display:flex;flex-wrap:wrap;gap:12px 24px;align-items:center}
header a{color:#fff}
header nav ul{list-style:none;margin:0;padding:0;display:flex;gap:16px;flex-wrap:wrap}
header nav a[aria-current=page]{font-weight:700;text-decoration:underline}
header form{display:inline-flex;gap:6px;align-items:center;margin:0}
header .who{margin-left:auto;display:flex;gap:10px;align-items:center}
main{padding:16px;max-width:1200px;overflow-wrap:anywhere}
.table{max-width:100%;overflow-x:auto;margin:0 0 12px}
.table table{margin:0;overflow-wrap:break-word}
td{max-width:28rem}
.table table:not(:has(thead)) :is(th,td){overflow-wrap:anywhere}
input:not([type=checkbox]):not([type=radio]),select{max-width:100%}
pre{white-space:pre-wrap}
h1{font-size:1.5rem;margin:0 0 12px}h2{font-size:1.15rem;margin:20px 0 8px}
table{border-collapse:collapse;width:100%;background:#fff;margin:0 0 12px}
th,td{border:1px solid #c9ced6;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#e9ecf1}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:#1d6b2f}.bad{color:#a4161a;font-weight:600}.warn{color:#7a4b00}
.box{background:#fff;border:1px solid #c9ced6;padding:12px;margin:0 0 12px}
button,input,select{font:inherit}
button{background:#0b4fa8;color:#fff;border:0;padding:4px 12px;cursor:pointer}
header button{background:#fff;color:#14213d}
label{display:block;margin:8px 0 2px}
.muted{color:#555e6b}
code{word-break:break-all}
pre.report{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid #c9ced6;padding:8px;font-size:.85rem;max-width:100%}
ul.filters{list-style:none;margin:0 0 12px;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px}
ul.filters a[aria-current=page]{font-weight:700}
.board tr.red th[scope=row]{border-left:6px solid #a4161a}
.board .links{font-size:.85rem}
@media (max-width:700px){
header{padding:8px}
header .who{margin-left:0}
main{padding:12px 8px}
.board table,.board tbody,.board tr,.board th,.board td{display:block}
.board thead{position:absolute;left:-9999px}
.board tr{border:1px solid #c9ced6;margin:0 0 12px;background:#fff}
.board th,.board td{border:0;border-top:1px solid #e9ecf1;text-align:left;overflow-wrap:anywhere}
.board td::before{content:attr(data-label) ": ";font-weight:600}
.stack table,.stack tbody,.stack tr,.stack td{display:block}
.stack thead{position:absolute;left:-9999px}
.stack caption{display:block;text-align:left}
.stack tr{border:1px solid #c9ced6;margin:0 0 12px;background:#fff}
.stack td{border:0;border-top:1px solid #e9ecf1;overflow-wrap:anywhere}
.stack td::before{content:attr(data-label) ": ";font-weight:600}
main table{overflow-wrap:anywhere}
}
`;
