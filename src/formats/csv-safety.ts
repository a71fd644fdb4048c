// Spreadsheet formula injection (CSV injection): a cell that starts with = + - @ (or a tab or
// CR, which some spreadsheets skip before looking for one) is run as a formula when the file is
// opened in Excel or LibreOffice. Every CSV settle writes passes its cells through here.
// Rule (docs/formats/statement-csv.md "Formula injection"): such a cell gets a leading single
// quote, which spreadsheets show as text and do not evaluate. The one exception is a plain
// signed number in a column declared numeric (amounts): "-754.25" stays a number. Fullwidth
// forms of the trigger characters (＝ ＋ － ＠), which some spreadsheet locales also accept, are
// treated the same way.

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20']);
const PLAIN_NUMBER_DOT = /^-?\d+(\.\d+)?$/;
const PLAIN_NUMBER_COMMA = /^-?\d+(,\d+)?$/;

/** True when a spreadsheet could read `cell` as a formula. */
export function isFormulaLike(cell: string): boolean {
  return cell.length > 0 && TRIGGERS.has(cell.charAt(0));
}

/** A leading minus, digits, and at most one decimal separator followed by digits. */
export function isPlainSignedNumber(cell: string, decimalSeparator: '.' | ',' = '.'): boolean {
  return (decimalSeparator === '.' ? PLAIN_NUMBER_DOT : PLAIN_NUMBER_COMMA).test(cell);
}

/** Text cell: neutralised when formula-like. */
export function neutraliseFormula(cell: string): string {
  return isFormulaLike(cell) ? "'" + cell : cell;
}

/** Numeric cell: a plain signed number is kept as it is; anything else is treated as text. */
export function neutraliseNumericCell(cell: string, decimalSeparator: '.' | ',' = '.'): string {
  return isPlainSignedNumber(cell, decimalSeparator) ? cell : neutraliseFormula(cell);
}
