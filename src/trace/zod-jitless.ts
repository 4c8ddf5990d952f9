/**
 * Zod without code generation, for every schema built after this module runs. By default zod
 * compiles a fast path for an object schema (`new Function`) the first time it parses with it. A
 * run's sides parse dozens of the SDK's schemas and the tools' input schemas once each in their
 * first run, so compiling them was a fifth of a fresh pair's first run (44 against 36 ms, Node,
 * median of six each), and a warm run takes the same time without it. Parsing gives the same
 * result either way (it is zod's own `jitless` setting), so no trace changes.
 *
 * It must run before the schemas are built, which is as their modules load: this layer's index
 * imports it first, and the scenario layer's index and the sides' modules (workers/client-side.ts,
 * server-side.ts) import this layer's index before anything else, the SDK included.
 */
import * as z from 'zod/v4';

z.config({ jitless: true });
