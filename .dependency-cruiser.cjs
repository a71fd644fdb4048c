// The layering rule of docs/architecture (shared design §3): dependencies point down only.
// `npm run lint` runs this; a violation fails the build.
/** @type {import('dependency-cruiser').IConfiguration} */
const layer = (name, allowed) => ({
  name: `layer-${name}`,
  comment: `src/${name} may import only: ${allowed.join(', ') || 'nothing of ours'}`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: {
    path: '^(src|jobs)/',
    pathNot: [`^src/${name}/`, ...allowed.map((a) => `^${a}/`)],
  },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    layer('domain', []),
    layer('i18n', ['src/domain']),
    layer('html', ['src/domain', 'src/i18n']),
    layer('formats', ['src/domain', 'src/html', 'src/i18n']),
    layer('log', ['src/domain']),
    layer('config', ['src/domain', 'src/i18n', 'src/log']),
    layer('bank', ['src/domain', 'src/log']),
    layer('transport', ['src/domain', 'src/log']),
    layer('store', ['src/domain', 'src/log']),
    layer('alerts', ['src/domain', 'src/i18n', 'src/log']),
    layer('sandbox', ['src/domain', 'src/formats', 'src/log']),
    {
      name: 'store-decides-nothing',
      comment:
        "which rows move to which state is a use case's decision, made as a plan in src/domain/plans and applied by src/store/apply-plan.ts: the store sees the plan's types (src/domain/plans/plan.ts) and no planner, nor the four-eyes rule of a hold's release (docs/architecture.md, \"Plans\")",
      severity: 'error',
      from: { path: '^src/store/' },
      to: {
        path: '^src/domain/(plans/|controls/release[.]ts$)',
        pathNot: '^src/domain/plans/plan[.]ts$',
      },
    },
    {
      name: 'store-holds-no-hold-rule',
      comment:
        'which lines pickup holds (likely duplicates, payment controls) is decided by the rule in src/domain/controls (pickup-holds.ts), which the pickup job hands the file ledger: the store reads the facts it asks for and writes the holds it decided, and sees only their types (src/domain/hold.ts), no rule nor the likely-duplicate key (docs/architecture.md, "Plans")',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/domain/(controls/|likely-duplicate[.]ts$)' },
    },
    {
      name: 'planners-in-plans',
      comment:
        'a planner (a module named *-plan.ts) lives in src/domain/plans, where store-decides-nothing keeps the store from it, not beside it in src/domain (src/domain/bulk-plan.ts was, and the store imported it)',
      severity: 'error',
      from: { path: '^src/domain/.*-plan[.]ts$', pathNot: '^src/domain/plans/' },
      to: {},
    },
    {
      name: 'plans-are-made-by-use-cases',
      comment:
        'a plan is made by the use case that read its rows (jobs/), not by an entry point or another layer: src/domain/plans is imported by jobs/ and by src/domain/plans itself (src/store sees only its types)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(domain/plans|store)/' },
      to: { path: '^src/domain/plans/' },
    },
    {
      name: 'jobs-use-interfaces',
      comment: 'jobs/ may use src/* but not the entry points (cli, server, main) nor the sandbox',
      severity: 'error',
      from: { path: '^jobs/' },
      to: { path: '^src/(cli|server|main|sandbox)/' },
    },
    {
      name: 'jobs-through-their-index',
      comment:
        'a use case (a folder under jobs/) is used by the rest of settle through its index.ts alone: what else is in the folder is its own (docs/architecture.md, "One folder per use case")',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^jobs/', pathNot: ['^jobs/[^/]+/index[.]ts$'] },
    },
    {
      name: 'jobs-inside-their-folder',
      comment: 'within jobs/, a file reaches into its own folder freely and into another only through its index.ts',
      severity: 'error',
      from: { path: '^jobs/([^/]+)/' },
      to: { path: '^jobs/', pathNot: ['^jobs/$1/', '^jobs/[^/]+/index[.]ts$'] },
    },
    {
      name: 'jobs-in-folders',
      comment: 'every use case has its folder under jobs/; no loose files beside them',
      severity: 'error',
      from: { path: '^jobs/[^/]+[.]ts$' },
      to: {},
    },
    {
      name: 'store-through-its-index',
      comment:
        'outside src/store, the database is reached only through src/store/index.ts (repositories, typed claims); busy.ts, which names a locked database without loading a driver, is for the CLI error reporter that every command loads at start-up',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/store/' },
      to: { path: '^src/store/', pathNot: '^src/store/(index|busy)\\.ts$' },
    },
    {
      name: 'database-driver-only-in-store',
      comment: 'SQL is written in src/store only',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/store/' },
      to: { path: 'node_modules/(knex|better-sqlite3|mysql2)/' },
    },
    {
      name: 'template-engine-through-src-html',
      comment:
        'the template engine (hono/jsx) is reached through src/html alone: its render, its audited raw helper and the shared components (docs/decisions/0001-page-templates.md)',
      severity: 'error',
      from: { path: '^(src|jobs)/', pathNot: '^src/html/' },
      to: { path: 'node_modules/hono/' },
    },
    {
      name: 'no-test-code-in-product',
      severity: 'error',
      from: { path: '^(src|jobs)/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
  },
};
