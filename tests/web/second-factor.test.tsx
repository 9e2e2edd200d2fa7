// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { ApiError } from "../../core/model/contract/index.ts";
import LoginPage from "../../web/pages/login/LoginPage.tsx";
import { SecondFactorSection } from "../../web/pages/settings/SecondFactorSection.tsx";
import { fakeApi, renderRoutes, tokenFor } from "./render-app.tsx";

// Two-step sign-in on screen (issue 33 item 2): the login's second step in place of the password form (a code, a
// recovery code, or setting it up where the organisation requires it), and the settings' section.

afterEach(cleanup);

const routes = [
  { path: "/login", element: <LoginPage /> },
  { path: "/home", element: <h1>Home page</h1> },
];
const fill = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const logIn = () => {
  fill(/Username/, "anna");
  fill(/^Password/, "secret");
  fireEvent.click(screen.getByRole("button", { name: "Log in" }));
};
const wrongCode = () => {
  throw new ApiError({ status: 401, responseType: "invalid_credentials", message: "The code is not right" });
};

describe("the login's second step", () => {
  it("asks for the app's code after the password, says a wrong one is wrong, and goes home with the right one", async () => {
    const { api, calls } = fakeApi({
      login: () => ({ accessToken: "challenge", secondFactor: { step: "verify" } }),
      "secondFactor.signIn": ({ body }) => (body.code === "123456" ? { accessToken: "h.e30.s" } : wrongCode()),
      checkToken: () => ({ role: "user", username: "anna", email: "anna@clinic.example", exp: 4_000_000_000 }),
    });
    const { router, client } = renderRoutes(routes, "/login", api);
    logIn();
    expect(await screen.findByRole("heading", { name: "Two-step sign-in" })).toBeTruthy();
    expect(screen.getByLabelText(/^Password/).closest("form")!.hidden).toBe(true);
    fill(/^Code/, "000000");
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByRole("alert")).textContent).toContain("That code is not right.");
    expect(client.session.accessToken).toBeNull();
    fill(/^Code/, "123456");
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"));
    expect(calls.filter((c) => c.endpoint === "secondFactor.signIn").map((c) => c.input.body)).toEqual([
      { challenge: "challenge", code: "000000" },
      { challenge: "challenge", code: "123456" },
    ]);
  });

  it("takes a recovery code instead, and goes back to the password on request", async () => {
    const { api, calls } = fakeApi({
      login: () => ({ accessToken: "challenge", secondFactor: { step: "verify" } }),
      "secondFactor.signIn": wrongCode,
    });
    renderRoutes(routes, "/login", api);
    logIn();
    fireEvent.click(await screen.findByRole("button", { name: "Use a recovery code" }));
    fill(/^Recovery code/, "abcde-fghij");
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(calls.at(-1)!.input.body.code).toBe("abcde-fghij"));
    fireEvent.click(screen.getByRole("button", { name: "Back to the password" }));
    await waitFor(() => expect(screen.getByLabelText(/^Password/).closest("form")!.hidden).toBe(false));
    expect(screen.queryByRole("heading", { name: "Two-step sign-in" })).toBeNull();
  });

  it("where the organisation requires it: the QR code and key, the first code, the recovery codes, and only then home", async () => {
    const { api } = fakeApi({
      login: () => ({ accessToken: "challenge", secondFactor: { step: "enrol" } }),
      "secondFactor.signInEnrol": () => ({
        secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
        uri: "otpauth://totp/Isopter:anna?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
      }),
      "secondFactor.signInConfirm": () => ({ accessToken: "h.e30.s", recoveryCodes: ["aaaaa-bbbbb", "ccccc-ddddd"] }),
      checkToken: () => ({ role: "user", username: "anna", email: "anna@clinic.example", exp: 4_000_000_000 }),
    });
    const { router, client } = renderRoutes(routes, "/login", api);
    logIn();
    expect(await screen.findByRole("img", { name: "QR code for your authenticator app" })).toBeTruthy();
    expect(screen.getByTestId("totp-key").textContent).toBe("GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ");
    fill(/^Code from the app/, "123456");
    fireEvent.click(screen.getByRole("button", { name: "Turn on two-step sign-in" }));
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect([...list.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["aaaaa-bbbbb", "ccccc-ddddd"]);
    expect(client.session.accessToken).toBeNull();
    expect(router.state.location.pathname).toBe("/login");
    fireEvent.click(screen.getByRole("button", { name: "I have saved my recovery codes" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"));
    expect(client.session.accessToken).toBe("h.e30.s");
  });
});

describe("the settings' two-step sign-in", () => {
  it("a manager requires it for the organisation; turning it off asks for the password and says when it is wrong", async () => {
    let required = false;
    const { api, calls } = fakeApi({
      "secondFactor.status": () => ({ enrolled: true, required, recoveryCodesLeft: 7 }),
      "secondFactor.require": ({ body }) => {
        required = body.required;
        return { required };
      },
      "secondFactor.disable": () => {
        throw new ApiError({ status: 401, responseType: "invalid_credentials", message: "The password is not right" });
      },
    });
    renderRoutes([{ path: "/settings", element: <SecondFactorSection /> }], "/settings", api, tokenFor("manager"));
    expect((await screen.findByRole("status")).textContent).toContain("Recovery codes left: 7");
    fill(/^Password/, "nope");
    fireEvent.click(screen.getByRole("button", { name: "Turn off two-step sign-in" }));
    expect((await screen.findByRole("alert")).textContent).toContain("The password is not correct.");
    const toggle = screen.getByRole("switch", { name: "Require two-step sign-in for everyone in this organisation" });
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute("aria-checked")).toBe("true"));
    expect(calls.find((c) => c.endpoint === "secondFactor.require")!.input.body).toEqual({ required: true });
    // Required: it can no longer be turned off here.
    expect(screen.queryByRole("button", { name: "Turn off two-step sign-in" })).toBeNull();
  });

  it("a user sees no switch for the organisation", async () => {
    const { api } = fakeApi({ "secondFactor.status": () => ({ enrolled: false, required: false, recoveryCodesLeft: 0 }) });
    renderRoutes([{ path: "/settings", element: <SecondFactorSection /> }], "/settings", api, tokenFor("user"));
    expect(await screen.findByRole("button", { name: "Set up two-step sign-in" })).toBeTruthy();
    expect(screen.queryByRole("switch")).toBeNull();
  });
});
