// Who is deciding, for the audit trail: SETTLE_ACTOR when a wrapper (a jump host, a ticket
// system) names the person, else the operating-system user; and from which machine.
import { hostname, userInfo } from 'node:os';

export interface Actor {
  actor: string;
  origin: string;
}

export function cliActor(env: NodeJS.ProcessEnv = process.env): Actor {
  const named = env.SETTLE_ACTOR?.trim();
  let user = named;
  if (!user) {
    try {
      user = userInfo().username;
    } catch {
      user = env.USER ?? env.LOGNAME ?? 'unknown';
    }
  }
  return { actor: user.slice(0, 200), origin: `cli@${hostname()}`.slice(0, 200) };
}
