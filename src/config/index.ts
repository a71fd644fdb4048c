export { DURATION_KEYS, formatDuration, parseDuration } from './duration.js';
export { ENV_OVERRIDES, type EnvOverride } from './env.js';
export { loadConfig, personDirectory, type Config, type ConfigProblem, type LoadConfigOptions } from './load.js';
export { configSchema, type CompanyConfig, type ConfigInput, type ParsedConfig } from './schema.js';
export { type SecretRef } from './secret-ref.js';
export { companyBanks, pinnedConsentIds, soleBankId, type CompanyBank } from './company-banks.js';
