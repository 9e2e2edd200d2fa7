import { Argument, type Command } from "commander";
import {
  AddHeadsetsBodySchema,
  FaultBodySchema,
  HeadsetFaults,
  HeadsetSettingsBodySchema,
  MAX_FAULT_SECONDS,
  MAX_HEADSETS_PER_ADD,
  SimulatedProfiles,
  type SimulatedHeadset,
} from "../../adapters/http/simulator-control.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { badArguments } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { controlCaller } from "../simulate/control-client.ts";
import { headsetsTable } from "../simulate/headset-table.ts";
import { checkedRequest } from "../simulate/request.ts";

// isopter simulate headsets list|add|remove, simulate fault, simulate profile, simulate speed: the running simulator's
// headsets, over its control calls (adapters/http/simulator-control.ts). The server checks the caller is an admin or
// a manager.

const MIX = "mix";
const profileChoices = `${SimulatedProfiles.join(", ")}, or ${MIX} (each patient keeps the profile of the clinic mix)`;
/** "mix" is the clinic mix (null on the wire); anything else goes to the schema as typed. */
const profileSetting = (v: string) => (v === MIX ? null : v);
/** A number as typed; text that is none stays text, for the schema to refuse naming it. */
const numberArg = (v: string) => (v.trim() === "" || Number.isNaN(Number(v)) ? v : Number(v));

const settingsText = (h: SimulatedHeadset) =>
  h.pendingSettings
    ? `speed ${h.pendingSettings.speed}, patients ${h.pendingSettings.profile ?? "of the clinic mix"} once its running test ends and its results are stored`
    : `speed ${h.speed}, patients ${h.profile ?? "of the clinic mix"}`;

const write = (io: CliIo, json: boolean, data: unknown, text: string) => io.stdout.write(json ? JSON.stringify(data) + "\n" : text);

export function registerSimulateControl(simulate: Command, io: CliIo): void {
  const headsets = simulate.command("headsets").description("the running simulator's virtual headsets: list (default), add, remove");

  defineCommand(headsets, "list", "list the running virtual headsets: status, connection, speed, patient profile, batteries, results", {
    isDefault: true,
  })
    .addHelpText("after", "\nNeeds a server started by `isopter simulate` or `npm start`, and an admin or manager login.")
    .action(async (_o: unknown, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const { call } = controlCaller(shared, io);
      const answer = await call("simulator.headsets", {});
      write(io, shared.json, answer, headsetsTable(answer.headsets));
    });

  defineCommand(
    headsets,
    "add",
    `start more virtual headsets (default 1, at most ${MAX_HEADSETS_PER_ADD}), registered in your organisation`,
  )
    .argument("[count]", "how many (default 1)")
    .option("--patient-profile <profile>", `simulated patients: ${profileChoices} (default mix)`)
    .option("--speed <factor>", "device time per clock time, above 0 and at most 1000 (default: the simulator's SPEED)")
    .addHelpText(
      "after",
      "\nSerials continue VR-0001, VR-0002, ... (a registered device with no headset is reused). The devices appear in the" +
        "\ntechnician view at once and connect within a second. (--profile is the CLI login profile, as on every command.)" +
        "\n\nExample:\n  isopter simulate headsets add 3 --patient-profile advanced --speed 20",
    )
    .action(async (count: string | undefined, o: { patientProfile?: string; speed?: string }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const body = checkedRequest(
        AddHeadsetsBodySchema,
        {
          count: count === undefined ? 1 : numberArg(count),
          ...(o.patientProfile !== undefined ? { profile: profileSetting(o.patientProfile) } : {}),
          ...(o.speed !== undefined ? { speed: numberArg(o.speed) } : {}),
        },
        { count: "count", profile: "--patient-profile", speed: "--speed" },
      );
      const { call } = controlCaller(shared, io);
      const answer = await call("simulator.add", { body });
      const first = answer.headsets[0];
      write(
        io,
        shared.json,
        answer,
        `Added ${answer.headsets.map((h) => h.deviceSn).join(", ")}` +
          (first ? ` (speed ${first.speed}, patients ${first.profile ?? "of the clinic mix"})` : "") +
          "; they connect to the server in a moment.\n",
      );
    });

  defineCommand(headsets, "remove", "switch a virtual headset off for good (its device stays registered and shows disconnected)")
    .argument("<serial>", "the headset's serial, e.g. VR-0005")
    .action(async (serial: string, _o: unknown, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const { call } = controlCaller(shared, io);
      const removed = await call("simulator.remove", { query: { deviceSn: serial } });
      write(
        io,
        shared.json,
        removed,
        `Removed ${removed.deviceSn}${removed.pendingResults ? ` (${removed.pendingResults} results it had not sent are lost)` : ""}.\n`,
      );
    });

  defineCommand(simulate, "fault", "inject a fault into a running virtual headset now")
    .argument("<serial>", "the headset's serial, e.g. VR-0001")
    .addArgument(new Argument("<fault>", "what goes wrong").choices(HeadsetFaults))
    .option("--for <seconds>", `how long it lasts in seconds of clock time (at most ${MAX_FAULT_SECONDS})`)
    .addHelpText(
      "after",
      "\nFaults:" +
        "\n  disconnect       the network drops (abnormal close); the headset reconnects every second after --for (default 10 s)" +
        "\n  battery-empty    the VR battery dies: the running test is lost; it is back on, charging, after --for" +
        "\n                   (default 5 min of device time)" +
        "\n  clicker-lost     the clicker drops out: a running test stops; it is paired again after --for (default 30 s)" +
        "\n  stop-responding  the patient stops pressing (the test pauses after 20 silent stimuli) for --for" +
        "\n                   (default 60 s of device time)" +
        "\n\nExample:\n  isopter simulate fault VR-0002 disconnect --for 8",
    )
    .action(async (serial: string, fault: string, o: { for?: string }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const body = checkedRequest(
        FaultBodySchema,
        { deviceSn: serial, fault, ...(o.for !== undefined ? { seconds: numberArg(o.for) } : {}) },
        { deviceSn: "serial", fault: "fault", seconds: "--for" },
      );
      const { call } = controlCaller(shared, io);
      const done = await call("simulator.fault", { body });
      write(
        io,
        shared.json,
        done,
        `${done.deviceSn}: ${done.fault}${done.seconds !== null ? ` for ${Math.round(done.seconds * 10) / 10} s` : ""}.\n`,
      );
    });

  settingCommand(simulate, io, "profile", "profile", `set the simulated patients of a headset (or --all): ${profileChoices}`, (v) => ({
    profile: profileSetting(v),
  }));
  settingCommand(
    simulate,
    io,
    "speed",
    "factor",
    "set a headset's speed (or --all): device time per clock time, above 0 and at most 1000",
    (v) => ({
      speed: numberArg(v),
    }),
  );
}

/** `simulate profile|speed SERIAL VALUE` or `... --all VALUE`. */
function settingCommand(
  simulate: Command,
  io: CliIo,
  name: "profile" | "speed",
  valueName: string,
  summary: string,
  setting: (value: string) => Record<string, unknown>,
): void {
  defineCommand(simulate, name, summary)
    .argument("[serial]", "the headset's serial, e.g. VR-0001 (not with --all)")
    .argument(`[${valueName}]`, name === "speed" ? "device time per clock time" : profileChoices)
    .usage(`<serial> <${valueName}> | --all <${valueName}> [options]`)
    .option("--all", "every running headset")
    .addHelpText(
      "after",
      (name === "speed"
        ? "\nThe new speed applies at once, also to a headset in the middle of a test: the test goes on from its next" +
          "\nstimulus at the new pace, without a restart, and ends with its one result."
        : "\nA headset takes the new profile by restarting (it says hello again and keeps its battery and speed): at once" +
          "\nwhen idle, else when its running test has ended and its results are stored, so nothing is lost.") +
        `\n\nExamples:\n  isopter simulate ${name} VR-0001 ${name === "speed" ? "20" : "advanced"}\n  isopter simulate ${name} --all ${name === "speed" ? "1" : "mix"}`,
    )
    .action(async (first: string | undefined, second: string | undefined, o: { all?: boolean }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const [serial, value] = o.all ? [undefined, first] : [first, second];
      if (o.all && second !== undefined) throw badArguments(`with --all give only the ${valueName}, not a serial`);
      if (serial === undefined && !o.all) throw badArguments(`give a serial (or --all) and the ${valueName}`);
      if (value === undefined) throw badArguments(`missing the ${valueName}`);
      const body = checkedRequest(
        HeadsetSettingsBodySchema,
        { ...(o.all ? { all: true } : { deviceSn: serial }), ...setting(value) },
        {
          deviceSn: "serial",
          profile: "profile",
          speed: "factor",
        },
      );
      const { call } = controlCaller(shared, io);
      const answer = await call("simulator.settings", { body });
      write(
        io,
        shared.json,
        answer,
        answer.headsets.map((h) => `${h.deviceSn}: ${settingsText(h)}\n`).join("") || "No simulated headsets are running.\n",
      );
    });
}
