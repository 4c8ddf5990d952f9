// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ and the other layers each may import. Every import of another layer goes
 * through its index.ts (the layer's public surface); the order keeps arrows pointing down
 * (the scenario layer, for one, never imports the rules).
 */
const LAYERS = {
  machines: [],
  trace: ['machines'],
  scenario: ['machines', 'trace'],
  engine: ['machines', 'scenario', 'trace'],
  rules: ['machines', 'scenario', 'trace'],
  views: ['machines', 'rules', 'scenario', 'trace'],
  diagrams: ['machines', 'rules', 'scenario', 'trace', 'views'],
  report: ['diagrams', 'machines', 'rules', 'scenario', 'trace', 'views'],
  host: ['engine', 'scenario', 'trace'],
  explore: ['engine', 'rules', 'scenario', 'trace', 'views'],
  cli: ['diagrams', 'engine', 'explore', 'host', 'report', 'rules', 'scenario', 'trace', 'views'],
};
const NAMES = Object.keys(LAYERS).join('|');
const throughIndex = (prefix) => ({
  regex: `^${prefix}(${NAMES})/(?!index\\.ts$)`,
  message: 'Import another layer through its index.ts, its public surface.',
});

export default tseslint.config(
  { ignores: ['dist/', 'dist-e2e/', 'dist-bench/', 'dist-cli/', '.astro/', 'node_modules/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  ...Object.entries(LAYERS).map(([layer, allowed]) => {
    const forbidden = Object.keys(LAYERS).filter((other) => other !== layer && !allowed.includes(other));
    return {
      files: [`src/${layer}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              throughIndex('(\\.\\./)+'),
              ...(forbidden.length > 0
                ? [{ regex: `^(\\.\\./)+(${forbidden.join('|')})/`, message: `src/${layer} may import only these layers: ${allowed.join(', ') || 'none'}.` }]
                : []),
            ],
          },
        ],
      },
    };
  }),
  {
    files: ['site/**/*.ts', 'workers/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [throughIndex('(\\.\\./)+src/')] }] },
  },
);
