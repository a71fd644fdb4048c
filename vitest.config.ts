import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // The CLI tests start compiled JavaScript, built once here rather than transpiled per process.
    globalSetup: ['./test/support/cli-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // `npm test` runs with --coverage: a report in coverage/ and a gate on the pure code, where
    // every branch can be reached by a unit test (the conventions' 95 % on lines).
    coverage: {
      provider: 'v8',
      include: ['src/domain/**/*.ts', 'src/formats/**/*.{ts,tsx}', 'src/html/**/*.{ts,tsx}'],
      reporter: ['text-summary', 'html', 'json-summary'],
      reportsDirectory: 'coverage',
      thresholds: {
        'src/domain/**/*.ts': { lines: 95 },
        'src/formats/**/*.{ts,tsx}': { lines: 95 },
        'src/html/**/*.{ts,tsx}': { lines: 95 },
      },
    },
  },
});
