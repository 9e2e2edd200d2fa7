import WebSocket from "ws";
import type { Connector } from "./transport.ts";

/** A connector over the ws package to the server's device socket (e.g. ws://127.0.0.1:PORT/device). */
export const wsConnector = (url: string): Connector => ({
  open(h) {
    const socket = new WebSocket(url);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      h.onClose();
    };
    socket.on("open", () =>
      h.onOpen({
        send: (text) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(text);
        },
        close: () => socket.close(1000, "headset closing"),
        drop: () => socket.terminate(),
      }),
    );
    socket.on("message", (data) => h.onMessage(data.toString()));
    socket.on("close", close);
    socket.on("error", () => {
      socket.terminate();
      close();
    });
  },
});
