// The accountant's report of a payment file pickup refused, partly accepted or accepted with
// held lines, as text (error/NAME.errors.txt) and as HTML (error/NAME.errors.html, opened from the
// console's file page), in the company's language. It opens with one line saying what happened to
// the file; then each problem in the file's own words (file-problems.ts); the held lines; and last
// a part for the operator: the settings advice and the technical listing with the issue codes.
import type { Issue } from '../../domain/issue.js';
import { Document, InlineStyle, render, type Html } from '../../html/index.js';
import { CATALOGUES, codeCell, format, translate, type Locale } from '../../i18n/index.js';
import { fileProblems, problemLine, type Problem, type ProfileView } from './file-problems.js';
import { REPORT_CSS } from './html-style.js';

export type { ProfileView } from './file-problems.js';

export interface FileOutcome {
  kind: 'accepted' | 'partially-accepted' | 'rejected';
  /** Payments in the file. */
  payments: number;
  /** Lines accepted (sent on the next submit unless held). */
  accepted: number;
  /** Accepted lines held for a person. */
  held: number;
}

export interface HeldEntry {
  row?: number;
  reference: string;
  /** The rules that held it: "duplicate" for a likely duplicate, else the payment controls' rules. */
  rules: readonly string[];
  /** Why it is held: the evidence, as the controls give it. */
  reason: string;
}

export interface RefusedFileReport {
  fileName: string;
  outcome: FileOutcome;
  /** The file's issues, their quoted values already clipped (clipIssues). */
  issues: readonly Issue[];
  /** The held lines listed for a person: the first of them when there are very many (heldNotListed). */
  held: readonly HeldEntry[];
  /**
   * Held lines beyond `held`, counted but not listed: a file can hold hundreds of thousands, and a
   * report of each in words would be hundreds of megabytes nobody reads. `jsonName` says where
   * every one is listed.
   */
  heldNotListed?: { count: number; jsonName: string };
  /**
   * Problems beyond those described, counted: a result keeps its first 1,000 issues (IssueList).
   * Where every one is listed: at the end of `settle validate`'s output, after the technical
   * listing, or in the JSON report beside this one, `jsonName` (pickup).
   */
  problemsNotDescribed?: { count: number; listedIn: 'listing' } | { count: number; listedIn: 'json'; jsonName: string };
  /** The CSV profile the file was read with; none for pain.001. */
  profile?: ProfileView;
  /** The technical listing (codes, fields, places), for the operator. */
  listing: string;
  locale: Locale;
}

/** The report's first line: what happened to the file, and what to do with it. */
export function outcomeLine(o: FileOutcome, locale: Locale): string {
  const values = { payments: o.payments, accepted: o.accepted, held: o.held, refused: o.payments - o.accepted };
  if (o.kind === 'rejected') return translate(locale, 'refusedReport.outcome.rejected');
  return translate(
    locale,
    o.kind === 'accepted' ? 'refusedReport.outcome.accepted' : 'refusedReport.outcome.partial',
    values,
  );
}

function heldLine(h: HeldEntry, locale: Locale): string {
  return translate(locale, 'refusedReport.heldLine', {
    row: h.row ?? '–',
    reference: h.reference,
    duplicate: h.rules.includes('duplicate') ? 'yes' : 'no',
    rules: format.list(
      h.rules.map((r) => codeCell('rule', r, locale)),
      locale,
    ),
    reason: h.reason,
  });
}

/** Every held line, listed or not. */
function heldCount(r: RefusedFileReport): number {
  return r.held.length + (r.heldNotListed?.count ?? 0);
}

/** The sentence saying how many held lines are not listed, and where they are; none when all are. */
function heldMore(r: RefusedFileReport): string | undefined {
  const more = r.heldNotListed;
  if (!more || more.count === 0) return undefined;
  return translate(r.locale, 'refusedReport.heldMore', { count: more.count, json: more.jsonName });
}

/** Every problem, described or not. */
function problemCount(r: RefusedFileReport, described: number): number {
  return described + (r.problemsNotDescribed?.count ?? 0);
}

/** The sentence saying how many problems are not described, and where they are; none when all are. */
function problemsMore(r: RefusedFileReport): string | undefined {
  const more = r.problemsNotDescribed;
  if (!more || more.count === 0) return undefined;
  return translate(r.locale, 'refusedReport.problemsMore', {
    count: more.count,
    listedIn: more.listedIn,
    json: more.listedIn === 'json' ? more.jsonName : '',
  });
}

function operatorPart(r: RefusedFileReport, operator: readonly string[]): readonly string[] {
  return operator.length > 0 ? operator : [translate(r.locale, 'refusedReport.operatorNone')];
}

export function renderRefusedFileText(r: RefusedFileReport): string {
  const { problems, operator } = fileProblems(r.issues, r.profile, r.locale);
  const say = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) =>
    translate(r.locale, key, values);
  // Pushed one by one: a file of a million lines can have hundreds of thousands of problems or held
  // lines, more than a spread's arguments may be.
  const out = [outcomeLine(r.outcome, r.locale), ''];
  const counted = problemCount(r, problems.length);
  if (counted > 0) {
    out.push(say('refusedReport.problems', { count: counted }));
    for (const p of problems) out.push(`  ${problemLine(p, r.locale)}`);
    const more = problemsMore(r);
    if (more !== undefined) out.push(`  ${more}`);
    out.push('');
  }
  if (heldCount(r) > 0) {
    out.push(say('refusedReport.held', { count: heldCount(r) }));
    for (const h of r.held) out.push(`  ${heldLine(h, r.locale)}`);
    const more = heldMore(r);
    if (more !== undefined) out.push(`  ${more}`);
    out.push('');
  }
  out.push(say('refusedReport.operator'));
  for (const a of operatorPart(r, operator)) out.push(`  ${a}`);
  out.push('', r.listing);
  return out.join('\n');
}

const WRAP_CSS = `td, th, p, li, pre { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; font-size: .8rem; }
@media (max-width: 40rem) { body { padding: .75rem; } table, thead, tbody, tr, th, td { display: block; } thead { display: none; } td { border: 0; padding: .1rem 0; } tr { border-top: 1px solid #8c8c8c; padding: .4rem 0; } td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; } }`;

export function renderRefusedFileHtml(r: RefusedFileReport): Html {
  const { problems, operator } = fileProblems(r.issues, r.profile, r.locale);
  const say = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) =>
    translate(r.locale, key, values);
  const title = say('refusedReport.title', { file: r.fileName });
  const counted = problemCount(r, problems.length);
  const more = problemsMore(r);
  return render(
    <Document lang={CATALOGUES[r.locale].tag}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <InlineStyle css={REPORT_CSS + WRAP_CSS} />
      </head>
      <body>
        <h1>{title}</h1>
        <p class={`verdict ${r.outcome.kind === 'accepted' ? 'clear' : 'needs'}`}>{outcomeLine(r.outcome, r.locale)}</p>
        {counted > 0 && (
          <section>
            <h2>{say('refusedReport.problems', { count: counted })}</h2>
            {problems.length > 0 && <ProblemTable problems={problems} locale={r.locale} />}
            {more !== undefined && <p>{more}</p>}
          </section>
        )}
        {heldCount(r) > 0 && (
          <section>
            <h2>{say('refusedReport.held', { count: heldCount(r) })}</h2>
            <ul>
              {r.held.map((h) => (
                <li>{heldLine(h, r.locale)}</li>
              ))}
            </ul>
            {heldMore(r) !== undefined && <p>{heldMore(r)}</p>}
          </section>
        )}
        <section>
          <h2>{say('refusedReport.operator')}</h2>
          <ul>
            {operatorPart(r, operator).map((a) => (
              <li>{a}</li>
            ))}
          </ul>
          <pre>{r.listing}</pre>
        </section>
      </body>
    </Document>,
  );
}

function ProblemTable({ problems, locale }: { problems: readonly Problem[]; locale: Locale }) {
  const head = (['row', 'column', 'value', 'problem', 'fix'] as const).map((c) =>
    translate(locale, `refusedReport.column.${c}`),
  );
  return (
    <table>
      <thead>
        <tr>
          {head.map((h) => (
            <th scope="col">{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {problems.map((p) => (
          <tr>
            <td data-label={head[0]}>{p.row === undefined ? p.where : String(p.row)}</td>
            <td data-label={head[1]}>{p.column ?? ''}</td>
            <td data-label={head[2]}>
              {p.value === undefined ? '' : p.value === '' ? translate(locale, 'refusedReport.noValue') : p.value}
            </td>
            <td data-label={head[3]}>{p.problem}</td>
            <td data-label={head[4]}>{p.fix}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
