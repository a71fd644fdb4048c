// Composition root for the bank client: the loaded configuration (config.bank, with the SETTLE_*
// environment overrides already applied by src/config) mapped to the client's options. The
// client secret stays a Secret; the token provider reveals it only into the token request.
import { HttpBankClient, type BankClient, type BankClientOptions } from '../bank/index.js';
import type { Config } from '../config/index.js';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/index.js';

export interface BankClientOverrides {
  clock?: Clock;
  sleep?: BankClientOptions['sleep'];
  random?: BankClientOptions['random'];
  observer?: BankClientOptions['observer'];
}

export function bankClientOptions(
  config: Pick<Config, 'bank'>,
  logger: Logger,
  overrides: BankClientOverrides = {},
): BankClientOptions {
  const bank = config.bank;
  const options: BankClientOptions = {
    baseUrl: bank.baseUrl,
    authUrl: bank.authUrl,
    tenantId: bank.tenantId,
    clientId: bank.clientId,
    clientSecret: bank.clientSecret,
    subscriptionId: bank.subscriptionId,
    channelType: bank.channelType,
    apiVersion: bank.apiVersion,
    timeoutMs: bank.timeout,
    maxRetries: bank.maxRetries,
    concurrency: bank.concurrency,
    logger,
    ...overrides,
  };
  if (bank.redirectUri !== undefined) options.redirectUri = bank.redirectUri;
  return options;
}

export function createBankClient(
  config: Pick<Config, 'bank'>,
  logger: Logger,
  overrides: BankClientOverrides = {},
): BankClient {
  return new HttpBankClient(bankClientOptions(config, logger, overrides));
}
