import { describe, expect, it } from "vitest";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { configHome } from "../../cli/profiles/config-home.ts";
import { checkServerUrl, ProfileStore } from "../../cli/profiles/profile-store.ts";
import { ask } from "../../cli/prompt.ts";
import type { CliIo } from "../../cli/io.ts";
import { isopter, tempHome } from "./harness.ts";

describe("profiles", () => {
  it("live under $ISOPTER_HOME, else $XDG_CONFIG_HOME/isopter, else ~/.config/isopter", () => {
    expect(configHome({ ISOPTER_HOME: "/a", XDG_CONFIG_HOME: "/b", HOME: "/c" })).toBe("/a");
    expect(configHome({ XDG_CONFIG_HOME: "/b", HOME: "/c" })).toBe("/b/isopter");
    expect(configHome({ HOME: "/c" })).toBe("/c/.config/isopter");
  });

  it("a token file is 0600 even when an older, wider file was there", () => {
    const store = new ProfileStore(tempHome());
    store.writeToken("x", "old");
    writeFileSync(store.tokenPath("x"), "old", { mode: 0o644 });
    store.writeToken("x", "new");
    expect(statSync(store.tokenPath("x")).mode & 0o777).toBe(0o600);
    expect(store.readToken("x")).toBe("new");
  });

  it("server URLs are normalised; other schemes are bad arguments", () => {
    expect(checkServerUrl("http://127.0.0.1:4170/")).toBe("http://127.0.0.1:4170");
    expect(checkServerUrl("https://clinic.example.org/isopter/")).toBe("https://clinic.example.org/isopter");
    expect(() => checkServerUrl("ftp://x")).toThrow(/must start with http:\/\/ or https:\/\//);
  });

  it("`use` switches the current profile; an unknown one exits 2", async () => {
    const home = tempHome();
    const store = new ProfileStore(home);
    store.saveProfile("a", { server: "http://127.0.0.1:1" }, true);
    store.saveProfile("b", { server: "http://127.0.0.1:2" }, false);
    expect((await isopter(["use", "b"], { env: { ISOPTER_HOME: home } })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "config.json"), "utf8")).current).toBe("b");
    const bad = await isopter(["use", "c"], { env: { ISOPTER_HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no profile "c" \(known: a, b\)/);
    const list = await isopter(["profiles"], { env: { ISOPTER_HOME: home } });
    expect(list.stdout).toMatch(/^ {2}a\s+http:\/\/127\.0\.0\.1:1\s+logged out\n\* b\s+http:\/\/127\.0\.0\.1:2\s+logged out\n$/);
  });

  it("a corrupt config.json is a clear failure (exit 1)", async () => {
    const home = tempHome();
    writeFileSync(join(home, "config.json"), "{ nope");
    const run = await isopter(["profiles"], { env: { ISOPTER_HOME: home } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/config\.json: not valid JSON/);
  });
});

describe("the terminal prompt", () => {
  const fakeTty = () => {
    const stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      raw: false as boolean,
      setRawMode(r: boolean) {
        this.raw = r;
        return this;
      },
    });
    const stderr = new PassThrough();
    let shown = "";
    stderr.on("data", (c) => (shown += c));
    const io: CliIo = { stdin, stdout: new PassThrough(), stderr, env: {}, cwd: "/" };
    return { io, stdin, shown: () => shown };
  };

  it("reads a hidden answer in raw mode, with backspace, and echoes nothing of it", async () => {
    const t = fakeTty();
    const answer = ask(t.io, "Password: ", true);
    expect(t.stdin.raw).toBe(true);
    t.stdin.write("secrx\u007ft\r");
    expect(await answer).toBe("secrt");
    expect(t.stdin.raw).toBe(false);
    expect(t.shown()).toBe("Password: \n");
  });

  it("Ctrl-C cancels", async () => {
    const t = fakeTty();
    const answer = ask(t.io, "Username: ", false);
    t.stdin.write("ab\u0003");
    await expect(answer).rejects.toThrow("cancelled");
  });
});
