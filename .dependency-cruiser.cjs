/**
 * The layering `npm run lint` checks (dependency-cruiser): the low layers (common/, database/,
 * outbox/) never reach up into a feature, config/ imports no feature, access rules live in access/
 * and read only entities and statuses, no feature folder's files import each other in a circle, no
 * circle runs through two feature folders, and TypeORM's query APIs are imported only by the SQL
 * layer (repositories, stores, read models, policies' SQL twins).
 */
module.exports = {
  forbidden: [
    {
      name: 'low-layer-imports-feature',
      comment: 'common/, database/ and outbox/ serve every feature: they must not import one.',
      severity: 'error',
      from: { path: '^src/(common|database|outbox)/' },
      to: { path: '^src/', pathNot: '^src/(common|database|outbox|config)/' },
    },
    {
      name: 'config-imports-feature',
      comment: 'config/ reads the settings every module shares; a feature registers its own (ConfigModule.forFeature).',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/(config|common)/' },
    },
    {
      name: 'access-imports-feature-code',
      comment:
        'access/ holds the rules every feature asks (who may read, write, manage what): it reads status modules and ' +
        "the roles and token scopes, and judges rows by the facts it names (AttendeeFacts, OwnedPost, ...), never a feature's entities, " +
        'services, repositories, controllers or modules; so no feature folder and access/ import each other.',
      severity: 'error',
      from: { path: '^src/access/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(access|common|config|database)/', '^src/auth/(roles|scopes)[.]ts$', '-status[.]ts$'],
      },
    },
    {
      name: 'access-rule-outside-access',
      comment:
        'An access rule and its SQL twin live in access/ (one policy file per resource, checked by ' +
        'access/access-policies.spec.ts); a feature does not keep its own *-visibility, *-permissions, *-access or *.policy file.',
      severity: 'error',
      from: {},
      to: { path: '^src/.*(-visibility|-permissions|-access|[.]policy)[.]ts$', pathNot: '^src/access/' },
    },
    {
      name: 'cycle-inside-feature',
      comment: 'A feature folder whose files import each other in a circle.',
      severity: 'error',
      // Entities that name each other in relations (TypeORM's `() => User`) are the one allowed circle.
      from: { path: '^src/([^/]+)/', pathNot: '[.]entity[.]ts$' },
      to: { circular: true, viaOnly: { path: '^src/$1/' } },
    },
    {
      name: 'typeorm-outside-the-sql-layer',
      comment:
        "Services, controllers, mappers and DTOs hold rules and shapes; the SQL (and so TypeORM's query APIs) lives in repositories, stores, read models and the policies' SQL twins. Types may be imported.",
      severity: 'error',
      from: { path: '[.](service|controller|mapper|dto|query|response|module)[.]ts$', pathNot: '^src/database/' },
      to: { path: 'node_modules/typeorm/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'cycle-between-features',
      comment: 'Feature folders import each other one way: a circle through two folders makes neither movable alone.',
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '[.]entity[.]ts$' },
      to: { circular: true, pathNot: ['^src/$1/', '[.]entity[.]ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
