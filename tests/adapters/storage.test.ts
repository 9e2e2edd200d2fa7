import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { browserStorage, memoryStorage, type WebStorageLike } from "../../adapters/storage/index.ts";
import { fileStorage, fileStore } from "../../adapters/storage/file-storage.ts";
import { StorageKeys } from "../../core/ports.ts";

class FakeWebStorage implements WebStorageLike {
  map = new Map<string, string>();
  full = false;
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => {
    if (this.full) throw new Error("QuotaExceededError");
    this.map.set(k, v);
  };
  removeItem = (k: string) => void this.map.delete(k);
}

describe("storage adapters", () => {
  it("memory storage keeps session and local apart", () => {
    const s = memoryStorage();
    s.session.set(StorageKeys.session.accessToken, "t");
    expect(s.session.get(StorageKeys.session.accessToken)).toBe("t");
    expect(s.local.get(StorageKeys.session.accessToken)).toBeNull();
    s.session.remove(StorageKeys.session.accessToken);
    expect(s.session.get(StorageKeys.session.accessToken)).toBeNull();
  });

  it("browser storage wraps sessionStorage and localStorage and survives a full quota", () => {
    const session = new FakeWebStorage();
    const local = new FakeWebStorage();
    const s = browserStorage({ sessionStorage: session, localStorage: local });
    s.session.set("accessToken", "abc");
    s.local.set("pinnedSwimlanes", '["SN1"]');
    expect(session.map.get("accessToken")).toBe("abc");
    expect(local.map.get("pinnedSwimlanes")).toBe('["SN1"]');
    local.full = true;
    expect(() => s.local.set("language", "de")).not.toThrow();
    expect(s.local.get("language")).toBeNull();
  });

  it("file storage persists local keys across instances; session stays in memory unless given a file", () => {
    const dir = mkdtempSync(join(tmpdir(), "isopter-storage-"));
    const path = join(dir, "sub", "local.json");
    const a = fileStorage(path);
    a.local.set(StorageKeys.local.language, "fr");
    a.session.set(StorageKeys.session.accessToken, "tok");
    const b = fileStorage(path);
    expect(b.local.get(StorageKeys.local.language)).toBe("fr");
    expect(b.session.get(StorageKeys.session.accessToken)).toBeNull();
    b.local.remove(StorageKeys.local.language);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({});
    const withSession = fileStorage(join(dir, "l2.json"), join(dir, "s.json"));
    withSession.session.set("accessToken", "x");
    expect(fileStore(join(dir, "s.json")).get("accessToken")).toBe("x");
  });
});
