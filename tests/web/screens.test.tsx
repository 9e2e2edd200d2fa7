// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import type { Examination } from "../../core/model/examination.ts";
import { ApiError } from "../../core/model/contract/index.ts";
import { fromDevicesAndResults, fromExamination, homeTestLists } from "../../web/pages/home/test-lists.ts";
import { testResultRoute } from "../../core/client/live-reducer.ts";
import { manualDocument } from "../../web/pages/manual/manual-document.ts";
import { PatientFormModal } from "../../web/pages/patient/PatientFormModal.tsx";
import UsersPage, { parseEmails } from "../../web/pages/users/UsersPage.tsx";
import { Protected } from "../../web/shell/Protected.tsx";
import { ErrorPage } from "../../web/shell/ErrorPage.tsx";
import { NotFound } from "../../web/shell/NotFound.tsx";
import { offeredLocales, switcherLocales, patientLocales } from "../../web/i18n/locales.ts";
import { drivenSocket, fakeApi, renderRoutes, tokenFor } from "./render-app.tsx";
import { Root } from "../../web/shell/Root.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const exam = (id: string, over: Partial<Examination> = {}): Examination => ({
  id,
  patientId: "p1",
  type: "perimetry",
  eye: 0,
  notes: "",
  taken: false,
  appointmentId: null,
  deviceSn: "SN1",
  result: null,
  config: null,
  createdAt: `2026-01-0${id.length}T10:00:00.000Z`,
  updatedAt: "2026-01-01T10:00:00.000Z",
  trashedAt: null,
  ...over,
});
const withResult = (takenAt: string) => ({
  result: { answer: "healthy", takenAt, deviceSn: "SN1", appointmentId: null } as never,
  taken: true,
});

describe("home test lists", () => {
  it("'Recent: result present (the five latest)'; scheduled: result null (accounts seed §4)", () => {
    const list = [
      ...Array.from({ length: 7 }, (_, i) => exam(`r${i}`, withResult(`2026-02-0${i + 1}T08:00:00.000Z`))),
      exam("s1"),
      exam("t1", { trashedAt: "2026-01-01T00:00:00.000Z" }),
    ];
    const { recent, scheduled } = homeTestLists(list.map(fromExamination), false);
    expect(recent.map((e) => e.item.id)).toEqual(["r6", "r5", "r4", "r3", "r2"]);
    expect(scheduled.map((e) => e.item.id)).toEqual(["s1"]);
  });
  it("'With appointments, recent means every examination has a result; scheduled means at least one has none.'", () => {
    const list = [
      exam("a1", { appointmentId: "A", ...withResult("2026-02-01T08:00:00.000Z") }),
      exam("a2", { appointmentId: "A" }),
      exam("b1", { appointmentId: "B", ...withResult("2026-02-02T08:00:00.000Z") }),
      exam("b2", { appointmentId: "B", ...withResult("2026-02-03T08:00:00.000Z") }),
    ];
    const { recent, scheduled } = homeTestLists(list.map(fromExamination), true);
    expect(recent.map((e) => e.items.map((x) => x.id))).toEqual([["b1", "b2"]]);
    // Listed in the order they ran, whatever order the list came in.
    expect(homeTestLists([list[3]!, list[2]!].map(fromExamination), true).recent[0]!.items.map((x) => x.id)).toEqual(["b1", "b2"]);
    expect(scheduled.map((e) => e.items.map((x) => x.id))).toEqual([["a1", "a2"]]);
  });
  it("'Recent tests link to /patient/{patientId}/perimetry/{examinationId}': an appointment links its perimetry test; one without links its first test's own page", () => {
    const list = [
      exam("a1", { appointmentId: "A", type: "amsler", ...withResult("2026-02-01T08:00:00.000Z") }),
      exam("a2", { appointmentId: "A", ...withResult("2026-02-01T08:10:00.000Z") }),
      exam("b1", { appointmentId: "B", type: "amsler", ...withResult("2026-02-02T08:00:00.000Z") }),
      exam("b2", { appointmentId: "B", type: "acuity", ...withResult("2026-02-02T08:10:00.000Z") }),
    ];
    const { recent } = homeTestLists(list.map(fromExamination), true);
    expect(recent.map((e) => testResultRoute(e.item.patientId, e.item.type, e.item.id))).toEqual([
      "/patient/p1/amsler-grid",
      "/patient/p1/perimetry/a2?scrollToMeasurement=1",
    ]);
  });
});

describe("home test lists, measurement variant", () => {
  it("reads the measurements queued on the devices: taken ones are recent, the others scheduled", () => {
    const m = (id: string, takenAt: string | null) => ({
      id,
      patientId: "p1",
      deviceSn: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      trashedAt: null,
      result: takenAt ? { takenAt } : null,
    });
    const devices = [{ deviceSn: "SN7", perimetries: [m("a", "2026-03-01T00:00:00.000Z"), m("b", null)] }] as never;
    const { recent, scheduled } = homeTestLists(fromDevicesAndResults(devices, []), false);
    expect(recent.map((e) => e.item.id)).toEqual(["a"]);
    expect(scheduled.map((e) => [e.item.id, e.item.deviceSn])).toEqual([["b", "SN7"]]);
  });

  it("adds the latest results (which have left their lanes), five at most, newest first, each once", () => {
    const m = (id: string, takenAt: string | null) => ({
      id,
      patientId: "p1",
      deviceSn: "SN7",
      createdAt: "2026-01-01T00:00:00.000Z",
      trashedAt: null,
      result: takenAt ? { takenAt } : null,
    });
    const devices = [{ deviceSn: "SN7", perimetries: [m("q", null), m("r1", "2026-03-01T00:00:00.000Z")] }] as never;
    const results = ["r1", "r2", "r3", "r4", "r5", "r6"].map((id, i) => m(id, `2026-03-0${i + 1}T00:00:00.000Z`)) as never;
    const { recent, scheduled } = homeTestLists(fromDevicesAndResults(devices, results), false);
    expect(recent.map((e) => e.item.id)).toEqual(["r6", "r5", "r4", "r3", "r2"]);
    expect(scheduled.map((e) => e.item.id)).toEqual(["q"]);
  });
});

describe("user manual choice", () => {
  it("'depends on the market (FDA, MDR, UK) and, for MDR, on country (ES and DE have own documents, others a default)'", () => {
    expect(manualDocument({ market: "FDA", country: "US" })).toBe("fda");
    expect(manualDocument({ market: "UK", country: "GB" })).toBe("uk");
    expect(manualDocument({ market: "MDR", country: "ES" })).toBe("mdr-es");
    expect(manualDocument({ market: "MDR", country: "de" })).toBe("mdr-de");
    expect(manualDocument({ market: "MDR", country: "FR" })).toBe("mdr");
    expect(manualDocument({ market: "MDR", country: null })).toBe("mdr");
    // "unknown or failed profile shows an error"
    expect(manualDocument(null)).toBeNull();
    expect(manualDocument({ market: "BR", country: "BR" })).toBeNull();
  });
});

describe("languages", () => {
  it("the switcher lists English, German, French, Italian, Spanish, Portuguese, Dutch and Turkish; patients have eight languages", () => {
    expect(switcherLocales).toEqual(["en", "de", "fr", "it", "es", "bp", "nl", "tr"]);
    // Simplified Chinese is offered too (issue 21), its catalog being complete (tests/web/catalogs.test.ts).
    expect(offeredLocales).toEqual([...switcherLocales, "chi"]);
    expect(patientLocales).toEqual(["en", "nl", "de", "fr", "it", "mexsp", "bp", "chi"]);
  });
});

const Broken = () => {
  throw new Error("boom");
};

describe("fallback pages", () => {
  it("'An error has occurred' with a hint when a page fails, and the not-found page links back", async () => {
    const { api } = fakeApi({});
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderRoutes([{ path: "/", element: <Broken />, errorElement: <ErrorPage /> }], "/", api);
    expect(screen.getByRole("heading", { name: "An error has occurred" })).toBeTruthy();
    expect(screen.getByText("Something went wrong. Try again or refresh the browser.")).toBeTruthy();
    cleanup();
    renderRoutes([{ path: "*", element: <NotFound /> }], "/nowhere", api);
    expect(screen.getByRole("heading", { name: "Sorry, this page does not exist." })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to the home page" }).getAttribute("href")).toBe("/home");
  });
});

describe("protected wrapper", () => {
  it("sends a visitor without a token to /login", async () => {
    const { api } = fakeApi({});
    const { router } = renderRoutes(
      [
        { path: "/", element: <Protected />, children: [{ path: "home", element: <p>home</p> }] },
        { path: "/login", element: <p>login page</p> },
      ],
      "/home",
      api,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });
  it("shows users to managers only", async () => {
    const routes = [{ path: "/", element: <Protected />, children: [{ path: "home", element: <p>home</p> }] }];
    const { api } = fakeApi({});
    renderRoutes(routes, "/home", api, tokenFor("manager"));
    expect(screen.getByRole("link", { name: "Users" })).toBeTruthy();
    cleanup();
    renderRoutes(routes, "/home", api, tokenFor("user"));
    expect(screen.queryByRole("link", { name: "Users" })).toBeNull();
    expect(screen.getByRole("link", { name: "Bin" })).toBeTruthy();
  });
  it("asks for confirmation before logging out", async () => {
    const { api, calls } = fakeApi({ logout: () => null });
    const { router } = renderRoutes(
      [
        { path: "/", element: <Protected />, children: [{ path: "home", element: <p>home</p> }] },
        { path: "/login", element: <p>login page</p> },
      ],
      "/home",
      api,
      tokenFor("user"),
    );
    fireEvent.click(screen.getByRole("button", { name: "Log out" }));
    const dialog = screen.getByRole("alertdialog", { name: "Log out?" });
    expect(calls.filter((c) => c.endpoint === "logout")).toHaveLength(0);
    fireEvent.click(dialog.querySelector(".btn-primary")!);
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(calls.map((c) => c.endpoint).filter((e) => e !== "checkToken")).toEqual(["logout"]);
  });
});

describe("session end dialogs", () => {
  it("'A same-user login elsewhere shows the another-session-opened dialog and redirects to /login'", async () => {
    const socket = drivenSocket();
    const { api } = fakeApi({ checkToken: () => ({ role: "user", username: "user", email: "u@x.org", exp: 4_000_000_000 }) });
    const routes = [
      {
        element: <Root />,
        children: [
          { path: "/", element: <Protected />, children: [{ path: "home", element: <p>home</p> }] },
          { path: "/login", element: <p>login page</p> },
        ],
      },
    ];
    const { router } = renderRoutes(routes, "/home", api, tokenFor("user"), socket);
    await act(async () => socket.emit({ type: "another_session_opened" } as never));
    const dialog = await screen.findByRole("alertdialog", { name: "Another session was opened" });
    expect(dialog.textContent).toContain("different web client");
    fireEvent.click(screen.getByRole("button", { name: "Go to login" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});

describe("patient form", () => {
  const fillForm = () => {
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: "  Ana Ruiz " } });
    fireEvent.change(screen.getByLabelText(/^Patient ID/), { target: { value: "P-001 " } });
    fireEvent.change(screen.getByLabelText(/^Birthdate/), { target: { value: "1960-05-04" } });
    fireEvent.change(screen.getByLabelText(/^Gender/), { target: { value: "0" } });
    fireEvent.change(screen.getByLabelText(/^Patient language/), { target: { value: "mexsp" } });
  };
  it("'The first save click shows a double-confirmation warning; the second submits' with trimmed name and ID", async () => {
    const saved = vi.fn();
    const { api, calls } = fakeApi({ "patient.register": ({ body }) => ({ id: "p9", ...body }) });
    renderRoutes([{ path: "/", element: <PatientFormModal onClose={() => undefined} onSaved={saved} /> }], "/", api);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getAllByText("This field is required.").length).toBeGreaterThanOrEqual(5);
    fillForm();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText(/Click Save again to confirm/)).toBeTruthy();
    expect(calls).toHaveLength(0);
    // "Editing any field resets the confirmation"
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: "Ana Ruiz" } });
    expect(screen.queryByText(/Click Save again to confirm/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Confirm and save" }));
    });
    expect(calls[0]!.input.body).toEqual({ name: "Ana Ruiz", uniqueId: "P-001", gender: 0, lang: "mexsp", birthdate: "1960-05-04" });
    expect(saved).toHaveBeenCalled();
  });
  it("shows 'Couldn't create a patient' with the server's message", async () => {
    const { api } = fakeApi({
      "patient.register": () => {
        throw new ApiError({ status: 409, responseType: "conflict", message: "A patient with this ID exists." });
      },
    });
    renderRoutes([{ path: "/", element: <PatientFormModal onClose={() => undefined} onSaved={() => undefined} /> }], "/", api);
    fillForm();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Confirm and save" }));
    });
    expect(screen.getByRole("alert").textContent).toBe("Couldn't create a patient A patient with this ID exists.");
  });
});

describe("users page", () => {
  it("parses invitation addresses", () => {
    expect(parseEmails("a@x.org, B@x.org\nb@x.org; c@x.org ")).toEqual(["a@x.org", "b@x.org", "c@x.org"]);
  });
  it("refuses the user role and warns managers when some were already invited", async () => {
    const { api } = fakeApi({
      "user.all": () => [],
      "user.invite": () => ({ invited: ["new@x.org"], alreadyInvited: ["old@x.org"], alreadyRegistered: [] }),
    });
    renderRoutes([{ path: "/", element: <UsersPage /> }], "/", api, tokenFor("user"));
    expect(screen.getByText(/Only managers can manage users/)).toBeTruthy();
    cleanup();
    renderRoutes([{ path: "/", element: <UsersPage /> }], "/", api, tokenFor("manager"));
    fireEvent.change(screen.getByLabelText(/E-mail addresses/), { target: { value: "new@x.org, old@x.org" } });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Send invitations" }));
    });
    expect(screen.getByText(/Some users were already invited or registered \(old@x.org\)/)).toBeTruthy();
  });
});

describe("users page offers a manager only what the server allows (core/rules/user-admin)", () => {
  it("no Admin role to grant, no role change or delete for an admin or for oneself; a refused call keeps the session", async () => {
    const users = [
      { id: "u-admin", email: "admin@clinic.example", username: "admin", role: "admin", status: "active" },
      { id: "u-me", email: "manager@clinic.example", username: "manager", role: "manager", status: "active" },
      { id: "u-user", email: "user@clinic.example", username: "user", role: "user", status: "active" },
    ];
    const { api } = fakeApi({
      "user.all": () => users,
      "user.delete": () => {
        throw new ApiError({ status: 403, responseType: "forbidden", message: "Managers cannot delete an admin" });
      },
    });
    const { client } = renderRoutes([{ path: "/", element: <UsersPage /> }], "/", api, tokenFor("manager"));
    const invite = screen.getByRole("combobox", { name: "Role" }) as HTMLSelectElement;
    expect([...invite.options].map((o) => o.value)).toEqual(["user", "manager"]);
    const rows = await screen.findAllByRole("row");
    const row = (email: string) => rows.find((r) => r.textContent?.includes(email))!;
    expect(within(row("admin@clinic.example")).queryByRole("combobox")).toBeNull();
    expect(within(row("admin@clinic.example")).queryByRole("button", { name: /Delete/ })).toBeNull();
    expect(within(row("manager@clinic.example")).queryByRole("button", { name: /Delete/ })).toBeNull();
    const userRole = within(row("user@clinic.example")).getByRole("combobox") as HTMLSelectElement;
    expect([...userRole.options].map((o) => o.value)).toEqual(["user", "manager"]);
    expect(within(row("user@clinic.example")).getByRole("button", { name: "Delete user@clinic.example" })).toBeTruthy();
    // Should the server still refuse (403 forbidden), the manager stays logged in and is told.
    fireEvent.click(within(row("user@clinic.example")).getByRole("button", { name: "Delete user@clinic.example" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Delete user" }));
    });
    await waitFor(() => expect(client.session.state.status).toBe("logged-in"));
    expect(client.session.state.dialog).toBeNull();
  });
});

describe("interface language storage", () => {
  it("'The chosen interface language is stored locally in the browser.': a stored language is used, anything else falls back to English", async () => {
    const { storedLanguage } = await import("../../web/state/language.ts");
    const store = (value: string | null) => ({ getItem: (key: string) => (key === "language" ? value : null) });
    expect(storedLanguage(store("de"))).toBe("de");
    expect(storedLanguage(store("mexsp"))).toBe("mexsp");
    expect(storedLanguage(store("klingon"))).toBe("en");
    expect(storedLanguage(store(null))).toBe("en");
  });
});
