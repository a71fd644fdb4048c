// Every error code of settle, defined once: its process exit code and what it means in a line.
// `SettleError` takes its code from these keys (a misspelt code fails the typecheck) and its exit
// code from here. The reader's text (the full meaning and what to do) lives in docs/errors.md;
// test/docs/errors-catalog.test.ts checks that both list the same codes with the same exit codes.
// Checking rather than generating the table keeps the prose as reviewed Markdown, and lets a new
// code arrive as one line here plus one row there.

/**
 * Exit codes of the CLI (docs/errors.md): 0 ok, 1 needs a person (something to decide, or invalid input), 2 usage or
 * configuration, 3 runtime failure, 4 already running (every unit asked for is claimed elsewhere).
 */
export const ExitCode = { ok: 0, needsPerson: 1, usage: 2, runtime: 3, alreadyRunning: 4 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorCodeEntry {
  readonly exit: Exclude<ExitCode, 0>;
  /** One line for readers of the code; docs/errors.md says it in full, with what to do. */
  readonly meaning: string;
}

const { needsPerson, usage, runtime, alreadyRunning } = ExitCode;

export const errorCatalogue = {
  ERR_NOT_BUILT: { exit: runtime, meaning: 'the compiled CLI (dist/) is missing' },
  ERR_USAGE: { exit: usage, meaning: 'the command line is wrong' },
  ERR_INTERNAL: { exit: runtime, meaning: 'an unexpected failure (a bug)' },
  ERR_CONFIG_INVALID: { exit: usage, meaning: 'the configuration has problems, each listed with its key path' },
  ERR_FILE_NAME_UNSAFE: {
    exit: needsPerson,
    meaning: 'a file or folder name was refused before touching a file system',
  },
  ERR_FILE_NOT_REGULAR: {
    exit: needsPerson,
    meaning:
      'an entry to read is a link, folder, pipe, device or socket, or a file with more than one name (hard link)',
  },
  ERR_FILE_NOT_AS_LISTED: {
    exit: needsPerson,
    meaning: 'an inbox file was not what its listing said: other bytes than its size, or a time ahead of the clock',
  },
  ERR_FILE_NOT_FOUND: { exit: runtime, meaning: 'a file or folder settle needs does not exist' },
  ERR_FILE_TARGET_EXISTS: {
    exit: runtime,
    meaning: 'a move found different content under the same name at the target',
  },
  ERR_FILE_IO: { exit: runtime, meaning: 'a file operation failed (permission, space, closed store)' },
  ERR_SFTP_HOST_KEY_MISMATCH: { exit: runtime, meaning: 'the SFTP host key differs from the pinned fingerprint' },
  ERR_SFTP_HOST_KEY_UNPINNED: { exit: usage, meaning: 'no valid SFTP host key fingerprint is configured' },
  ERR_SFTP_AUTH: { exit: usage, meaning: 'the SFTP server refused the configured credentials' },
  ERR_SFTP_TIMEOUT: { exit: runtime, meaning: 'the SFTP server did not answer within the timeout' },
  ERR_SFTP_CONNECT: { exit: runtime, meaning: 'the SFTP server could not be reached, or the connection dropped' },
  ERR_COMPANY_UNKNOWN: { exit: usage, meaning: '--company names a company not in the configuration' },
  ERR_EXPORT_CSV_OPTIONS: {
    exit: usage,
    meaning: 'the CSV export delimiter and decimal separator cannot work together',
  },
  ERR_DB_URL_INVALID: { exit: usage, meaning: 'database.url is not a usable SQLite path or MySQL URL' },
  ERR_DB_CONNECT: { exit: runtime, meaning: 'the database could not be opened or reached' },
  ERR_DB_MIGRATION_UNKNOWN: { exit: runtime, meaning: 'a newer settle has migrated the database' },
  ERR_DB_MIGRATION_FAILED: {
    exit: runtime,
    meaning: 'a schema migration failed, or the migration was claimed by another instance too long',
  },
  ERR_DB_BUSY: { exit: runtime, meaning: 'another process kept the database locked; nothing changed' },
  ERR_DB_SCHEMA_NEWER: { exit: runtime, meaning: 'a newer settle migrated the database while this one ran' },
  ERR_ALREADY_RUNNING: { exit: alreadyRunning, meaning: 'every unit of work asked for is claimed by another process' },
  ERR_DB_NOT_FOUND: { exit: runtime, meaning: 'a file, bulk, payment or basket id to change does not exist' },
  ERR_DB_FILE_DUPLICATE: { exit: needsPerson, meaning: 'a payment file with the same SHA-256 was already accepted' },
  ERR_DB_END_TO_END_ID_TAKEN: { exit: needsPerson, meaning: 'a payment file reuses an end-to-end id of the company' },
  ERR_DB_BULK_PLAN_INVALID: { exit: runtime, meaning: 'a bulk was planned with payments not in its file (a bug)' },
  ERR_DB_NOT_CLAIMABLE: { exit: runtime, meaning: 'a claim on a table without lease columns (a bug)' },
  ERR_STATE_TRANSITION_ILLEGAL: { exit: runtime, meaning: 'a state change its state machine does not allow' },
  ERR_STATE_UNKNOWN_STATUS: { exit: runtime, meaning: 'the bank reported a transaction status settle does not know' },
  ERR_SANDBOX_LISTEN_FAILED: { exit: runtime, meaning: 'settle sandbox could not listen on the host and port' },
  ERR_BANK_BAD_REQUEST: { exit: runtime, meaning: 'the bank refused the request as invalid (400)' },
  ERR_BANK_UNAUTHORIZED: { exit: runtime, meaning: 'the bank refused the access token or consent (401)' },
  ERR_BANK_FORBIDDEN: { exit: runtime, meaning: 'the API client lacks permission for the resource (403)' },
  ERR_BANK_NOT_FOUND: { exit: runtime, meaning: 'the resource does not exist at the bank (404)' },
  ERR_BANK_ID_NOT_FOUND: { exit: needsPerson, meaning: 'an onboarding command named an id the bank does not know' },
  ERR_BANK_CONFLICT: { exit: runtime, meaning: 'the bank reports a conflict (409)' },
  ERR_BANK_UNPROCESSABLE: { exit: runtime, meaning: 'the bank could not process the request (422)' },
  ERR_BANK_REQUEST_REJECTED: { exit: runtime, meaning: 'the bank refused the request with another 4xx status' },
  ERR_BANK_RATE_LIMITED: { exit: runtime, meaning: 'the bank kept answering 429 after the retries' },
  ERR_BANK_UNAVAILABLE: { exit: runtime, meaning: 'the bank answered 5xx after the retries' },
  ERR_BANK_TIMEOUT: { exit: runtime, meaning: 'no answer from the bank in time after the retries' },
  ERR_BANK_NETWORK: { exit: runtime, meaning: 'the connection to the bank failed' },
  ERR_BANK_INVALID_RESPONSE: { exit: runtime, meaning: 'the bank answered something settle cannot read' },
  ERR_BANK_AUTH_FAILED: { exit: usage, meaning: 'the identity provider refused the token request' },
  ERR_BANK_NO_CREDENTIALS: { exit: usage, meaning: 'a call needs a bank token but no client secret is configured' },
  ERR_BANK_EVENT_INVALID: { exit: needsPerson, meaning: 'a webhook delivery is not a valid CloudEvents message' },
  ERR_BANK_ID_UNKNOWN: { exit: usage, meaning: 'the bankId is not listed by the bank exactly as written' },
  ERR_BANK_ANSWER_TOO_LARGE: { exit: runtime, meaning: 'an answer from the bank exceeded the size limit of its kind' },
  ERR_CONSENT_EXISTS: { exit: needsPerson, meaning: 'the company already has an active consent at that bank' },
  ERR_CONSENT_PROPERTIES_MISSING: { exit: usage, meaning: 'the bank requires consent properties not given' },
  ERR_RECONCILE_CONFIG: { exit: usage, meaning: 'the reconciliation settings are invalid' },
  ERR_PROFILE_NOT_FOUND: { exit: usage, meaning: 'no CSV profile of that name' },
  ERR_PROFILE_INVALID: { exit: usage, meaning: 'a CSV profile is invalid, each problem located' },
  ERR_INTAKE_FILE_UNREADABLE: { exit: usage, meaning: 'the payment file cannot be opened or read' },
  ERR_INTAKE_PROFILE_REQUIRED: { exit: usage, meaning: 'a CSV payment file came without a CSV profile' },
  ERR_VALIDATE_USAGE: { exit: usage, meaning: 'settle validate got an unusable option' },
  ERR_XML_DTD_FORBIDDEN: { exit: needsPerson, meaning: 'a pain.001 file has a DTD, refused before reading further' },
  ERR_USAGE_DATE: { exit: usage, meaning: 'a date option is not a calendar date' },
  ERR_STATEMENT_BANK_DATA: { exit: runtime, meaning: 'a bank balance or booking cannot be placed on a statement' },
  ERR_STATEMENT_ACCOUNT_UNKNOWN: { exit: usage, meaning: 'export --account names no fetched account' },
  ERR_STATEMENT_EXPORT_RANGE: { exit: usage, meaning: 'an explicit export needs --account, --from and --to in order' },
  ERR_STATEMENT_CHANGED_DURING_EXPORT: {
    exit: runtime,
    meaning: "a statement's stored data changed between numbering and writing it",
  },
  ERR_ALERT_EMAIL_FAILED: { exit: runtime, meaning: 'an alert e-mail could not be sent' },
  ERR_ALERT_WEBHOOK_FAILED: { exit: runtime, meaning: 'an alert could not be posted to the alert webhook' },
  ERR_DEMO_DIR_NOT_EMPTY: { exit: usage, meaning: 'the demo folder has other content' },
  ERR_DEMO_SANDBOX: { exit: runtime, meaning: 'the demo could not steer its sandbox bank (a bug)' },
  ERR_SERVE_LISTEN: { exit: runtime, meaning: 'settle serve could not listen on its host and port' },
  ERR_SERVE_NOT_RUNNING: { exit: runtime, meaning: 'settle reload found no running settle serve to signal' },
  ERR_PAYMENT_SCA_LINK_MISSING: { exit: runtime, meaning: 'the bank gave no approval link for a signing basket' },
  ERR_DRY_RUN_SCHEMA: { exit: usage, meaning: 'a dry run found a database schema of another version' },
  ERR_PAYMENT_BULK_UNKNOWN: { exit: usage, meaning: 'payments resolve names a bulk id that does not exist' },
  ERR_PAYMENT_NOT_FOUND: { exit: needsPerson, meaning: 'payments show found no payment with that reference' },
  ERR_CONSENT_ACCOUNT_NOT_BBAN: { exit: usage, meaning: 'consents create --accounts got no domestic account number' },
  ERR_PAYMENT_NOT_HELD: { exit: usage, meaning: 'no payment held as a likely duplicate matches' },
  ERR_PAYMENT_NOT_UNRESOLVED: { exit: usage, meaning: 'payments resolve got a bulk that is not unknown or attention' },
  ERR_FINDING_UNKNOWN: { exit: usage, meaning: 'the company has no finding with that id' },
  ERR_PERIOD_INVALID: { exit: usage, meaning: 'a sign-off period is neither a month (YYYY-MM) nor a day (YYYY-MM-DD)' },
  ERR_PERIOD_NEEDS_PERSON: {
    exit: needsPerson,
    meaning: 'the period cannot be signed off: findings in it still need a person',
  },
  ERR_PERIOD_NOT_ENDED: {
    exit: usage,
    meaning:
      "the period has not ended yet in the company's time zone: a period is signed off once its last day is over",
  },
  ERR_PERIOD_SIGNED: { exit: needsPerson, meaning: 'the period is already signed off (and not reopened since)' },
  ERR_PERIOD_NOT_SIGNED: { exit: usage, meaning: 'the company has no sign-off of that period' },
  ERR_AUDIT_CHAIN_BROKEN: { exit: needsPerson, meaning: 'an audit trail entry was changed, removed or inserted' },
  ERR_CANCEL_NOT_FOUND: { exit: usage, meaning: 'payments cancel names no payment, bulk or request settle knows' },
  ERR_CANCEL_REFUSED: {
    exit: needsPerson,
    meaning: 'the payment can no longer be cancelled (it left the bank, or is final)',
  },
  ERR_CANCEL_CONFIRMATION_NEEDED: {
    exit: usage,
    meaning: 'cancelling a bulk at the bank needs --yes when nobody can be asked',
  },
  ERR_CANCEL_SAME_PERSON: {
    exit: usage,
    meaning: 'four eyes: the person who asked for a cancellation cannot confirm it',
  },
  ERR_CAMT055_INVALID: {
    exit: needsPerson,
    meaning: 'a camt.055 cancellation request is malformed; nothing in it was done',
  },
  // Identity (issue #50): four eyes means two people.
  ERR_CANCEL_CONFIRM_IN_CONSOLE: {
    exit: usage,
    meaning: 'four eyes: a cancellation is confirmed in the console, where the person signed in',
  },
  // Payment controls (issue #51): a hold that needs two people.
  ERR_HOLD_SAME_PERSON: {
    exit: usage,
    meaning: 'four eyes: the person who released a hold once cannot give its second release',
  },
  ERR_HOLD_SECOND_IN_CONSOLE: {
    exit: usage,
    meaning: "four eyes: a hold's second release is given in the console, where the person signed in",
  },
  ERR_CONTROLS_KNOWN_ACCOUNTS: {
    exit: usage,
    meaning:
      "the company's known-creditor-accounts file cannot be read or has lines that are not accounts or bad creditor ids",
  },
} as const satisfies Record<`ERR_${string}`, ErrorCodeEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCatalogue, value);
}
