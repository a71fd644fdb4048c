# Tryton as the ERP side of settle's loop, scripted with proteus on a SQLite database kept in a
# folder, so that two runs of this script share one Tryton company (test/erp/tryton/README.md).
#
#   python3 tryton-loop.py write DIR CONFIG.json   a company, its bank account, creditors and one
#                                                  payment journal per flavour; each journal's
#                                                  approved payments processed by Tryton's own
#                                                  wizard; the group's pain.001 into DIR/out/
#   python3 tryton-loop.py read DIR FILE...        each file (settle's camt.054) handed to
#                                                  Tryton's SEPA message handling, one message
#                                                  per file
#
# Both print one JSON object on stdout: every payment's id, flavour, state and return reason,
# and for `read` each message's state (done once handled) and the error Tryton raised, if any.
import datetime
import json
import os
import sys
from decimal import Decimal

COMMAND, DIR = sys.argv[1], os.path.abspath(sys.argv[2])
# trytond reads its database settings from the environment when it is imported.
os.environ['TRYTOND_DATABASE__URI'] = 'sqlite://'
os.environ['TRYTOND_DATABASE__PATH'] = DIR
os.environ.setdefault('DB_NAME', 'tryton')

from proteus import Model, Wizard, config as proteus_config  # noqa: E402


def payments():
    Payment = Model.get('account.payment')
    return [{
        'id': p.id,
        'flavor': p.journal.sepa_payable_flavor,
        'amount': str(p.amount),
        'party': p.party.name,
        'state': p.state,
        'returnReasonCode': p.sepa_return_reason_code,
        'returnReasonInformation': p.sepa_return_reason_information,
    } for p in Payment.find([], order=[('id', 'ASC')])]


def write(spec):
    from trytond.tests.tools import activate_modules
    from trytond.modules.company.tests.tools import create_company, get_company
    activate_modules('account_payment_sepa')
    Currency = Model.get('currency.currency')
    currency = Currency(name=spec['currency'], code=spec['currency'], symbol=spec['currency'],
                        rounding=Decimal('0.01'), digits=2)
    currency.save()
    Party = Model.get('party.party')
    company_party = Party(name=spec['company'])
    company_party.save()
    create_company(party=company_party, currency=currency)
    company = get_company()
    Bank = Model.get('bank')
    bank_party = Party(name=spec['bank']['name'])
    bank_party.save()
    bank = Bank(party=bank_party, bic=spec['bank']['bic'])
    bank.save()
    Account = Model.get('bank.account')

    def account(owner, iban):
        a = Account(bank=bank, currency=currency)
        a.owners.append(Party(owner.id))
        a.numbers.new(type='iban', number=iban)
        a.save()
        return a

    own = account(company_party, spec['iban'])
    creditors = {}
    for c in spec['creditors']:
        party = Party(name=c['name'])
        address, = party.addresses
        address.street, address.postal_code, address.city = c['street'], c['postalCode'], c['city']
        party.save()
        account(party, c['iban'])
        creditors[c['iban']] = party
    Journal = Model.get('account.payment.journal')
    Payment = Model.get('account.payment')
    os.makedirs(os.path.join(DIR, 'out'), exist_ok=True)
    files = {}
    for run in spec['runs']:
        journal = Journal(name=run['flavor'], currency=currency, process_method='sepa')
        journal.sepa_bank_account_number, = own.numbers
        journal.sepa_payable_flavor = run['flavor']
        journal.sepa_receivable_flavor = 'pain.008.001.02'  # required, unused: no direct debits here
        journal.save()
        batch = []
        for p in run['payments']:
            payment = Payment(journal=journal, kind='payable', party=creditors[p['iban']],
                              amount=Decimal(p['amount']), description=p['description'],
                              date=datetime.date.fromisoformat(run['date']))
            payment.save()
            batch.append(payment)
        Payment.click(batch, 'approve')
        Wizard('account.payment.process', batch).execute('process')
        batch[0].reload()
        message, = batch[0].group.sepa_messages
        name = f"tryton-{run['flavor']}.xml"
        with open(os.path.join(DIR, 'out', name), 'wb') as f:
            f.write(bytes(message.message))
        files[run['flavor']] = name
    return {'company': company.id, 'files': files, 'payments': payments()}


def read(paths):
    proteus_config.set_trytond(os.environ['DB_NAME'])
    Message = Model.get('account.payment.sepa.message')
    Company = Model.get('company.company')
    company, = Company.find([])
    messages = []
    for path in paths:
        with open(path, 'rb') as f:
            message = Message(type='in', company=company, message=f.read())
        message.save()
        message.click('wait')  # draft -> waiting: only a waiting message can be done
        entry = {'file': os.path.basename(path)}
        try:
            message.click('do')
        except Exception as error:  # what Tryton answers a file it cannot read
            entry['error'] = f'{type(error).__name__}: {error}'
        message.reload()
        entry['state'] = message.state
        messages.append(entry)
    return {'messages': messages, 'payments': payments()}


if COMMAND == 'write':
    with open(sys.argv[3]) as f:
        result = write(json.load(f))
elif COMMAND == 'read':
    result = read(sys.argv[3:])
else:
    raise SystemExit(f'unknown command {COMMAND}: write DIR CONFIG.json | read DIR FILE...')
json.dump(result, sys.stdout, indent=1)
