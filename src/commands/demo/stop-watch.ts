/**
 * Ctrl-C (or SIGTERM) during the demo: the first stops it (the step running is abandoned, the
 * sandbox stopped and its temporary dir removed, exit 130); a second exits at once.
 */
import { CancelledError, ExitCode } from '../../errors.js';

export const cancelled = () =>
  new CancelledError('Demo cancelled.', 'The sandbox was stopped and its temporary data removed.');

export interface StopWatch {
  readonly stopped: boolean;
  /** Resolves on the first SIGINT/SIGTERM (or when the test's signal aborts). */
  readonly whenStopped: Promise<void>;
  /** `work`, unless a stop comes first: then a CancelledError. */
  race<T>(work: Promise<T>): Promise<T>;
  dispose(): void;
}

export function watchForStop(signal: AbortSignal | undefined, cleanupNow: () => void): StopWatch {
  let stopped = false;
  let resolveStopped!: () => void;
  const stoppedPromise = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  const onSignal = () => {
    if (stopped) {
      // A second Ctrl-C: exit at once (removing the temporary dir first, unless --keep kept it).
      cleanupNow();
      process.exit(ExitCode.cancelled);
    }
    stopped = true;
    resolveStopped();
  };
  const onAbort = () => {
    if (!stopped) onSignal();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get stopped() {
      return stopped;
    },
    whenStopped: stoppedPromise,
    race(work) {
      return Promise.race([
        work,
        stoppedPromise.then(() => {
          throw cancelled();
        }),
      ]);
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
