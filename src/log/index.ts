export {
  createLogger,
  runLogger,
  silentLogger,
  type LogFormat,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from './logger.js';
export { forgetSecret, redactText, redactValue, registerSecret } from './redact.js';
export { Secret } from './secret.js';
