// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Off where code reads JSON bodies typed `any` (supertest, fetch) and asserts on them. */
const untypedBodyRules = {
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
  '@typescript-eslint/no-explicit-any': 'off',
};

const dateLibraryPaths = ['moment', 'moment-timezone', 'dayjs', 'date-fns', 'date-fns-tz'].map((name) => ({
  name,
  message: 'Dates go through luxon (CONTRIBUTING: "Dates").',
}));
const dateLibraryPatterns = { group: ['moment/*', 'moment-timezone/*', 'dayjs/*', 'date-fns/*'], message: 'Dates go through luxon.' };

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'data/**', 'node_modules/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      complexity: ['error', 24],
      // Implementations of promise-returning interfaces (stores, hooks) need not await anything.
      '@typescript-eslint/require-await': 'off',
      'max-depth': ['error', 5],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // supertest's `response.body` is `any` by design: the tests assert on it field by field.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: untypedBodyRules,
  },
  {
    // Benchmark and soak scripts are HTTP clients reading JSON bodies, like the tests, and their
    // seeding steps are long straight-line scripts.
    files: ['bench/**/*.ts'],
    rules: { ...untypedBodyRules, complexity: 'off' },
  },
  {
    // One date library at run time: luxon. moment-timezone is a devDependency, for the generator of
    // the abbreviation table and the spec that checks it (CONTRIBUTING: "Dates").
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: dateLibraryPaths, patterns: [dateLibraryPatterns] }] },
  },
  {
    // Access rules live in src/access/ (CONTRIBUTING: "Policies"): a feature asks a named rule
    // there (`canManageEvent`, `canManageTerms`) rather than checking capabilities itself.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/access/**', 'src/auth/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: dateLibraryPaths,
          patterns: [
            dateLibraryPatterns,
            {
              group: ['**/auth/roles'],
              importNames: ['hasCapability', 'canOnObject', 'CAPABILITY_MAP'],
              message: 'Capability checks are access rules: add or use one in src/access/ (CONTRIBUTING: "Policies").',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
