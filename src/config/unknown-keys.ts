// A key the schema does not know, answered with the key it most likely meant: the schema's own
// keys at that path are the candidates, so the advice can never name a key that does not exist.
import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas that may sit at `path` (several under a union), wrappers looked through. */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): Def[] {
  const def = defOf(schema);
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  if (inner) return objectsAt(inner, path);
  if (def.type === 'union') return (def.options ?? []).flatMap((o) => objectsAt(o, path));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'object') {
    const next = def.shape?.[String(head)];
    return next ? objectsAt(next, rest) : [];
  }
  if (def.type === 'array' && def.element) return objectsAt(def.element, rest);
  if (def.type === 'record' && def.valueType) return objectsAt(def.valueType, rest);
  return [];
}

/** "unknown key "clientld"; did you mean "clientId"?" for each key of an unrecognized_keys issue. */
export function unknownKeysMessage(schema: z.ZodType, path: readonly PropertyKey[], keys: readonly string[]): string {
  const known = objectsAt(schema, path).flatMap((d) => Object.keys(d.shape ?? {}));
  return keys
    .map((key) => {
      const near = didYouMean(key, known);
      return near ? `unknown key "${key}"; did you mean "${near}"?` : `unknown key "${key}"`;
    })
    .join('; ');
}
