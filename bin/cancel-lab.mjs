#!/usr/bin/env node
// cancel-lab's launcher. The runner is TypeScript run by Node's own type stripping, which
// needs Node >= 22.18; `npm install` puts one in node_modules/node (the `node` devDependency)
// whatever the system Node is. So: re-execute src/cli/main.ts on this Node if it is new
// enough, else on node_modules/node/bin/node, and pass on the arguments and the exit status.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const bundled = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const node = major > 22 || (major === 22 && minor >= 18) ? process.execPath : existsSync(bundled) ? bundled : null;

if (node === null) {
  console.error(`cancel-lab: needs Node >= 22.18 (this is ${process.version}); run "npm install" in the project folder to get it in node_modules/node.`);
  process.exit(2);
}

const child = spawn(node, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl-C reaches the child too (same process group); let it finish and report its status.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  console.error(`cancel-lab: could not start ${node}: ${error.message}`);
  process.exit(2);
});
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
