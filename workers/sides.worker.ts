// Browser entry for both sides in one Web Worker: the SDK is fetched, compiled and evaluated
// once for the pair, not once per side. The page's first message says how it drives them
// (sides-start.ts); a worker named for the fresh run (first-run.ts) has started that run by then.
import { startFreshRun, startSides, type SidesWorkerStart } from './sides-start.ts';
import { FRESH_RUN_WORKER } from './first-run.ts';

const begin = self.name === FRESH_RUN_WORKER ? startFreshRun() : startSides;
self.addEventListener('message', (event: MessageEvent<SidesWorkerStart>) => begin(event.data), { once: true });
