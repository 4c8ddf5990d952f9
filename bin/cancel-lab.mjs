#!/usr/bin/env node
// cancel-lab's launcher. It runs the command line in this Node when it can: the JavaScript
// bundle in dist-cli/ (scripts/build-cli.ts; `npm install` builds it) while none of the files
// that went into it changed since, else the TypeScript source, which Node strips of its types
// from 22.18 on. An older Node (the system's, say) hands over to the one `npm install` puts in
// node_modules/node (the `node` devDependency), passing on the arguments and the exit status.
import { existsSync, readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setUpProcessFor } from './short-process.mjs';

// Plain paths, not file: URLs: statting some 250 files by URL costs this process 6 MiB more.
const root = fileURLToPath(new URL('../', import.meta.url));
const source = `${root}src/cli/main.ts`;
const bundle = `${root}dist-cli/main.mjs`;

/** Is the bundle there, and older than every project file that went into it? */
function bundleIsFresh() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(`${root}dist-cli/inputs.json`, 'utf8'));
    return existsSync(bundle) && inputs.every((file) => statSync(`${root}${file}`).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

const main = bundleIsFresh() ? bundle : source;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);

if (major > 22 || (major === 22 && minor >= 18)) {
  // Said by a launcher that handed over to this Node (below); not passed on to what the command
  // line starts (a server the probe runs, say).
  delete process.env.CANCEL_LAB_HANDED_OVER;
  // V8's settings and zod's for a short command (short-process.mjs), before the command line loads.
  setUpProcessFor(process.argv[2]);
  // V8's compiled code for the bundle, kept between runs (in the system's temporary folder):
  // later starts skip compiling its JavaScript, about 2 MB for `run`.
  module.enableCompileCache?.();
  await import(pathToFileURL(main).href);
} else {
  const bundled = `${root}node_modules/node/bin/node`;
  // A Node handed over to that is too old as well does not hand over again.
  if (!existsSync(bundled) || process.env.CANCEL_LAB_HANDED_OVER !== undefined) {
    console.error(`cancel-lab: needs Node >= 22.18 (this is ${process.version}); run "npm install" in the project folder to get it in node_modules/node.`);
    process.exit(2);
  }
  // This launcher again, in that Node: it sets the process up as above. node:child_process is
  // loaded here only: with what it brings (net, dgram, streams) it is some 40 of Node's own
  // modules, which a launcher that runs the command line itself would load for nothing.
  const { spawn } = await import('node:child_process');
  const child = spawn(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, CANCEL_LAB_HANDED_OVER: '1' } });
  // Ctrl-C reaches the child too (same process group); let it finish and report its status.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`cancel-lab: could not start ${bundled}: ${error.message}`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
}
