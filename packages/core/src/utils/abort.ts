/**
 * `promise`'s value, or `onAbort` as soon as `signal` aborts, whichever comes first. The abort
 * listener is removed once the promise settles, so a long-lived signal (a whole headless run, an
 * editor's session) does not collect one listener per call.
 */
export function untilAborted<T, A>(promise: Promise<T>, signal: AbortSignal, onAbort: A): Promise<T | A> {
  if (signal.aborted) return Promise.resolve(onAbort);
  return new Promise<T | A>((resolve, reject) => {
    const abort = () => resolve(onAbort);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
