import type { IncomingMessage } from "node:http";

// Whom a request or socket comes from, for login limits per address, the audit trail and the device log. Behind a
// reverse proxy (deploy/nginx) every connection's peer is the proxy, so the address it forwarded is taken instead, but
// only from peers listed in ISOPTER_TRUSTED_PROXIES: anyone else could write any X-Forwarded-For.

/** An IPv4 address as IPv6 (::ffff:127.0.0.1) is the IPv4 address. */
const plain = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");

/**
 * The connection's peer, or, when that is a trusted proxy, the right-most X-Forwarded-For entry that is not itself a
 * trusted proxy (each proxy appends the address it was reached from, so entries to its left are the client's word).
 */
export const clientAddress = (req: IncomingMessage, trustedProxies: ReadonlyArray<string> = []): string => {
  const peer = plain(req.socket.remoteAddress ?? "unknown");
  if (!trustedProxies.includes(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((h) => plain(h.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.includes(hops[i]!)) return hops[i]!;
  return peer;
};
