import { createWriteStream } from "node:fs";
import { once } from "node:events";

/** Resolves on 'drain', rejects on 'error', and removes both listeners either way. */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.removeListener("drain", onDrain);
      stream.removeListener("error", onError);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onError = (e: Error) => done(e);
    stream.on("drain", onDrain);
    stream.on("error", onError);
  });
}

// Text output with backpressure: chunks are gathered up to 64 kB, then written; a full stream is waited for
// ('drain'), so a slow disk or pipe holds the export back instead of filling memory.

export interface TextSink {
  write(text: string): Promise<void>;
  /** Flushes; closes the stream when the sink owns it (a file), leaves stdout open. */
  close(): Promise<void>;
}

const FLUSH_AT = 64 * 1024;

export function streamSink(stream: NodeJS.WritableStream, owned: boolean): TextSink {
  let buffer = "";
  let failure: Error | null = null;
  stream.on("error", (e: Error) => (failure = e));
  const flush = async () => {
    if (failure) throw failure;
    if (buffer === "") return;
    const chunk = buffer;
    buffer = "";
    if (!stream.write(chunk)) await drained(stream);
    if (failure) throw failure;
  };
  return {
    async write(text) {
      buffer += text;
      if (buffer.length >= FLUSH_AT) await flush();
    },
    async close() {
      await flush();
      if (owned) {
        const finished = once(stream, "finish");
        stream.end();
        await finished;
      }
    },
  };
}

export const fileSink = (path: string): TextSink => streamSink(createWriteStream(path), true);
