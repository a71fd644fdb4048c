// Payments: search by end-to-end id, the ERP's reference, creditor, exact amount, execution
// dates and state, newest execution date first. A person without the payroll role never finds
// a payroll line by its creditor or amount, and sees such lines without them.
import { LINE_STATES } from '../../../domain/states.js';
import { Link, render, Table } from '../../../html/index.js';
import type { StoredPayment } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { loadPage } from './load-page.js';
import { href, Pager, payrollAccounts, payrollViewer, visibleLine } from './parts.js';
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
      <Field req={req} name="e2e" label="End-to-end id" />
      <Field req={req} name="ref" label="ERP / creditor reference" />
      <Field req={req} name="creditor" label="Creditor name (start) or IBAN" />
      <Field req={req} name="amount" label="Amount (exact, e.g. 1234.50)" />
      <Field req={req} name="currency" label="Currency" />
      <Field req={req} name="from" label="Execution date from" type="date" />
      <Field req={req} name="to" label="to" type="date" />
      <label for="q-state">State</label>{' '}
      <select id="q-state" name="state">
        {['', ...LINE_STATES].map((s) => (
          <option value={s} selected={s === state}>
            {s || 'any'}
          </option>
        ))}
      </select>{' '}
      <button type="submit">Search</button>
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
        caption="Payments found, latest execution date first"
        head={['Execution date', 'End-to-end id', 'Reference', 'Creditor', 'Creditor IBAN', 'Amount', 'State']}
        rows={props.rows}
        empty="none"
        cells={(p) => {
          const v = visibleLine(deps, req, p);
          return [
            p.requestedExecutionDate,
            <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
            p.creditorReference ?? '',
            v.creditor,
            v.creditorIban,
            v.amount,
            p.state,
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
        title: 'Payments',
        status: 400,
        body: render(
          <>
            <div role="alert">
              <p>The search was not run:</p>
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
    // A payroll line found by its creditor or amount would tell what only the payroll role may know.
    if (
      !payrollViewer(deps, req).seesPayroll &&
      (search.creditorIban ?? search.creditorNamePrefix ?? search.amountMinor) !== undefined
    )
      search.withoutPayroll = { debtorIbans: payrollAccounts(deps, req.company) };
    const page = await deps.store.consoleViews.searchPayments(search);
    return {
      title: 'Payments',
      body: render(<PaymentsFound deps={deps} req={req} rows={page.rows} next={page.next} />),
    };
  }),
};
