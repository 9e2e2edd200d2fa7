// A progress line on stderr, redrawn in place; silent unless stderr is a terminal (pipes and CI logs stay clean).

export interface Progress {
  tick(by?: number): void;
  setTotal(total: number): void;
  done(): void;
}

const silent: Progress = { tick() {}, setTotal() {}, done() {} };

/** `detail` adds to the line, e.g. how many results were written so far. */
export function progress(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  label: string,
  total?: number,
  detail?: () => string,
): Progress {
  if (!stream.isTTY) return silent;
  let count = 0;
  let max = total;
  let last = 0;
  const started = Date.now();
  const draw = (force: boolean) => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    const rate = count / Math.max(0.001, (now - started) / 1000);
    const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - 60));
    let line: string;
    if (max !== undefined && max > 0) {
      const frac = Math.min(1, count / max);
      const filled = Math.round(frac * width);
      line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${count}/${max} ${Math.floor(frac * 100)}% ${rate.toFixed(0)}/s`;
    } else {
      line = `${label} ${count} ${rate.toFixed(0)}/s`;
    }
    stream.write(`\r\x1b[2K${line}${detail ? `  ${detail()}` : ""}`);
  };
  return {
    tick(by = 1) {
      count += by;
      draw(false);
    },
    setTotal(t) {
      max = t;
      draw(true);
    },
    done() {
      draw(true);
      stream.write("\n");
    },
  };
}
