// Run virtual headsets beside an already running server:
//   npx tsx simulator/headset/main.ts ws://127.0.0.1:4170/device VR-0005 VR-0006
// Each serial must be registered with that server (it refuses unknown ones). Environment: SPEED (default 1),
// AUTOPILOT=1 (start queued tests by themselves), ISOPTER_HEADSET_FAULTS=demo (random faults).
import { startHeadsets } from "./index.ts";

const [url, ...serials] = process.argv.slice(2);
if (!url || serials.length === 0) {
  console.error("usage: tsx simulator/headset/main.ts <ws://host:port/device> <serial> [serial ...]");
  process.exit(2);
}
const speed = Number(process.env.SPEED ?? 1);
if (!(speed > 0)) {
  console.error(`SPEED must be a number above 0, got '${process.env.SPEED}'`);
  process.exit(2);
}
const fleet = await startHeadsets({ url, serials, speed, autopilot: process.env.AUTOPILOT === "1" });
console.log(`${serials.length} virtual headset(s) on ${url} at speed ${speed}; Ctrl-C stops them.`);
const stop = () => void fleet.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
