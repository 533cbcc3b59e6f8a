/**
 * The layering `npm run lint` checks (dependency-cruiser): the low layers (common/, database/,
 * outbox/) never reach up into a feature, config/ imports no feature, access rules live in access/
 * and read only entities and statuses, and no feature folder's files import each other in a circle.
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
        'access/ holds the rules every feature asks (who may read, write, manage what): it reads entities, status ' +
        "modules and the roles, never a feature's services, repositories, controllers or modules.",
      severity: 'error',
      from: { path: '^src/access/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(access|common|config|database)/', '^src/auth/roles[.]ts$', '[.]entity[.]ts$', '-status[.]ts$'],
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
