/**
 * `npm install`'s prepare step (after scripts/build-cli.ts): links the launcher into
 * node_modules/.bin as `cancel-lab`, as npm links a dependency's bin, so that `npx cancel-lab`
 * in the project runs it at once. The project declares no `bin` of its own on purpose: for a
 * project's own bin, npx first installs the project into its npx cache, reading the whole
 * dependency tree. `npx cancel-lab run` of a library scenario took 0.75–0.90 s and 121 MiB at
 * its peak that way, and takes 0.41–0.45 s and 77 MiB from the link, the peak being npm's own
 * (npx of a no-op bin in a tiny package: 0.31–0.40 s, 77 MiB; six runs of each, alternating).
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../node_modules/.bin/', import.meta.url));
await mkdir(bin, { recursive: true });
if (process.platform === 'win32') {
  // No symlinks without privileges there: a command shim, as npm writes for a dependency's bin.
  await writeFile(`${bin}cancel-lab.cmd`, '@node "%~dp0\\..\\..\\bin\\cancel-lab.mjs" %*\r\n');
} else {
  await rm(`${bin}cancel-lab`, { force: true });
  await symlink('../../bin/cancel-lab.mjs', `${bin}cancel-lab`);
}
