// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { ApiError } from "../../core/model/contract/index.ts";
import LoginPage from "../../web/pages/login/LoginPage.tsx";
import ResetRequestPage from "../../web/pages/password/ResetRequestPage.tsx";
import ResetWithTokenPage, { resetRedirectMs } from "../../web/pages/password/ResetWithTokenPage.tsx";
import SignupPage, { signupRedirectMs } from "../../web/pages/signup/SignupPage.tsx";
import { routes as appRoutes } from "../../web/router.tsx";
import { fakeApi, renderRoutes } from "./render-app.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const routes = [
  { path: "/login", element: <LoginPage /> },
  { path: "/home", element: <h1>Home page</h1> },
  { path: "/password-reset", element: <ResetRequestPage /> },
  { path: "/password-reset/:temporaryToken", element: <ResetWithTokenPage /> },
  { path: "/signup/:invitationId/:invitationToken", element: <SignupPage /> },
];
const fill = (label: RegExp | string | HTMLElement, value: string) =>
  fireEvent.change(label instanceof HTMLElement ? label : screen.getByLabelText(label), { target: { value } });

describe("login", () => {
  it("'username trimmed' and required (accounts seed §5); success stores the token and goes home", async () => {
    let resolve!: (v: unknown) => void;
    const { api, calls } = fakeApi({
      login: () =>
        new Promise((r) => {
          resolve = r;
        }),
    });
    const { client, router } = renderRoutes(routes, "/login", api);
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(screen.getAllByText("This field is required.")).toHaveLength(2);
    expect(calls).toHaveLength(0);
    fill(/Username/, "  manager  ");
    fill(/^Password/, "secret");
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    // "a loading state"
    expect(await screen.findByRole("button", { name: "Logging in…" })).toHaveProperty("disabled", true);
    expect(calls.find((c) => c.endpoint === "login")!.input.body).toEqual({ username: "manager", password: "secret" });
    await act(async () => resolve({ accessToken: "h.e30.s" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"));
    expect(client.session.accessToken).toBe("h.e30.s");
  });

  it("shows 'Login failed.' on wrong credentials; editing a field clears the error", async () => {
    const { api } = fakeApi({
      login: () => {
        throw new ApiError({ status: 401, responseType: "invalid_credentials", message: "Login failed." });
      },
    });
    renderRoutes(routes, "/login", api);
    fill(/Username/, "manager");
    fill(/^Password/, "wrong");
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Login failed.");
    fill(/^Password/, "wrong2");
    expect(screen.queryByText(/Login failed\./)).toBeNull();
  });

  it("a login the server fails says so ('error occurred during login', accounts seed §8), not to check the credentials", async () => {
    const { api } = fakeApi({
      login: () => {
        throw new ApiError({ status: 500, responseType: "internal_error", message: "boom" });
      },
    });
    renderRoutes(routes, "/login", api);
    fill(/Username/, "manager");
    fill(/^Password/, "secret");
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Login failed.");
    expect(alert.textContent).toContain("An error occurred during login.");
    expect(alert.textContent).not.toContain("Check your username and password");
  });

  it("redirects home when a token already exists, and shows the session-expired banner when flagged", async () => {
    const { api } = fakeApi({});
    const { router } = renderRoutes(routes, "/login", api, "h.e30.s");
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"));
    cleanup();
    renderRoutes(routes, "/login?sessionExpired=1", api);
    expect(screen.getByText("Your session has expired, please log in again.")).toBeTruthy();
  });
});

describe("password reset", () => {
  it("asks for the e-mail twice and sends it trimmed; user_not_found still shows the sent message", async () => {
    const { api, calls } = fakeApi({
      "passwordReset.request": () => {
        throw new ApiError({ status: 404, responseType: "user_not_found", message: "no" });
      },
    });
    renderRoutes(routes, "/password-reset", api);
    const send = screen.getByRole("button", { name: "Send reset link" });
    fill(/^E-mail/, " ana@clinic.example ");
    fill(/Repeat the e-mail/, "ana@clinic.exampl");
    expect(screen.getByText("E-mail addresses do not match.")).toBeTruthy();
    expect(send).toHaveProperty("disabled", true);
    fill(/Repeat the e-mail/, "ana@clinic.example");
    fireEvent.click(send);
    expect(await screen.findByText(/an e-mail with a reset link is on its way/)).toBeTruthy();
    expect(calls[0]!.input.body).toEqual({ email: "ana@clinic.example" });
  });

  const refused = (responseType: string) => () => {
    throw new ApiError({ status: 401, responseType, message: "refused" });
  };

  it("'Expired token: an expired-link message asking for a new request' as soon as the page opens, before any typing (issue 21)", async () => {
    const { api, calls } = fakeApi({ "passwordReset.check": refused("token_expired") });
    renderRoutes(routes, "/password-reset/h.p.s", api);
    expect(screen.getByRole("status").textContent).toBe("Checking the reset link…");
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
    const alert = await screen.findByTestId("reset-link-refused");
    expect(alert.textContent).toContain("This reset link has expired or has been used already. Request a new one.");
    expect(screen.getByRole("link", { name: "Request a new link" }).getAttribute("href")).toBe("/password-reset");
    // Checked with the link's token, nothing typed; no form to fill in.
    expect(calls).toEqual([{ endpoint: "passwordReset.check", input: { token: "h.p.s" } }]);
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
  });

  it("a link that is not one of ours (token_verification_error) says so at once", async () => {
    const { api } = fakeApi({ "passwordReset.check": refused("token_verification_error") });
    renderRoutes(routes, "/password-reset/garbled", api);
    expect((await screen.findByTestId("reset-link-refused")).textContent).toContain(
      "This reset link is not valid. Open the link from the e-mail again, or request a new one.",
    );
  });

  it("a link that passes the check shows the form; one that expires while the form is filled in still says so on saving", async () => {
    const { api } = fakeApi({ "passwordReset.check": () => null, "passwordReset.confirm": refused("token_expired") });
    renderRoutes(routes, "/password-reset/abc", api);
    fill(await screen.findByLabelText(/^E-mail/), "ana@clinic.example");
    fill(/^New password/, "Str0ng!pass");
    fill(/Repeat the new password/, "Str0ng!pass");
    fireEvent.click(screen.getByRole("button", { name: "Save the new password" }));
    expect((await screen.findByTestId("reset-link-refused")).textContent).toContain("has expired or has been used already");
  });

  it("a check that gets no answer (no network) leaves the form to tell on saving", async () => {
    const { api } = fakeApi({
      "passwordReset.check": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    renderRoutes(routes, "/password-reset/abc", api);
    expect(await screen.findByRole("button", { name: "Save the new password" })).toBeTruthy();
    expect(screen.queryByTestId("reset-link-refused")).toBeNull();
  });

  it("'After success the user is sent to login after 3 s.' (accounts seed §2)", async () => {
    const { api, calls } = fakeApi({ "passwordReset.check": () => null, "passwordReset.confirm": () => null });
    const { router } = renderRoutes(routes, "/password-reset/tok-1", api);
    fill(await screen.findByLabelText(/^E-mail/), "ana@clinic.example");
    vi.useFakeTimers();
    fill(/^New password/, "Str0ng!pass");
    fill(/Repeat the new password/, "Str0ng!pass");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save the new password" }));
    });
    expect(screen.getByText(/Your password has been changed/)).toBeTruthy();
    expect(calls.map((c) => c.endpoint)).toEqual(["passwordReset.check", "passwordReset.confirm"]);
    expect(calls[1]!.input).toEqual({ token: "tok-1", body: { email: "ana@clinic.example", token: "tok-1", password: "Str0ng!pass" } });
    await act(async () => {
      vi.advanceTimersByTime(resetRedirectMs - 100);
    });
    expect(router.state.location.pathname).toBe("/password-reset/tok-1");
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(router.state.location.pathname).toBe("/login");
  });

  it("keeps submit disabled while the password breaks the policy", async () => {
    const { api } = fakeApi({ "passwordReset.check": () => null });
    renderRoutes(routes, "/password-reset/abc", api);
    fill(await screen.findByLabelText(/^E-mail/), "ana@clinic.example");
    fill(/^New password/, "weakpass");
    fill(/Repeat the new password/, "weakpass");
    expect(screen.getByRole("button", { name: "Save the new password" })).toHaveProperty("disabled", true);
    expect(screen.getByText("Password needs an uppercase letter.")).toBeTruthy();
    expect(screen.getByText("Password needs a digit.")).toBeTruthy();
  });

  it("'Missing token: a message says so' (accounts seed §2): the app's own routes, a link cut after /password-reset/", async () => {
    const { api, calls } = fakeApi({});
    const { router } = renderRoutes(appRoutes, "/password-reset/", api);
    expect((await screen.findByTestId("reset-token-missing")).textContent).toBe(
      "The reset link has no token. Open the link from the e-mail again, or request a new one.",
    );
    // The page that asks for a new link, right under the message; nothing was called.
    expect(screen.getByRole("button", { name: "Send reset link" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/password-reset/");
    expect(calls.filter((c) => c.endpoint.startsWith("passwordReset"))).toEqual([]);
  });

  it("the request page reached as such shows no token message; a blank token is a missing one", async () => {
    const { api, calls } = fakeApi({});
    renderRoutes(routes, "/password-reset", api);
    expect(screen.queryByTestId("reset-token-missing")).toBeNull();
    cleanup();
    renderRoutes(routes, "/password-reset/%20", api);
    expect(screen.getByTestId("reset-token-missing")).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe("sign-up by invitation", () => {
  it("'accept an invitation by choosing a password, then go to /login after 1 s' (accounts seed §2)", async () => {
    const { api, calls } = fakeApi({ "user.signup": () => null });
    const { router } = renderRoutes(routes, "/signup/inv-7/tok-9", api);
    fill(/^New password/, "Str0ng!pass");
    fill(/Repeat the new password/, "Str0ng!pass");
    vi.useFakeTimers();
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Create account" }));
    });
    expect(screen.getByText(/Your account is ready/)).toBeTruthy();
    expect(calls[0]!.input).toEqual({ token: "tok-9", body: { invitationId: "inv-7", invitationToken: "tok-9", password: "Str0ng!pass" } });
    await act(async () => {
      vi.advanceTimersByTime(signupRedirectMs - 100);
    });
    expect(router.state.location.pathname).toBe("/signup/inv-7/tok-9");
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(router.state.location.pathname).toBe("/login");
  });
});
