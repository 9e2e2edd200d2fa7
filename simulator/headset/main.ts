// Run virtual headsets beside an already running server:
//   npx tsx simulator/headset/main.ts ws://127.0.0.1:4170/device VR-0005=ABCDE-FGHJK VR-0006=isd1.xxxx VR-0007
// Several comma-separated addresses (the processes of a cluster) spread the headsets over them; each moves on to the
// next address when its link closes, so a process that dies loses none of them.
// Each serial is enrolled there by a manager (Headsets section, `isopter devices enrol`): after `=` comes its pairing
// code or its device credential (isd1.…). A credential got for a pairing code is kept in the key file HEADSET_KEYS
// (default .data/headset-keys.json, mode 0600), where a serial given without `=` finds it on the next run.
// Environment: SPEED (default 1), AUTOPILOT=1 (start queued tests by themselves), ISOPTER_HEADSET_FAULTS=demo.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { looksLikeCredential } from "../../core/device/enrolment.ts";
import { type HeadsetKey, startHeadsets } from "./index.ts";

const [url, ...args] = process.argv.slice(2);
if (!url || args.length === 0) {
  console.error("usage: tsx simulator/headset/main.ts <ws://host:port/device>[,<ws://...>] <serial>[=<pairing code or credential>] ...");
  process.exit(2);
}
const speed = Number(process.env.SPEED ?? 1);
if (!(speed > 0)) {
  console.error(`SPEED must be a number above 0, got '${process.env.SPEED}'`);
  process.exit(2);
}
const keyFile = process.env.HEADSET_KEYS ?? ".data/headset-keys.json";
const kept: Record<string, string> = existsSync(keyFile) ? (JSON.parse(readFileSync(keyFile, "utf8")) as Record<string, string>) : {};
const keep = (serial: string, credential: string) => {
  kept[serial] = credential;
  mkdirSync(dirname(keyFile), { recursive: true });
  writeFileSync(keyFile, JSON.stringify(kept, null, 2), { mode: 0o600 });
  chmodSync(keyFile, 0o600);
};

const keys = new Map<string, HeadsetKey>();
for (const arg of args) {
  const [serial, secret] = arg.split("=", 2) as [string, string | undefined];
  const key: HeadsetKey | undefined =
    secret === undefined
      ? kept[serial]
        ? { credential: kept[serial] }
        : undefined
      : looksLikeCredential(secret)
        ? { credential: secret }
        : { pairingCode: secret };
  if (!key) {
    console.error(`${serial}: no credential kept in ${keyFile}; give its pairing code or credential as ${serial}=...`);
    process.exit(2);
  }
  keys.set(serial, key);
}
const urls = url.split(",").filter(Boolean);
const fleet = await startHeadsets({ url: urls, serials: [...keys.keys()], keys, speed, autopilot: process.env.AUTOPILOT === "1" });
for (const h of fleet.headsets) h.events.on("enrolled", (credential) => keep(h.deviceSn, credential));
console.log(`${keys.size} virtual headset(s) on ${urls.join(", ")} at speed ${speed}; Ctrl-C stops them.`);
const stop = () => void fleet.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
