import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../simulator/server/config.ts";
import { clientAddress } from "../../simulator/server/http/client-address.ts";

// Behind nginx (deploy/) every connection comes from the proxy; login limits per address and the audit trail need the
// caller's address, which only a trusted proxy may tell (ISOPTER_TRUSTED_PROXIES).

const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
  }) as unknown as IncomingMessage;

describe("client address", () => {
  it("is the connection's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(request("198.51.100.4", "203.0.113.7"))).toBe("198.51.100.4");
    expect(clientAddress(request("::ffff:198.51.100.4"))).toBe("198.51.100.4");
  });

  it("is the address a trusted proxy forwarded: the right-most entry that is not a trusted proxy", () => {
    const trusted = ["127.0.0.1", "10.0.0.2"];
    expect(clientAddress(request("127.0.0.1", "203.0.113.7"), trusted)).toBe("203.0.113.7");
    // A client's own X-Forwarded-For is the left part: not believed.
    expect(clientAddress(request("::ffff:127.0.0.1", "1.2.3.4, 203.0.113.7"), trusted)).toBe("203.0.113.7");
    // Two proxies in a row.
    expect(clientAddress(request("127.0.0.1", "203.0.113.7, 10.0.0.2"), trusted)).toBe("203.0.113.7");
    // A trusted proxy that forwarded nothing: itself.
    expect(clientAddress(request("127.0.0.1"), trusted)).toBe("127.0.0.1");
  });

  it("a peer that is not trusted cannot pretend to be someone else", () => {
    expect(clientAddress(request("198.51.100.4", "203.0.113.7"), ["127.0.0.1"])).toBe("198.51.100.4");
  });

  it("ISOPTER_TRUSTED_PROXIES lists IP addresses", () => {
    expect(readConfig({ ISOPTER_TRUSTED_PROXIES: "127.0.0.1, ::1" }).trustedProxies).toEqual(["127.0.0.1", "::1"]);
    expect(readConfig({}).trustedProxies).toEqual([]);
    expect(() => readConfig({ ISOPTER_TRUSTED_PROXIES: "proxy.local" })).toThrow(/ISOPTER_TRUSTED_PROXIES/);
    expect(() => readConfig({ HEADSET_URLS: "http://127.0.0.1:4170/device" })).toThrow(/HEADSET_URLS/);
    expect(readConfig({ HEADSET_URLS: "ws://127.0.0.1:4171/device,ws://127.0.0.1:4172/device" }).headsetUrls).toHaveLength(2);
  });
});
