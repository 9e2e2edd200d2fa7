import { StimuliUpdate } from "../../core/model/enums.ts";

// Stimulus timing. "Stimuli update" is the onset-to-onset interval for the usual 200 ms stimulus; a longer stimulus
// (Esterman's 500 ms) lengthens each cycle by the extra showing time, because the response window opens as the stimulus
// ends. Adaptive update grows the window from the patient's recent response times: 900 ms + twice the mean of the last
// five response times, between 1000 and 2500 ms (2000 ms for a typical 550 ms responder, the figure the seeds' duration
// estimate counts adaptive as).

export const ADAPTIVE_START_MS = 2000;
export const ADAPTIVE_MIN_MS = 1000;
export const ADAPTIVE_MAX_MS = 2500;
const RECENT = 5;

export interface StimulusTimer {
  /** Update interval for the next presentation (ms). */
  update(): number;
  /** Whole cycle of the next presentation (ms): update plus any showing time beyond 200 ms. */
  cycle(): number;
  /** Feed a response time (ms) to the adaptive window. */
  observe(responseTime: number | null): void;
}

export const createStimulusTimer = (stimuliUpdate: StimuliUpdate, showtime: number): StimulusTimer => {
  const recent: number[] = [];
  const adaptive = stimuliUpdate === StimuliUpdate.Adaptive;
  const update = () => {
    if (!adaptive) return stimuliUpdate;
    if (recent.length === 0) return ADAPTIVE_START_MS;
    const mean = recent.reduce((s, x) => s + x, 0) / recent.length;
    return Math.round(Math.min(ADAPTIVE_MAX_MS, Math.max(ADAPTIVE_MIN_MS, 900 + 2 * mean)));
  };
  return {
    update,
    cycle: () => update() + Math.max(0, showtime - 200),
    observe: (rt) => {
      if (rt === null) return;
      recent.push(rt);
      if (recent.length > RECENT) recent.shift();
    },
  };
};
