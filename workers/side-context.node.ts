// The async context that says whose step is running, with both sides in one thread. Imported
// before either side's modules, so that nothing of theirs runs under another locator.
import { AsyncLocalStorage } from 'node:async_hooks';
import { locateSidesWith, type SideState } from './runtime.ts';

export const running = new AsyncLocalStorage<SideState>();
locateSidesWith(() => running.getStore());
