// Alerts as a JSON POST (undici): `alerts.webhook.*`, e.g. a chat or incident tool's incoming
// webhook. Any 2xx is success; everything else is a failure the caller retries on a later run.
import { request } from 'undici';
import { SettleError } from '../domain/errors.js';
import { redactText, type Secret } from '../log/index.js';
import type { AlertMessage, Notifier } from './types.js';

export interface WebhookOptions {
  url: string;
  authorization?: Secret | undefined;
  timeoutMs?: number;
}

export class WebhookNotifier implements Notifier {
  readonly channel = 'webhook';
  private readonly target: string;

  constructor(private readonly options: WebhookOptions) {
    // Only the origin and path are named in errors: a query string may carry a token.
    const u = new URL(options.url);
    this.target = `${u.origin}${u.pathname}`;
  }

  async send(message: AlertMessage): Promise<void> {
    const timeout = this.options.timeoutMs ?? 15_000;
    const body = JSON.stringify({
      type: message.type,
      subject: message.subject,
      text: message.text,
      ...message.payload,
    });
    let status: number;
    try {
      const res = await request(this.options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'settle-alerts',
          ...(this.options.authorization ? { authorization: this.options.authorization.reveal() } : {}),
        },
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (cause) {
      throw this.failure(redactText(cause instanceof Error ? cause.message : String(cause)));
    }
    if (status < 200 || status > 299) throw this.failure(`HTTP ${status}`, status);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private failure(reason: string, status?: number): SettleError {
    return new SettleError('ERR_ALERT_WEBHOOK_FAILED', `Cannot post the alert to ${this.target}: ${reason}`, {
      details: { target: this.target, ...(status === undefined ? {} : { status }) },
    });
  }
}
