// Payments: search by end-to-end id, the ERP's reference, creditor, exact amount, execution
// dates and state, newest execution date first. A person without the payroll role never finds
// a payroll payment by its creditor or amount, and sees such payments without them.
import { PAYMENT_STATES } from '../../../domain/states.js';
import { Link, render, Table } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import type { StoredPayment } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { loadPage } from './load-page.js';
import { day, href, lineStateCell, Pager, payrollAccounts, payrollViewer, visibleLine } from './parts.js';
import { readSearch } from './payment-search.js';

function Field(props: { req: PageRequest; name: string; label: string; type?: string }) {
  const { req, name } = props;
  return (
    <>
      <label for={`q-${name}`}>{props.label}</label>{' '}
      <input id={`q-${name}`} name={name} type={props.type ?? 'text'} value={req.query.get(name) ?? ''} />
    </>
  );
}

function SearchForm({ req }: { req: PageRequest }) {
  const state = req.query.get('state') ?? '';
  return (
    <form method="get" action="/console/payments" role="search">
      <input type="hidden" name="company" value={req.company} />
      <Field req={req} name="e2e" label={t('payments.search.e2e')} />
      <Field req={req} name="ref" label={t('payments.search.ref')} />
      <Field req={req} name="creditor" label={t('payments.search.creditor')} />
      <Field req={req} name="amount" label={t('payments.search.amount')} />
      <Field req={req} name="currency" label={t('payments.search.currency')} />
      <Field req={req} name="from" label={t('payments.search.from')} type="date" />
      <Field req={req} name="to" label={t('payments.search.to')} type="date" />
      <label for="q-state">{t('payments.search.state')}</label>{' '}
      <select id="q-state" name="state">
        {['', ...PAYMENT_STATES].map((s) => (
          <option value={s} selected={s === state}>
            {s || t('payments.search.anyState')}
          </option>
        ))}
      </select>{' '}
      <button type="submit">{t('payments.search.submit')}</button>
    </form>
  );
}

/** The search form and a page of the payments it found, as the person may see them. */
export function PaymentsFound(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  rows: readonly StoredPayment[];
  next: string | undefined;
}) {
  const { deps, req } = props;
  return (
    <>
      <SearchForm req={req} />
      <Table
        caption={t('payments.found.caption')}
        head={[
          t('payments.column.executionDate'),
          t('payments.column.e2e'),
          t('payments.column.reference'),
          t('payments.column.creditor'),
          t('payments.column.creditorIban'),
          t('payments.column.amount'),
          t('payments.column.state'),
        ]}
        rows={props.rows}
        empty={t('payments.none')}
        cells={(p) => {
          const v = visibleLine(deps, req, p);
          return [
            day(p.requestedExecutionDate),
            <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
            p.creditorReference ?? '',
            v.creditor,
            v.creditorIban,
            v.amount,
            lineStateCell(p.state),
          ];
        }}
      />
      <Pager path="/console/payments" req={req} next={props.next} />
    </>
  );
}

export const paymentsPage: ConsolePage = {
  path: '/console/payments',
  nav: 'nav.payments',
  load: loadPage(async (deps, req) => {
    const { search, problems } = readSearch(req.company, req.query);
    if (problems.length)
      return {
        title: t('payments.title'),
        status: 400,
        body: render(
          <>
            <div role="alert">
              <p>{t('payments.search.notRun')}</p>
              <ul>
                {problems.map((p) => (
                  <li>{p}</li>
                ))}
              </ul>
            </div>
            <SearchForm req={req} />
          </>,
        ),
      };
    // A payroll payment found by its creditor or amount would tell what only the payroll role may know.
    if (
      !payrollViewer(deps, req).seesPayroll &&
      (search.creditorIban ?? search.creditorNamePrefix ?? search.amountMinor) !== undefined
    )
      search.withoutPayroll = { debtorIbans: payrollAccounts(deps, req.company) };
    const page = await deps.store.consoleViews.searchPayments(search);
    return {
      title: t('payments.title'),
      body: render(<PaymentsFound deps={deps} req={req} rows={page.rows} next={page.next} />),
    };
  }),
};
