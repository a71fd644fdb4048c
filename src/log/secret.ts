// A secret value that cannot leak by accident: printing, logging or JSON-encoding it shows
// [REDACTED]; only `reveal()` gives the value, at the one place that sends it. Creating one
// registers the value with the redactor, so it is masked even where it was copied into text.
import { inspect } from 'node:util';
import { registerSecret } from './redact.js';

export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
    registerSecret(value);
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return '[REDACTED]';
  }
  toJSON(): string {
    return '[REDACTED]';
  }
  [inspect.custom](): string {
    return 'Secret([REDACTED])';
  }
}
