/**
 * Resolves in a task of its own, after whatever input the page has queued: how long work
 * (deriving the view of a long trace, painting its panels) gives the main thread back.
 * A MessageChannel message, not setTimeout(0), which browsers clamp to 4 ms when nested.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}
