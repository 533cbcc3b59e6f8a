/**
 * The layering `npm run lint` checks (dependency-cruiser): the low layers (common/, database/,
 * outbox/) never reach up into a feature, config/ imports no feature, no feature folder's files
 * import each other in a circle, and no circle runs through two folders.
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
      name: 'cycle-inside-feature',
      comment: 'A feature folder whose files import each other in a circle.',
      severity: 'error',
      // Entities that name each other in relations (TypeORM's `() => User`) are the one allowed circle.
      from: { path: '^src/([^/]+)/', pathNot: '[.]entity[.]ts$' },
      to: { circular: true, viaOnly: { path: '^src/$1/' } },
    },
    {
      name: 'cycle-between-features',
      comment: 'Feature folders import each other one way: a circle through two folders or more.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { circular: true, viaSomeNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
