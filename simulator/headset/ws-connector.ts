import WebSocket from "ws";
import { withRoute } from "../../core/model/socket-route.ts";
import type { Connector } from "./transport.ts";

export interface WsConnectorOptions {
  /** A WebSocket ping this often (real time, ms) ... */
  readonly pingMs?: number;
  /** ... and the link is dropped when no pong came for this long: a half-open connection (the network vanished with no
   * close on either side) is noticed and the headset reconnects. The device protocol has no server-to-headset beat. */
  readonly deadAfterMs?: number;
  /** A link whose opening handshake is not answered within this long (a blackholed network: the connection accepted
   * and never answered) fails, so the headset tries again. Default 10 s. */
  readonly handshakeMs?: number;
}

/** A connector over the ws package to the server's device socket (e.g. ws://127.0.0.1:PORT/device). */
export const wsConnector = (url: string, o: WsConnectorOptions = {}): Connector => ({
  open(h, route) {
    const socket = new WebSocket(withRoute(url, route), { handshakeTimeout: o.handshakeMs ?? 10_000 });
    let closed = false;
    let lastPong = Date.now();
    let pinger: ReturnType<typeof setInterval> | undefined;
    const close = () => {
      if (closed) return;
      closed = true;
      if (pinger) clearInterval(pinger);
      h.onClose();
    };
    socket.on("open", () => {
      lastPong = Date.now();
      pinger = setInterval(() => {
        if (Date.now() - lastPong > (o.deadAfterMs ?? 15_000)) return socket.terminate();
        socket.ping();
      }, o.pingMs ?? 5_000);
      pinger.unref?.();
      h.onOpen({
        send: (text) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(text);
        },
        close: () => socket.close(1000, "headset closing"),
        drop: () => socket.terminate(),
      });
    });
    socket.on("pong", () => (lastPong = Date.now()));
    socket.on("message", (data) => h.onMessage(data.toString()));
    socket.on("close", close);
    socket.on("error", () => {
      socket.terminate();
      close();
    });
  },
});

/**
 * A headset's connector to one device socket address or to several (the processes of a cluster, or one proxy in front
 * of them). Headset number `index` of a fleet starts at address `index` mod n, so a fleet spreads over the processes,
 * and moves on to the next address whenever its link closes or cannot open: a headset whose process died (or drained,
 * closing with 1001) reconnects to another one on its next attempt, 1 s later, and uploads its outbox there.
 */
export const deviceConnector = (urls: string | readonly string[], index = 0, o: WsConnectorOptions = {}): Connector => {
  const list = typeof urls === "string" ? [urls] : urls;
  if (list.length === 0) throw new Error("deviceConnector: no device socket address");
  if (list.length === 1) return wsConnector(list[0]!, o);
  let at = index % list.length;
  return {
    open(h, route) {
      wsConnector(list[at]!, o).open(
        {
          ...h,
          onClose: () => {
            at = (at + 1) % list.length;
            h.onClose();
          },
        },
        route,
      );
    },
  };
};
