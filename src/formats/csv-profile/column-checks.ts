// A CSV file's columns held to its profile's column policy (column-policy.ts): the header's
// columns the profile does not name are refused before any row is read, and each row's ruled
// columns are checked, located at row and column; the control columns' values (the same on
// every row, as the pain001 tool writes its group header into each row) become control
// declarations of the whole file, checked when it ends.
import type { Issue } from '../../domain/issue.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { ControlDeclaration } from '../../domain/validation/control-totals.js';
import type { RawFields } from '../../domain/validation/raw-line.js';
import type { ColumnRule } from './column-policy.js';
import type { CsvProfile } from './profile.js';

interface Ruled {
  header: string;
  index: number;
  rule: ColumnRule;
}

export class ColumnChecks {
  private readonly controls = new Map<string, ControlDeclaration>();

  private constructor(
    private readonly profile: CsvProfile,
    private readonly ruled: readonly Ruled[],
  ) {}

  /** Whether rows count towards control totals (line.block ""), which only a control column asks for. */
  get counts(): boolean {
    return this.ruled.some((r) => 'control' in r.rule);
  }

  /**
   * The checks of a file whose header maps names to column indexes, or the issue of a column the
   * profile does not name (the first such; the file is not read further).
   */
  static of(profile: CsvProfile, header: readonly string[], row: number): ColumnChecks | Issue {
    const named = new Set(
      [...Object.values(profile.columns), ...Object.keys(profile.rules), ...Object.keys(profile.ignored)].map((h) =>
        h.trim().toLowerCase(),
      ),
    );
    const rules = new Map(Object.entries(profile.rules).map(([h, r]) => [h.trim().toLowerCase(), [h, r] as const]));
    const ruled: Ruled[] = [];
    for (let i = 0; i < header.length; i++) {
      const name = header[i]!.replace(/^\uFEFF/, '').trim();
      const key = name.toLowerCase();
      if (name === '') continue;
      if (!named.has(key))
        return {
          code: IssueCode.CSV_COLUMN_UNLISTED,
          severity: 'error',
          location: { row, column: i + 1 },
          message: `column "${name.slice(0, 40)}" is not in CSV profile "${profile.name}": settle cannot tell whether it changes what is paid, so the file is not read; if it does not, list it under "ignored:" in the profile with why`,
        };
      const rule = rules.get(key);
      if (rule) ruled.push({ header: rule[0], index: i, rule: rule[1] });
    }
    return new ColumnChecks(profile, ruled);
  }

  /** The issues of one row's ruled columns; control values are kept for the end of the file. */
  check(record: readonly string[], row: number, fields: RawFields): Issue[] | undefined {
    let issues: Issue[] | undefined;
    for (const { header, index, rule } of this.ruled) {
      const value = (record[index] ?? '').trim();
      const location = { row, column: index + 1 };
      if ('control' in rule) {
        this.declare(rule.control, header, value, location);
        continue;
      }
      let message: string | undefined;
      let code: Issue['code'] = IssueCode.ELEMENT_UNSUPPORTED;
      if ('allowed' in rule) {
        if (rule.allowed.some((a) => a.toLowerCase() === value.toLowerCase())) continue;
        message = `${header} "${value.slice(0, 35)}" is not accepted: ${rule.why}`;
        code = rule.code === 'PAYMENT_METHOD_UNSUPPORTED' ? IssueCode.PAYMENT_METHOD_UNSUPPORTED : code;
      } else {
        const other = fields[rule.sameAs]?.value.trim() ?? '';
        if (other.toLowerCase() === value.toLowerCase()) continue;
        code = IssueCode.COLUMNS_DISAGREE;
        const column = this.profile.columns[rule.sameAs] ?? rule.sameAs;
        message = `${header} "${value.slice(0, 35)}" differs from ${column} "${other.slice(0, 35)}": ${rule.why}`;
      }
      (issues ??= []).push({ code, severity: 'error', location, message });
    }
    return issues;
  }

  /** One declaration per distinct value of each control column, located at the first row that has it. */
  declarations(): ControlDeclaration[] {
    return [...this.controls.values()];
  }

  private declare(
    control: 'nbOfTxs' | 'ctrlSum',
    header: string,
    value: string,
    location: { row: number; column: number },
  ): void {
    const key = `${control} ${value}`;
    if (this.controls.has(key)) return;
    const text = control === 'ctrlSum' ? plainDecimal(value, this.profile) : value;
    this.controls.set(key, {
      level: 'group',
      block: '',
      label: `column ${header}`,
      location,
      [control]: { value: text, location },
    });
  }
}

/** A decimal as the profile writes it ("1 234,50") in the plain form control totals read ("1234.50"). */
function plainDecimal(text: string, profile: CsvProfile): string {
  const grouped = profile.thousandsSeparator ? text.split(profile.thousandsSeparator).join('') : text;
  return profile.decimalSeparator === ',' ? grouped.replace(',', '.') : grouped;
}
