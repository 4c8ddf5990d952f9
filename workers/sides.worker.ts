// Browser entry for both sides in one Web Worker: the SDK is fetched, compiled and evaluated
// once for the pair, not once per side. The page's first message says how it drives them
// (sides-start.ts).
import { startSides, type SidesWorkerStart } from './sides-start.ts';

self.addEventListener('message', (event: MessageEvent<SidesWorkerStart>) => startSides(event.data), { once: true });
