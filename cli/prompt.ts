import { CliError, ExitCode } from "./exit-codes.ts";
import type { CliIo } from "./io.ts";

/** Reads stdin to its end (for --password-stdin): the first line, without its line break. */
export async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0] ?? "";
}

/** Asks on the terminal; `hidden` echoes nothing (passwords). Only called when stdin is a TTY. */
export function ask(io: CliIo, question: string, hidden: boolean): Promise<string> {
  const stdin = io.stdin;
  io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let answer = "";
    stdin.setEncoding("utf8");
    stdin.setRawMode?.(true);
    const finish = (fn: () => void) => {
      stdin.setRawMode?.(false);
      stdin.removeListener("data", onData);
      stdin.pause();
      io.stderr.write("\n");
      fn();
    };
    const onData = (chunk: string | Buffer) => {
      for (const c of String(chunk)) {
        if (c === "\r" || c === "\n") return finish(() => resolve(answer));
        if (c === "\u0003" || c === "\u0004") return finish(() => reject(new CliError(ExitCode.Failure, "cancelled")));
        if (c === "\u007f" || c === "\b") {
          if (answer.length > 0) {
            answer = answer.slice(0, -1);
            if (!hidden) io.stderr.write("\b \b");
          }
          continue;
        }
        answer += c;
        if (!hidden) io.stderr.write(c);
      }
    };
    stdin.on("data", onData);
    stdin.resume();
  });
}
