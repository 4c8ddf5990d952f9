// Browser entry for both sides in one Web Worker: the SDK is fetched, compiled and evaluated
// once for the pair, not once per side. The worker's name says what it serves (worker-names.ts),
// on its own port.
import { startSides } from './sides-start.ts';
import { webPort } from './side-channel.ts';

startSides(self.name, webPort(self));
