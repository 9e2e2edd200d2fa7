// A task a server process runs every so often on its own (mail delivery, the missed-session sweep, the worklist
// query): one pass at a time, a failure logged and tried again next time, and a stop that waits for the pass under
// way so nothing is cut off mid-write at shutdown.

export interface TaskState {
  /** Set once stop() is called: a pass checks it between steps and ends early, leaving the rest for next time. */
  readonly stopped: boolean;
}

export interface PeriodicTask<T> {
  /** Runs a pass now, or joins the one under way; resolves with its result, or undefined when it failed. */
  run(): Promise<T | undefined>;
  /** Stops the timer and waits for the pass under way. */
  stop(): Promise<void>;
}

export interface PeriodicOptions<T> {
  /** Between passes; 0 runs it only when asked (tests). The timer never keeps the process alive. */
  readonly everyMs: number;
  /** Also runs a pass at once (with a timer only). */
  readonly atStart: boolean;
  readonly pass: (state: TaskState) => Promise<T>;
  /** Told of a pass that failed while the task was running (after stop, a failure is the shutdown's, not news). */
  readonly failed: (error: unknown) => void;
}

export const periodicTask = <T>(options: PeriodicOptions<T>): PeriodicTask<T> => {
  const state = { stopped: false };
  let running: Promise<T | undefined> | null = null;
  const run = () => {
    running ??= options
      .pass(state)
      .catch((e: unknown) => {
        if (!state.stopped) options.failed(e);
        return undefined;
      })
      .finally(() => void (running = null));
    return running;
  };
  const timer = options.everyMs > 0 ? setInterval(() => void run(), options.everyMs) : null;
  timer?.unref();
  if (timer && options.atStart) void run();
  return {
    run,
    async stop() {
      state.stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
};
