// Alerts by e-mail through SMTP (nodemailer): `alerts.email.*`. The password is revealed only
// into the transport's auth options; nodemailer's own logging stays off so nothing it knows
// reaches a log line.
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { SettleError } from '../domain/errors.js';
import { redactText, type Secret } from '../log/index.js';
import type { AlertMessage, Notifier } from './types.js';

export interface EmailOptions {
  host: string;
  port: number;
  /** true: SMTPS from the first byte (465); false: STARTTLS when the server offers it. */
  secure: boolean;
  username?: string | undefined;
  password?: Secret | undefined;
  from: string;
  to: readonly string[];
  /** Connection, greeting and socket timeout. */
  timeoutMs?: number;
  /** Extra TLS options (tests with a self-signed server). */
  tls?: SMTPTransport.Options['tls'];
}

export class EmailNotifier implements Notifier {
  readonly channel = 'email';
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(private readonly options: EmailOptions) {
    const timeout = options.timeoutMs ?? 15_000;
    this.transport = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure,
      // A login needs both; a username alone (an IP-allow-listed relay) sends without AUTH.
      ...(options.username && options.password
        ? { auth: { user: options.username, pass: options.password.reveal() } }
        : {}),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      logger: false,
      debug: false,
      ...(options.tls ? { tls: options.tls } : {}),
    });
  }

  async send(message: AlertMessage): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: [...this.options.to],
        subject: message.subject,
        text: message.text,
        headers: { 'X-Settle-Alert': message.type },
      });
    } catch (cause) {
      const { code, responseCode } = (cause ?? {}) as { code?: unknown; responseCode?: unknown };
      // A refused login's answer may quote the AUTH exchange: the password, base64-encoded, which no mask recognises.
      const reason =
        code === 'EAUTH'
          ? `the server refused the login${typeof responseCode === 'number' ? ` (SMTP ${responseCode})` : ''}`
          : redactText(cause instanceof Error ? cause.message : String(cause));
      // The cause is not chained: SMTP errors may echo the conversation.
      throw new SettleError(
        'ERR_ALERT_EMAIL_FAILED',
        `Cannot send the alert e-mail through ${this.options.host}:${this.options.port}: ${reason}`,
        {
          details: { host: this.options.host, port: this.options.port },
        },
      );
    }
  }

  close(): Promise<void> {
    this.transport.close();
    return Promise.resolve();
  }
}
