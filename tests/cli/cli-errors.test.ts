import { describe, expect, it } from "vitest";
import { isopter, isopterProcess } from "./harness.ts";

// Documented exit codes: 0 ok, 1 failure, 2 bad arguments, 3 not logged in / auth, 4 server unreachable.

describe("bad arguments exit 2 with a message", () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["an unknown option", ["analyse", "x.csv", "--bogus"], /unknown option '--bogus'/],
    ["a missing argument", ["analyse"], /missing required argument 'file'/],
    ["an unknown command", ["exprot"], /unknown command 'exprot'/],
    [
      "a malformed date",
      ["export", "--all", "--from", "2024-13-01"],
      /option '--from <date>' argument '2024-13-01' is invalid. Expected a date as YYYY-MM-DD/,
    ],
    [
      "an unknown format",
      ["export", "--all", "--format", "xml"],
      /argument 'xml' is invalid. Allowed choices are csv, json, ndjson, fhir, dicom, pdf/,
    ],
    ["an unknown pattern", ["export", "--all", "--pattern", "24-3"], /Expected one of 24-2, G/],
    ["an unknown eye", ["export", "--all", "--eye", "both"], /Expected right, left or binocular/],
    ["no selection", ["export", "--format", "json"], /say which results: --patient ID/],
    ["--all with --patient", ["export", "--all", "--patient", "p1"], /--all exports the whole organisation/],
    ["CSV without a pattern", ["export", "--all", "--server", "http://127.0.0.1:9"], /--format csv holds one pattern per file/],
    ["--from after --to", ["export", "--all", "--from", "2024-02-01", "--to", "2024-01-01"], /--from 2024-02-01 is after --to 2024-01-01/],
    [
      "PDF without a directory",
      ["export", "--all", "--format", "pdf", "--server", "http://127.0.0.1:9"],
      /--format pdf writes one file per result: give a directory with --out DIR/,
    ],
    [
      "an unknown language",
      ["export", "--all", "--format", "pdf", "--out", "x", "--language", "xx"],
      /argument 'xx' is invalid. Allowed choices are en, fr, de, it, es, chi, mexsp, bp, nl, tr/,
    ],
    ["a server that is not a URL", ["login", "--server", "clinic", "-u", "a"], /--server: "clinic" is not a URL/],
    ["a bad profile name", ["profiles", "--profile", "a b"], /--profile: "a b" is not a valid profile name/],
    ["a bad ping count", ["devices", "ping", "-c", "0"], /argument '0' is invalid. Expected a whole number above 0/],
    ["diagnose without a serial", ["devices", "diagnose"], /missing required argument 'serial'/],
    ["an unknown fault set", ["simulate", "--faults", "chaos"], /Allowed choices are none, demo/],
  ];
  it("an unknown $ISOPTER_LANGUAGE, before anything talks to the server", async () => {
    const run = await isopter(["export", "--all", "--format", "pdf", "--out", "x", "--server", "http://127.0.0.1:9"], {
      env: { ISOPTER_LANGUAGE: "klingon" },
    });
    expect(run.stderr).toMatch(/ISOPTER_LANGUAGE=klingon: not an interface language \(en, fr, de, it, es, chi, mexsp, bp, nl, tr\)/);
    expect(run.code).toBe(2);
  });
  for (const [what, args, message] of cases)
    it(what, async () => {
      // A token is present where the check comes after the session is opened, so only the argument can fail.
      const run = await isopter(args, { env: {} });
      expect(run.stderr).toMatch(message);
      expect(run.code).toBe(2);
    });
});

describe("other exit codes", () => {
  it("3 when not logged in", async () => {
    const run = await isopter(["export", "--all", "--format", "json", "--server", "http://127.0.0.1:9"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/not logged in \(profile "default"\): run `isopter login`/);
  });

  it("4 when the server is unreachable", async () => {
    const run = await isopter(["login", "--server", "http://127.0.0.1:9", "-u", "a"], { env: { ISOPTER_PASSWORD: "x" } });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/server unreachable/);
  });

  it("--help lists the exit codes and every command, and exits 0", async () => {
    const run = await isopter(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /Exit codes:\n {2}0 {2}success\n {2}1 {2}failure.*\n {2}2 {2}bad arguments.*\n {2}3 {2}not logged in.*\n {2}4 {2}server unreachable.*\n {2}5 {2}no simulated headsets/,
    );
    for (const c of ["login", "logout", "profiles", "use", "export", "analyse", "devices", "simulate"])
      expect(run.stdout).toMatch(new RegExp(`\\n  ${c} `));
  });

  it("every command has --help with the shared options", async () => {
    for (const c of [
      ["login"],
      ["logout"],
      ["profiles"],
      ["export"],
      ["analyse"],
      ["simulate", "start"],
      ["devices", "list"],
      ["devices", "watch"],
      ["devices", "ping"],
      ["devices", "diagnose"],
      ["simulate", "headsets", "list"],
      ["simulate", "headsets", "add"],
      ["simulate", "headsets", "remove"],
      ["simulate", "fault"],
      ["simulate", "profile"],
      ["simulate", "speed"],
    ]) {
      const run = await isopter([...c, "--help"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("--server <url>");
      expect(run.stdout).toContain("--profile <name>");
      expect(run.stdout).toContain("--json");
    }
  });

  it("the launcher cli/bin.mjs runs the CLI (bundled) and keeps the exit codes", async () => {
    const [help, bad] = await Promise.all([isopterProcess(["--help"]), isopterProcess(["analyse", "--bogus"])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: isopter");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--bogus'");
  });
});
