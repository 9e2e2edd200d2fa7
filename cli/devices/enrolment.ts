import type { Command } from "commander";
import type { EnrolmentIssued } from "../../core/model/enrolment.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { CliError, ExitCode } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { openSession, type Session } from "../session.ts";

// isopter devices enrol SN [--alias NAME] [--credential] [--again] | revoke SN (managers; issue 15, point 1). The
// secret is printed once: the server keeps only its hash.

/** The organisation's headset with this serial, or exit 1 naming the known ones. */
const headsetOf = async (session: Session, serial: string) => {
  const list = await session.api.call("device.enrolments", {});
  const found = list.find((h) => h.deviceSn === serial);
  if (!found)
    throw new CliError(
      ExitCode.Failure,
      `no headset ${serial} in this organisation (known: ${list.map((h) => h.deviceSn).join(", ") || "none"})`,
    );
  return found;
};

const issuedText = (a: EnrolmentIssued, again: boolean): string => {
  const h = a.headset;
  const what =
    a.secret.kind === "pairingCode"
      ? `Pairing code: ${a.secret.value}\nType it on the headset; it works once, until ${a.secret.expiresAt}.`
      : `Device credential: ${a.secret.value}\nInstall it on the headset.`;
  return `${again ? "Enrolled again" : "Enrolled"} ${h.deviceSn} (${h.alias}).\n${what}\nIt is shown only this once: the server keeps no copy it could show again.\n`;
};

export function registerEnrolment(devices: Command, io: CliIo): void {
  defineCommand(
    devices,
    "enrol <serial>",
    "enrol a headset for the organisation (managers): prints its one-time pairing code or device credential, once",
  )
    .option("--alias <name>", "the lane's name (default: the serial)")
    .option("--credential", "issue the device credential itself instead of a one-time pairing code", false)
    .option("--again", "a headset already enrolled here: issue a new secret; the old one stops working and a live connection closes", false)
    .action(async (serial: string, o: { alias?: string; credential: boolean; again: boolean }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const session = openSession(shared, io);
      const secret = o.credential ? ("credential" as const) : ("pairingCode" as const);
      const issued = o.again
        ? await session.api.call("device.reenrol", { query: { id: (await headsetOf(session, serial)).id }, body: { secret } })
        : await session.api.call("device.enrol", {
            body: { deviceSn: serial, ...(o.alias !== undefined ? { alias: o.alias } : {}), secret },
          });
      io.stdout.write(shared.json ? JSON.stringify(issued) + "\n" : issuedText(issued, o.again));
    });

  defineCommand(
    devices,
    "revoke <serial>",
    "revoke a headset (managers): its credential stops working and its live connection closes at once",
  ).action(async (serial: string, _o: unknown, cmd: Command) => {
    const shared = sharedOptions(cmd);
    const session = openSession(shared, io);
    const revoked = await session.api.call("device.revoke", { query: { id: (await headsetOf(session, serial)).id } });
    io.stdout.write(
      shared.json
        ? JSON.stringify(revoked) + "\n"
        : `Revoked ${revoked.deviceSn} (${revoked.alias}); it cannot connect until it is enrolled again.\n`,
    );
  });
}
