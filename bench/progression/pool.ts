// Worker threads for npm run bench:progression, one per core used: each takes the next task when it has answered one.
// The workers run the TypeScript sources through tsx, registered in each thread (a worker does not inherit the
// parent's loader).
import { Worker } from "node:worker_threads";

export interface Pool<Task, Answer> {
  run(tasks: readonly Task[]): Promise<Answer[]>;
  close(): Promise<void>;
}

export const createPool = <Task, Answer>(workers: number): Pool<Task, Answer> => {
  const entry = new URL("./worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  const threads = Array.from({ length: workers }, () => new Worker(code, { eval: true }));
  return {
    run: (tasks) =>
      new Promise((resolve, reject) => {
        const answers: Answer[] = new Array(tasks.length);
        let next = 0,
          done = 0;
        if (tasks.length === 0) resolve(answers);
        const feed = (w: Worker) => {
          if (next >= tasks.length) return;
          const k = next++;
          w.once("message", (a: Answer) => {
            answers[k] = a;
            if (++done === tasks.length) resolve(answers);
            else feed(w);
          });
          w.postMessage(tasks[k]);
        };
        for (const w of threads) {
          w.once("error", reject);
          feed(w);
        }
      }),
    close: async () => {
      await Promise.all(threads.map((w) => w.terminate()));
    },
  };
};
