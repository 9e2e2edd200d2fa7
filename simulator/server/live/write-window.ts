import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";

// The frames a browser is sent within a few milliseconds leave in one write (issue 32 §3). Every live event is a socket
// write to each browser of its organisation, and each write is a system call that may wake the reader: profiled at 333
// headsets on one process, writev took a third of its time. A browser's socket is corked at its first frame and every
// corked socket is uncorked WRITE_WINDOW_MS later, so the frames of that window go out as one write per browser, and
// the writes to all browsers together. Frames keep their order (cork only buffers); a close frame waits with them, and
// ending the connection writes whatever is held.

/**
 * How long a frame may wait for others, as a live event crossing the bus does (bus/routed-bus.ts PACK_MS): a delay far
 * inside the live aim (50 ms from headset to browser). Measured on one process at 3,000 headsets (bench:cluster's
 * load, six 20 s windows each way, alternated): 0.30 server cores against 0.33 with a write per frame, and the bench's
 * own side 10% less; 1.4 frames per write and four sockets per flush. At 6,000 headsets: 0.49-0.55 cores against
 * 0.67-0.79. Uncorking at setImmediate (one turn's frames only) gathered 1.1 frames per write: a turn seldom holds more
 * than one frame for a browser.
 */
export const WRITE_WINDOW_MS = 4;

const streams = new WeakMap<WebSocket, Duplex>();
const corked = new Set<Duplex>();

/** The connection under a browser's WebSocket (server.ts, at the upgrade): what gets corked. */
export const knowStream = (socket: WebSocket, stream: Duplex) => void streams.set(socket, stream);

const flush = () => {
  // Emptied first: a frame sent while these are written (a write's callback) opens the next window.
  const held = [...corked];
  corked.clear();
  for (const stream of held) stream.uncork();
};

/** Sends a text frame, with the window's other frames to the same socket. */
export const sendInWindow = (socket: WebSocket, data: Buffer) => {
  const stream = streams.get(socket);
  if (stream && !corked.has(stream)) {
    if (corked.size === 0) setTimeout(flush, WRITE_WINDOW_MS);
    stream.cork();
    corked.add(stream);
  }
  socket.send(data, { binary: false });
};
