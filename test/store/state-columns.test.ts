// Structural check of the one transition path (docs/architecture.md): outside
// src/store/transitions.ts, no UPDATE in src/ or jobs/ writes a state column (`state`,
// `bank_status`), whether through knex's `.update({...})` — spread objects followed to their
// literal — or raw SQL, through knex or straight to the driver (direct-sql.ts `write`). New rows
// are inserted in an initial state (checked by `recordCreation`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const HOME = 'src/store/transitions.ts';
const STATE_COLUMNS = new Set(['state', 'bank_status']);
/**
 * Tables whose `state` is a person's decision, not a step of the payment flow: a period's
 * sign-off (signed, reopened) changes only with an audit entry in the same transaction, which is
 * its history. Their writes are checked below to stay in their one store file.
 */
const DECISION_STATES = new Set(['src/store/period-signoffs.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/**
 * The object literal a spread or an argument names, when it is a `const x = {…}` of the same
 * file, or a call of a function of the same file that returns one (`const row = columns(tx)`).
 */
function literalOf(node: ts.Expression, file: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  if (ts.isObjectLiteralExpression(node)) return node;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return literalOf(node.expression, file);
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) return returnedLiteral(node.expression.text, file);
  if (!ts.isIdentifier(node)) return undefined;
  let found: ts.ObjectLiteralExpression | undefined;
  const visit = (n: ts.Node): void => {
    if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      n.name.text === node.text &&
      n.initializer !== undefined
    )
      found = literalOf(n.initializer, file) ?? found;
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

/** The object literal the function `name` of the file returns, when it returns one. */
function returnedLiteral(name: string, file: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  let found: ts.ObjectLiteralExpression | undefined;
  for (const statement of file.statements) {
    if (!ts.isFunctionDeclaration(statement) || statement.name?.text !== name || statement.body === undefined) continue;
    for (const inner of statement.body.statements)
      if (ts.isReturnStatement(inner) && inner.expression !== undefined)
        found = literalOf(inner.expression, file) ?? found;
  }
  return found;
}

/** State columns an update object writes; 'unresolved' when it cannot be read from the source. */
function writtenColumns(arg: ts.Expression, file: ts.SourceFile): string[] {
  const literal = literalOf(arg, file);
  if (literal === undefined) return ['unresolved'];
  const out: string[] = [];
  for (const p of literal.properties) {
    if (ts.isSpreadAssignment(p)) {
      // `...(x ? {} : { a })` and `...(set ?? {})` are read as their object parts.
      const parts = ts.isConditionalExpression(p.expression)
        ? [p.expression.whenTrue, p.expression.whenFalse]
        : ts.isBinaryExpression(p.expression)
          ? [p.expression.left, p.expression.right]
          : [p.expression];
      for (const part of parts)
        out.push(...writtenColumns(ts.isParenthesizedExpression(part) ? part.expression : part, file));
      continue;
    }
    const name = p.name;
    if (name === undefined) continue;
    const text = ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText(file);
    if (STATE_COLUMNS.has(text) || ts.isComputedPropertyName(name)) out.push(text);
  }
  return out;
}

function stateWrites(path: string, text = readFileSync(join(ROOT, path), 'utf8')): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  // SQL text that updates a state column, or (in the store) columns it computes: `set ${columns}`.
  const rawUpdate = (arg: ts.Expression, where: string): void => {
    const sql = arg.getText(file);
    if (/\bupdate\b[\s\S]*\bset\b[\s\S]*\b(state|bank_status)\b/i.test(sql))
      found.push(`${where} raw UPDATE of a state column`);
    else if (path.startsWith('src/store/') && /\bupdate\b[^;]*\bset \$\{/i.test(sql))
      found.push(`${where} raw UPDATE of computed columns`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const where = `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      // A hash's `.update(…)` (createHash(…).update) writes no table.
      const onHash =
        ts.isCallExpression(node.expression.expression) &&
        /^create(Hash|Hmac)$/.test(node.expression.expression.expression.getText(file));
      if (method === 'update' && node.arguments[0] !== undefined && !onHash) {
        // Only the store reaches the database (a dependency-cruiser rule keeps knex there), so
        // elsewhere `.update(x)` is a hash or the like, and only a visible state key counts.
        const columns = writtenColumns(node.arguments[0], file).filter(
          (c) => c !== 'unresolved' || path.startsWith('src/store/'),
        );
        if (columns.length > 0) found.push(`${where} .update writes ${columns.join(', ')}`);
      }
      if (method === 'raw' && node.arguments[0] !== undefined) rawUpdate(node.arguments[0], where);
    }
    // The payment path's statements that go to the driver without knex: write(trx, sql, bindings).
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'write') {
      const sql = node.arguments[1];
      if (sql !== undefined) rawUpdate(sql, `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('one transition path', () => {
  const files = [...sourceFiles('src'), ...sourceFiles('jobs')].filter((f) => !f.includes('/migrations/'));

  it('a decision state is written only in its own store file, next to its audit entry', () => {
    for (const home of DECISION_STATES) {
      const text = readFileSync(join(ROOT, home), 'utf8');
      expect(stateWrites(home, text).length).toBeGreaterThan(0);
      expect(text.match(/\.update\(\{ state: /g)?.length ?? 0).toBeLessThanOrEqual(
        text.match(/this\.audit\.append\(/g)?.length ?? 0,
      );
    }
  });

  it('no code but the store transition function writes a state column', () => {
    const writes = files.filter((f) => f !== HOME && !DECISION_STATES.has(f)).flatMap((f) => stateWrites(f));
    expect(writes).toEqual([]);
  });

  it('the check sees the writes it is meant to refuse', () => {
    // The transition function itself writes the columns, through a computed key and a spread.
    expect(stateWrites(HOME).length).toBeGreaterThan(0);
    expect(files.length).toBeGreaterThan(100);
    // A state column in the object a function of the same file returns, spread into an update.
    const through = [
      "function columns(): Row { return { note: 'x', state: 'sent' }; }",
      "async function f(q: Knex): Promise<void> { const row = columns(); await q('payments').update({ ...row }); }",
    ].join('\n');
    expect(stateWrites('src/store/example.ts', through)).toEqual(['src/store/example.ts:2 .update writes state']);
    expect(stateWrites('src/store/example.ts', through.replace("state: 'sent'", "status: 'booked'"))).toEqual([]);
    // The same through the driver, by name and by columns it computes.
    const direct = (sql: string) =>
      `async function g(trx: Knex.Transaction): Promise<void> { await write(trx, ${sql}, []); }`;
    expect(stateWrites('src/store/example.ts', direct("'update payments set state = ? where id = ?'"))).toEqual([
      'src/store/example.ts:1 raw UPDATE of a state column',
    ]);
    expect(stateWrites('src/store/example.ts', direct('`update ${table} set ${columns} where id = ?`'))).toEqual([
      'src/store/example.ts:1 raw UPDATE of computed columns',
    ]);
    expect(stateWrites('src/store/example.ts', direct("'update bulks set totals_json = ? where id = ?'"))).toEqual([]);
  });
});
