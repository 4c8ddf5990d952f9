#!/usr/bin/env node
// cancel-lab's launcher. It runs the command line in this Node when it can: the JavaScript
// bundle in dist-cli/ (scripts/build-cli.ts; `npm install` builds it) while none of the files
// that went into it changed since, else the TypeScript source, which Node strips of its types
// from 22.18 on. An older Node (the system's, say) hands over to the one `npm install` puts in
// node_modules/node (the `node` devDependency), passing on the arguments and the exit status.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const source = new URL('src/cli/main.ts', root);
const bundle = new URL('dist-cli/main.mjs', root);

/** Is the bundle there, and older than every project file that went into it? */
function bundleIsFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(new URL('dist-cli/inputs.json', root), 'utf8'));
    return existsSync(bundle) && inputs.every((file) => statSync(new URL(file, root)).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

const main = bundleIsFresh() ? bundle : source;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);

if (major > 22 || (major === 22 && minor >= 18)) {
  await import(main.href);
} else {
  const bundled = fileURLToPath(new URL('node_modules/node/bin/node', root));
  if (!existsSync(bundled)) {
    console.error(`cancel-lab: needs Node >= 22.18 (this is ${process.version}); run "npm install" in the project folder to get it in node_modules/node.`);
    process.exit(2);
  }
  const child = spawn(bundled, [fileURLToPath(main), ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl-C reaches the child too (same process group); let it finish and report its status.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`cancel-lab: could not start ${bundled}: ${error.message}`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
}
