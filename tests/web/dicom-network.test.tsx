// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { ApiError } from "../../core/model/contract/index.ts";
import type { DicomSettings, WorklistReport, WorklistStep } from "../../core/model/dicom-network.ts";
import { Eye, Pattern, Strategy } from "../../core/model/enums.ts";
import SettingsPage from "../../web/pages/settings/SettingsPage.tsx";
import { fakeApi, renderRoutes, tokenFor, type Handler } from "./render-app.tsx";

// "DICOM network" in settings (issue 29 §3), for managers: a worklist card and a PACS card, each on or off (none),
// fields checked with core/model's schemas and the web's own messages tied to the inputs, Save sending the settings
// through client.dicom, "Test connection" showing the peer's answer, and "Query now" (or "Check only") showing the
// worklist's report, refused steps first.

afterEach(() => cleanup());

const none: DicomSettings = { worklist: null, pacs: null };
const AE_MESSAGE = "An AE title is 1 to 16 characters: letters, digits, spaces and punctuation except the backslash, not only spaces.";

const devices = [
  { deviceSn: "VR-0001", alias: "Room 1" },
  { deviceSn: "VR-0002", alias: "" },
].map((d) => ({
  id: d.deviceSn,
  ...d,
  status: "stopped",
  connection: "disconnected",
  revision: 1,
  battery: null,
  perimetries: [],
}));

function setup(role: "manager" | "user", handlers: Record<string, Handler>, initial: DicomSettings = none) {
  let stored = initial;
  const fake = fakeApi({
    checkToken: () => ({ role, username: role, email: `${role}@x`, exp: 4e9 }),
    "dicom.settings": () => stored,
    "dicom.settingsUpdate": ({ body }: { body: DicomSettings }) => (stored = body),
    "device.all": () => devices,
    ...handlers,
  });
  const view = renderRoutes([{ path: "/settings", element: <SettingsPage /> }], "/settings", fake.api, tokenFor(role));
  return { ...view, calls: fake.calls };
}

const calledWith = (calls: ReadonlyArray<{ endpoint: string; input: unknown }>, endpoint: string) =>
  calls.filter((c) => c.endpoint === endpoint).map((c) => c.input as { body?: unknown });

const card = async (name: "Worklist" | "PACS") => {
  const section = await screen.findByRole("region", { name: "DICOM network" });
  return within(section).findByRole("region", { name });
};

const type = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

const savedPacs: DicomSettings = {
  worklist: null,
  pacs: { node: { host: "127.0.0.1", port: 4242, calledAeTitle: "ORTHANC", callingAeTitle: "ISOPTER" }, retrieve: "get", storePort: null },
};
const savedWorklist: DicomSettings = {
  worklist: {
    enabled: false,
    provider: { host: "ris.clinic.example", port: 104, calledAeTitle: "RIS", callingAeTitle: "PERIMETRY1" },
    intervalMinutes: 15,
    deviceSn: "VR-0001",
    modality: "OPV",
    localCodes: [],
  },
  pacs: null,
};

describe("DICOM network: fields and validation", () => {
  it("a 17-character AE title shows the message tied to its input; fixed, it goes", async () => {
    const { calls } = setup("manager", {});
    const pacs = await card("PACS");
    fireEvent.click(within(pacs).getByRole("switch", { name: "Use a PACS" }));
    const ae = within(pacs).getByLabelText(/^PACS AE title/) as HTMLInputElement;
    type(ae, "ABCDEFGHIJKLMNOPQ");
    const error = await within(pacs).findByText(AE_MESSAGE);
    expect(ae.getAttribute("aria-invalid")).toBe("true");
    expect(ae.getAttribute("aria-describedby")?.split(" ")).toContain(error.id);
    type(ae, "ABCDEFGHIJKLMNOP");
    await waitFor(() => expect(within(pacs).queryByText(AE_MESSAGE)).toBeNull());
    expect(ae.getAttribute("aria-invalid")).toBeNull();
    expect(calledWith(calls, "dicom.settingsUpdate")).toEqual([]);
  });

  it("Save with wrong fields sends nothing and sums the problems up, each naming its field and linking to it", async () => {
    const { calls } = setup("manager", {});
    const pacs = await card("PACS");
    fireEvent.click(within(pacs).getByRole("switch", { name: "Use a PACS" }));
    fireEvent.change(within(pacs).getByLabelText(/^Port/), { target: { value: "70000" } });
    fireEvent.click(within(pacs).getByLabelText("C-MOVE"));
    fireEvent.change(within(pacs).getByLabelText(/^Store port/), { target: { value: "" } });
    fireEvent.click(within(pacs).getByRole("button", { name: "Save" }));
    const summary = (await within(pacs).findByText("There is a problem")).closest(".dicom-summary") as HTMLElement;
    expect(summary.getAttribute("role")).toBe("alert");
    await waitFor(() => expect(document.activeElement).toBe(summary));
    const links = within(summary)
      .getAllByRole("link")
      .map((a) => a.textContent);
    expect(links).toEqual([
      "Host: Enter a host name (letters, digits, dots and hyphens) or an IP address, an IPv6 address in brackets.",
      "Port: Enter a port from 1 to 65535.",
      `PACS AE title: ${AE_MESSAGE}`,
      "Store port: C-MOVE needs the port Isopter receives on: enter a port from 1 to 65535.",
    ]);
    // The link takes the focus into the field.
    fireEvent.click(within(summary).getByRole("link", { name: /^Port/ }));
    expect(document.activeElement).toBe(within(pacs).getByLabelText(/^Port/));
    expect(calledWith(calls, "dicom.settingsUpdate")).toEqual([]);
  });
});

describe("DICOM network: Save", () => {
  it("the worklist card sends its settings, with the PACS as stored, and the settings are read again", async () => {
    const { calls } = setup("manager", {}, savedPacs);
    const worklist = await card("Worklist");
    fireEvent.click(within(worklist).getByRole("switch", { name: "Use a worklist provider" }));
    fireEvent.change(within(worklist).getByLabelText(/^Host/), { target: { value: "ris.clinic.example" } });
    fireEvent.change(within(worklist).getByLabelText(/^Port/), { target: { value: "1104" } });
    fireEvent.change(within(worklist).getByLabelText(/^Provider's AE title/), { target: { value: "RIS_WL" } });
    fireEvent.change(within(worklist).getByLabelText(/^Station AE title/), { target: { value: "PERIMETRY1" } });
    fireEvent.click(within(worklist).getByRole("switch", { name: "Query periodically" }));
    fireEvent.change(within(worklist).getByLabelText(/^Query every/), { target: { value: "10" } });
    await waitFor(() => expect(within(worklist).getByRole("option", { name: "Room 1 (VR-0001)" })).toBeTruthy());
    fireEvent.change(within(worklist).getByLabelText("Queue new steps on"), { target: { value: "VR-0001" } });
    fireEvent.click(within(worklist).getByRole("button", { name: "Add a code" }));
    fireEvent.change(within(worklist).getByLabelText("Coding scheme, code 1"), { target: { value: "99CLINIC" } });
    fireEvent.change(within(worklist).getByLabelText("Code value, code 1"), { target: { value: "GLAUC-FU" } });
    fireEvent.change(within(worklist).getByLabelText("Pattern, code 1"), { target: { value: String(Pattern.G) } });
    fireEvent.change(within(worklist).getByLabelText("Strategy, code 1"), { target: { value: String(Strategy.SORS) } });
    // The pattern's strategies as the measurement form offers them: 10-2 has no SORS.
    fireEvent.change(within(worklist).getByLabelText("Pattern, code 1"), { target: { value: String(Pattern.P10_2) } });
    expect((within(worklist).getByLabelText("Strategy, code 1") as HTMLSelectElement).value).toBe(String(Strategy.DS));
    fireEvent.change(within(worklist).getByLabelText("Pattern, code 1"), { target: { value: String(Pattern.G) } });
    fireEvent.change(within(worklist).getByLabelText("Strategy, code 1"), { target: { value: String(Strategy.SORS) } });
    fireEvent.click(within(worklist).getByRole("button", { name: "Save" }));
    expect(await within(worklist).findByText("Saved.")).toBeTruthy();
    expect(calledWith(calls, "dicom.settingsUpdate")).toEqual([
      {
        body: {
          worklist: {
            enabled: true,
            provider: { host: "ris.clinic.example", port: 1104, calledAeTitle: "RIS_WL", callingAeTitle: "PERIMETRY1" },
            intervalMinutes: 10,
            deviceSn: "VR-0001",
            modality: "OPV",
            localCodes: [{ scheme: "99CLINIC", value: "GLAUC-FU", pattern: Pattern.G, strategy: Strategy.SORS }],
          },
          pacs: savedPacs.pacs,
        },
      },
    ]);
    expect(calledWith(calls, "dicom.settings").length).toBe(2);
    // Saved: the card tests and queries with what is stored.
    expect(within(worklist).getByRole("button", { name: "Test connection" })).toBeTruthy();
    expect(within(worklist).getByRole("button", { name: "Query now" })).toBeTruthy();
  });

  it("turned off, the PACS is saved as none; a field the server refuses is shown at the field", async () => {
    const { calls } = setup("manager", {}, savedPacs);
    const pacs = await card("PACS");
    fireEvent.click(within(pacs).getByRole("switch", { name: "Use a PACS" }));
    expect(within(pacs).getByText('Off: saving removes the PACS, and "Fetch priors" is no longer offered.')).toBeTruthy();
    fireEvent.click(within(pacs).getByRole("button", { name: "Save" }));
    expect(await within(pacs).findByText("No PACS is set.")).toBeTruthy();
    expect(calledWith(calls, "dicom.settingsUpdate").map((i) => i.body)).toEqual([{ worklist: null, pacs: null }]);
    cleanup();

    setup(
      "manager",
      {
        "dicom.settingsUpdate": () => {
          throw new ApiError({ status: 400, responseType: "validation_error", message: "bad host", field: "body.pacs.node.host" });
        },
      },
      savedPacs,
    );
    const again = await card("PACS");
    fireEvent.change(within(again).getByLabelText(/^Host/), { target: { value: "pacs-1" } });
    fireEvent.click(within(again).getByRole("button", { name: "Save" }));
    const host = within(again).getByLabelText(/^Host/);
    await waitFor(() => expect(host.getAttribute("aria-invalid")).toBe("true"));
    expect(within(again).getAllByText(/^Enter a host name/).length).toBeGreaterThan(0);
  });
});

describe("DICOM network: Test connection", () => {
  it("shows the peer's answer in the server's words, whether it answered or not", async () => {
    let ok = false;
    const { calls } = setup(
      "manager",
      {
        "dicom.echo": () =>
          ok
            ? { ok: true, message: "ORTHANC@127.0.0.1:4242 answered the verification (C-ECHO) as ISOPTER" }
            : { ok: false, message: "ORTHANC@127.0.0.1:4242 cannot be reached: connect ECONNREFUSED 127.0.0.1:4242" },
      },
      savedPacs,
    );
    const pacs = await card("PACS");
    fireEvent.click(within(pacs).getByRole("button", { name: "Test connection" }));
    const result = within(pacs).getByTestId("pacs-connection-result");
    expect(result.getAttribute("aria-live")).toBe("polite");
    await waitFor(() => expect(result.textContent).toContain("The PACS did not answer the test."));
    expect(result.textContent).toContain("ORTHANC@127.0.0.1:4242 cannot be reached: connect ECONNREFUSED 127.0.0.1:4242");
    ok = true;
    fireEvent.click(within(pacs).getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(result.textContent).toContain("The PACS answered."));
    expect(result.textContent).toContain("answered the verification (C-ECHO) as ISOPTER");
    expect(calledWith(calls, "dicom.echo")).toEqual([{ body: { peer: "pacs" } }, { body: { peer: "pacs" } }]);
    // Unsaved changes: the test is of the saved settings, and says so.
    fireEvent.change(within(pacs).getByLabelText(/^Host/), { target: { value: "pacs.clinic.example" } });
    expect(within(pacs).getByText("Tests the saved settings, not your unsaved changes.")).toBeTruthy();
  });
});

describe("DICOM network: Query now", () => {
  const step = (over: Partial<WorklistStep>): WorklistStep => ({
    item: "step SPS-1 (accession A-1)",
    action: "queued",
    reason: null,
    patient: { id: null, name: "Jürgen Weiß", uniqueId: "WL-1", created: true },
    queuedId: null,
    eye: Eye.Right,
    pattern: Pattern.P24_2,
    strategy: Strategy.DS,
    scheduledAt: "2026-03-01T09:00:00.000Z",
    ...over,
  });
  const report = (dryRun: boolean): WorklistReport => ({
    dryRun,
    steps: [
      step(dryRun ? {} : { queuedId: "m1", patient: { id: "p1", name: "Jürgen Weiß", uniqueId: "WL-1", created: true } }),
      step({
        item: "step SPS-3 (accession A-3)",
        action: "refused",
        reason: "no patient ID",
        patient: null,
        eye: null,
        pattern: null,
        strategy: null,
        scheduledAt: "2026-03-01T10:00:00.000Z",
      }),
    ],
  });

  it("'Check only' sends a dry run and shows each step, refused first; Query now queues and says so", async () => {
    const { calls } = setup(
      "manager",
      { "worklist.query": ({ body }: { body: { dryRun: boolean } }) => report(body.dryRun) },
      savedWorklist,
    );
    const worklist = await card("Worklist");
    fireEvent.click(within(worklist).getByLabelText("Check only (dry run)"));
    fireEvent.click(within(worklist).getByRole("button", { name: "Check the worklist" }));
    const shown = within(worklist).getByTestId("worklist-report");
    expect(shown.getAttribute("aria-live")).toBe("polite");
    expect(await within(shown).findByRole("heading", { name: "What would happen" })).toBeTruthy();
    expect(within(shown).getByText("Check only: nothing was written.")).toBeTruthy();
    expect(within(shown).getByTestId("worklist-summary").textContent).toBe("The worklist holds 2 steps for this station today.");
    const rows = within(shown).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-action"))).toEqual(["refused", "queued"]);
    expect(rows[0]!.textContent).toContain("no patient ID");
    expect(rows[0]!.textContent).toContain("step SPS-3 (accession A-3)");
    const cells = within(rows[1]!)
      .getAllByRole("cell")
      .map((c) => c.textContent);
    expect(cells[0]).toBe("Would be queued");
    expect(cells[2]).toBe("Jürgen Weiß (WL-1)would be created");
    expect(cells.slice(3, 6)).toEqual(["Right eye", "24-2", "Dynamic"]);
    expect(cells[1]).not.toBe("–");

    fireEvent.click(within(worklist).getByLabelText("Check only (dry run)"));
    fireEvent.click(within(worklist).getByRole("button", { name: "Query now" }));
    expect(await within(shown).findByRole("heading", { name: "Query report" })).toBeTruthy();
    const queued = within(shown).getAllByRole("row")[2]!;
    expect(within(queued).getByText("Queued")).toBeTruthy();
    expect(within(queued).getByRole("link", { name: "Jürgen Weiß (WL-1)" }).getAttribute("href")).toBe("/patient/p1");
    expect(calledWith(calls, "worklist.query")).toEqual([{ body: { dryRun: true } }, { body: { dryRun: false } }]);
  });

  it("a provider that cannot be reached is named in the server's sentence", async () => {
    setup(
      "manager",
      {
        "worklist.query": () => {
          throw new ApiError({
            status: 503,
            responseType: "unavailable",
            message: "The worklist provider RIS at ris.clinic.example:104 cannot be reached",
          });
        },
      },
      savedWorklist,
    );
    const worklist = await card("Worklist");
    fireEvent.click(within(worklist).getByRole("button", { name: "Query now" }));
    const shown = within(worklist).getByTestId("worklist-report");
    await waitFor(() => expect(shown.textContent).toContain("The worklist provider could not be used."));
    expect(shown.textContent).toContain("The worklist provider RIS at ris.clinic.example:104 cannot be reached");
  });
});

describe("DICOM network: managers only", () => {
  it("a user sees no DICOM network and the settings are not read", async () => {
    const { calls } = setup("user", {});
    await screen.findByRole("heading", { level: 1, name: "Settings" });
    expect(screen.queryByRole("region", { name: "DICOM network" })).toBeNull();
    expect(calledWith(calls, "dicom.settings")).toEqual([]);
  });
});
