// POST /__sandbox/accounts/:account/status (control API): the bank changes an account's status
// — enables an onboarded account, disables or re-enables one — and tells subscribers with
// `banking.account.status.updated` (facts §8.3: id, name, displayName, accountStatus, _links).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountOf } from './credits.js';
import type { Account } from './model.js';
import { badRequest } from './problems.js';
import type { Sandbox } from './sandbox.js';

const STATUSES: readonly Account['status'][] = ['enabled', 'disabled'];

export function registerAccountStatus(app: FastifyInstance, sb: Sandbox): void {
  app.post(
    '/__sandbox/accounts/:account/status',
    (req: FastifyRequest<{ Params: { account: string }; Body: unknown }>) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const status = STATUSES.find((s) => s === body.status);
      if (status === undefined) throw badRequest('status must be "enabled" or "disabled".');
      const account = accountOf(sb, req.params.account);
      if (account.status === 'deleted') throw badRequest('The account is deleted; it cannot change status.');
      account.status = status;
      sb.emit('banking.account.status.updated', account, {
        id: account.id,
        name: account.name,
        displayName: account.displayName,
        accountStatus: status,
        _links: { self: sb.link(`/accounts/${account.id}`) },
      });
      return { id: account.id, status };
    },
  );
}
