/**
 * `npm run build:cli` (and `npm install`'s prepare step): bundles the command line, src/cli/main.ts
 * with the sides and the SDK, into dist-cli/ as plain JavaScript, so that bin/cancel-lab.mjs
 * starts one Node that loads a few files instead of type-stripping some 150 modules at every
 * start. dist-cli/inputs.json lists the project files that went in and when the build began:
 * the launcher runs the bundle only while none of them changed since, and the source otherwise.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
/** dist-cli/, or the folder given (a test builds into a scratch one). */
const out = process.argv[2] !== undefined ? `${resolve(process.argv[2])}${sep}` : fileURLToPath(new URL('../dist-cli/', import.meta.url));

/** What the launcher reads (bin/cancel-lab.mjs): the build's start time, and the files it bundled. */
export interface CliManifest {
  builtAt: number;
  inputs: string[];
}

async function main(): Promise<void> {
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    // An install without devDependencies: the launcher runs the TypeScript source instead.
    console.log('build:cli: vite is not installed; cancel-lab will run from its TypeScript source');
    return;
  }
  const builtAt = Date.now();
  await rm(out, { recursive: true, force: true });
  const result = await vite.build({
    configFile: false,
    logLevel: 'warn',
    root,
    publicDir: false,
    build: {
      // The command line, and the entries of its worker threads (the explorer's, and each side's
      // when a pair runs in threads: startThread in src/host/node.ts starts the bundled one when
      // it sits beside it), so that those threads load no TypeScript either.
      ssr: true,
      outDir: out,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      reportCompressedSize: false,
      rollupOptions: {
        // host.mjs: the headless host as a module, which the bench's fresh pair loads as the command line would.
        input: {
          main: 'src/cli/main.ts',
          'explore.node': 'workers/explore.node.ts',
          'client.node': 'workers/client.node.ts',
          'server.node': 'workers/server.node.ts',
          host: 'src/host/index.ts',
        },
        output: {
          entryFileNames: '[name].mjs',
          chunkFileNames: '[name]-[hash].mjs',
          // What V8 holds of each file it loads: without the comments (the SDK's JSDoc is a third of
          // it) and in ASCII (\u escapes), so that V8 keeps each file's text at one byte a
          // character, not two — a single "—" in a comment doubles a chunk's. Names stay unmangled,
          // so that stack traces and anything that prints a class's name read as in the source.
          comments: false,
          charset: 'ascii',
        },
      },
    },
    // Everything in: one Node resolves a handful of files, not the SDK's and zod's hundreds.
    ssr: { noExternal: true, target: 'node' },
  });
  const chunks = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const inputs = new Set<string>(['package.json', 'package-lock.json']);
  for (const chunk of chunks) {
    if (chunk.type !== 'chunk') continue;
    for (const id of chunk.moduleIds) {
      const path = relative(root, id);
      if (!id.startsWith('\0') && !path.startsWith('..') && !path.split(sep).includes('node_modules')) inputs.add(path.split(sep).join('/'));
    }
  }
  const manifest: CliManifest = { builtAt, inputs: [...inputs].sort() };
  await mkdir(out, { recursive: true });
  await writeFile(`${out}inputs.json`, `${JSON.stringify(manifest, null, 1)}\n`);
  console.log(`build:cli: ${relative(root, out) || '.'}/main.mjs from ${manifest.inputs.length} project files`);
}

try {
  await main();
} catch (error) {
  // As `npm install`'s prepare step, a bundle that cannot be built must not fail the install:
  // the launcher runs the source instead. Asked for by name, it fails.
  if (process.env.npm_lifecycle_event !== 'prepare') throw error;
  console.warn(`build:cli: no bundle (${error instanceof Error ? error.message : String(error)}); cancel-lab will run from its TypeScript source`);
}
