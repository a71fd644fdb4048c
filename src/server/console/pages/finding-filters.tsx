// The Reconciliation page's filters: type, account, age, amount, decision, period and "assigned
// to me", read from the query string (so a filtered view is a link one can share) and handed to
// the store, which narrows in SQL (store.consoleViews.findings, FindingFilter). A GET form, so it
// works without JavaScript and its answer is a plain address.
import { normalizeIban } from '../../../domain/account-id.js';
import { addDays, today } from '../../../domain/local-date.js';
import { FINDING_TYPES, type FindingType } from '../../../domain/reconcile/findings.js';
import { parseSignoffPeriod } from '../../../domain/reconcile/index.js';
import { t, type MessageKey } from '../../../i18n/index.js';
import type { FindingFilter } from '../../../store/index.js';
import type { ConsoleDeps, PageRequest } from '../page.js';
import { timeZoneOf } from './parts.js';

/** The query parameters the filters use; links of the page keep them (parts.tsx's withQuery). */
export const FILTER_KEYS = ['type', 'account', 'age', 'min', 'decision', 'period', 'mine'] as const;

/** Age of a finding: calendar days from the day it is about (booking, else execution date) to today. */
const AGES = [
  { value: '0-2', from: 2, to: 0 },
  { value: '3-5', from: 5, to: 3 },
  { value: 'over-5', from: undefined, to: 6 },
] as const;

const DECISIONS = [
  { value: 'needs-person' },
  { value: 'acknowledged' },
  { value: 'confirmed' },
  { value: 'rejected' },
] as const;

/** The types a person decides about: the only ones the findings table holds. */
const TYPES = (Object.keys(FINDING_TYPES) as FindingType[]).flatMap((type) =>
  FINDING_TYPES[type].needsPerson ? [{ value: type }] : [],
);

interface Option {
  value: string;
  /** The option's words, in the language of the request. */
  label: () => string;
}

const AGE_OPTIONS: readonly Option[] = AGES.map((a) => ({
  value: a.value,
  label: () => t(`reconciliation.filter.age.${a.value}`),
}));
const DECISION_OPTIONS: readonly Option[] = DECISIONS.map((d) => ({
  value: d.value,
  label: () => t(`reconciliation.filter.decision.${d.value}`),
}));
const TYPE_OPTIONS: readonly Option[] = TYPES.map(({ value }) => ({
  value,
  label: () => t('reconciliation.filter.typeOption', { title: t(`findingType.${value}.title`), type: value }),
}));

/** The filter the query asks for, or the words of what does not read (the page answers 400). */
export function filterOf(deps: ConsoleDeps, req: PageRequest): FindingFilter | { problem: string } {
  const q = req.query;
  const f: FindingFilter = {};
  const type = q.get('type');
  if (type) {
    if (!TYPES.some((known) => known.value === type)) return { problem: t('reconciliation.filter.badType', { type }) };
    f.type = type;
  }
  const account = q.get('account')?.trim();
  if (account) f.account = normalizeIban(account);
  const age = AGES.find((a) => a.value === q.get('age'));
  if (q.get('age') && !age) return { problem: t('reconciliation.filter.badAge') };
  if (age) {
    const now = today(deps.clock, timeZoneOf(deps, req.company));
    if (age.from !== undefined) f.factFrom = addDays(now, -age.from);
    f.factTo = addDays(now, -age.to);
  }
  const min = q.get('min')?.trim();
  if (min) {
    const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(min.replace(/[ ,](?=\d{3}\b)/g, ''));
    if (!m) return { problem: t('reconciliation.filter.badAmount', { min }) };
    f.minAmountMinor = BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  }
  const decision = DECISIONS.find((d) => d.value === q.get('decision'));
  if (q.get('decision') && !decision)
    return { problem: t('reconciliation.filter.badDecision', { decision: q.get('decision') ?? '' }) };
  if (decision) f.decision = decision.value;
  const period = q.get('period')?.trim();
  if (period) {
    try {
      const p = parseSignoffPeriod(period);
      // Within an age as well: both bounds hold.
      f.factFrom = f.factFrom && f.factFrom > p.from ? f.factFrom : p.from;
      f.factTo = f.factTo && f.factTo < p.to ? f.factTo : p.to;
    } catch {
      return { problem: t('reconciliation.filter.badPeriod', { period }) };
    }
  }
  if (q.get('mine') === '1') f.assignedTo = req.user.person;
  return f;
}

/** Whether the query narrows the list at all. */
export function filtered(req: PageRequest): boolean {
  return FILTER_KEYS.some((k) => (req.query.get(k) ?? '') !== '');
}

function Select(props: { name: string; label: MessageKey; options: readonly Option[]; req: PageRequest }) {
  const chosen = props.req.query.get(props.name) ?? '';
  return (
    <span class="filter">
      <label for={`filter-${props.name}`}>{t(props.label)}</label>{' '}
      <select id={`filter-${props.name}`} name={props.name}>
        <option value="">{t('reconciliation.filter.any')}</option>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === chosen}>
            {o.label()}
          </option>
        ))}
      </select>
    </span>
  );
}

function Text(props: { name: string; label: MessageKey; req: PageRequest; placeholder?: string }) {
  return (
    <span class="filter">
      <label for={`filter-${props.name}`}>{t(props.label)}</label>{' '}
      <input
        id={`filter-${props.name}`}
        name={props.name}
        value={props.req.query.get(props.name) ?? ''}
        {...(props.placeholder ? { placeholder: props.placeholder } : {})}
      />
    </span>
  );
}

/** The filter form: a GET to the page itself, the company and "every finding" kept. */
export function FilterForm({ req, path }: { req: PageRequest; path: string }) {
  return (
    <form method="get" action={path} class="filters" role="search" aria-label={t('reconciliation.filter.form')}>
      <input type="hidden" name="company" value={req.company} />
      {req.query.get('all') === '1' && <input type="hidden" name="all" value="1" />}
      <Select name="type" label="reconciliation.filter.type" options={TYPE_OPTIONS} req={req} />{' '}
      <Text
        name="account"
        label="reconciliation.filter.account"
        req={req}
        placeholder={t('reconciliation.filter.accountPlaceholder')}
      />{' '}
      <Select name="age" label="reconciliation.filter.age" options={AGE_OPTIONS} req={req} />{' '}
      <Text name="min" label="reconciliation.filter.min" req={req} placeholder="1000.00" />{' '}
      <Select name="decision" label="reconciliation.filter.decision" options={DECISION_OPTIONS} req={req} />{' '}
      <Text name="period" label="reconciliation.filter.period" req={req} placeholder="2026-01" />{' '}
      <span class="filter">
        <input type="checkbox" id="filter-mine" name="mine" value="1" checked={req.query.get('mine') === '1'} />{' '}
        <label for="filter-mine">{t('reconciliation.filter.mine')}</label>
      </span>{' '}
      <button type="submit">{t('reconciliation.filter.submit')}</button>
    </form>
  );
}
