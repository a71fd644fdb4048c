// config/settle.example.yaml and docs/configuration.md must describe every key of the schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema, ENV_OVERRIDES } from '../../src/config/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example: unknown = parse(readFileSync(`${root}config/settle.example.yaml`, 'utf8'));
const docs = readFileSync(`${root}docs/configuration.md`, 'utf8');

/** Key paths of a value: arrays as `[]`, records of transports as `<name>`. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], `${prefix}[]`) : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const name = prefix === 'transports' ? '<name>' : key;
    const path = prefix ? `${prefix}${prefix.endsWith(']') ? '.' : '.'}${name}` : name;
    return [path, ...keyPaths(v, path)];
  });
}

describe('the configuration reference', () => {
  const parsed = configSchema.safeParse(example);

  it('has an example file that the schema accepts', () => {
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('shows every key of the schema in the example file', () => {
    const withDefaults = keyPaths(JSON.parse(JSON.stringify(parsed.data)));
    const written = new Set(keyPaths(example));
    expect(withDefaults.filter((p) => !written.has(p))).toEqual([]);
  });

  it('documents every key and every SETTLE_* variable in docs/configuration.md', () => {
    const paths = keyPaths(JSON.parse(JSON.stringify(parsed.data))).filter((p) => !/\.(env|file|credential)$/.test(p));
    expect(paths.filter((p) => !docs.includes('`' + p + '`'))).toEqual([]);
    expect(ENV_OVERRIDES.map((o) => o.variable).filter((v) => !docs.includes(v))).toEqual([]);
  });
});
