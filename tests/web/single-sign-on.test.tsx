// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";

vi.mock("@lingui/core/macro", () => import("./lingui-shim.tsx"));
vi.mock("@lingui/react/macro", () => import("./lingui-shim.tsx"));

import { SignOnKeys } from "../../core/client/sign-on-facet.ts";
import { ApiError } from "../../core/model/contract/index.ts";
import LoginPage from "../../web/pages/login/LoginPage.tsx";
import SsoCallbackPage from "../../web/pages/login/SsoCallbackPage.tsx";
import { fakeApi, renderRoutes } from "./render-app.tsx";

// Single sign-on on the login page and the callback page (issue 33 item 1): what an organisation's login link offers,
// a provider that is down, passwords turned off (administrators keep the form), and a refused sign-in's words.

afterEach(cleanup);

const routes = [
  { path: "/login", element: <LoginPage /> },
  { path: "/login/:organisation", element: <LoginPage /> },
  { path: "/login/sso/callback", element: <SsoCallbackPage /> },
  { path: "/home", element: <h1>Home page</h1> },
];
const options = (over: object = {}) => ({
  organisationName: "St Mary's Eye Unit",
  displayName: "Hospital Login",
  passwordLogin: true,
  providerReachable: true,
  ...over,
});

describe("single sign-on on the login link", () => {
  it("offers 'Sign in with <provider>' beside the password form", async () => {
    const { api, calls } = fakeApi({ "sso.loginOptions": () => options() });
    renderRoutes(routes, "/login/st-marys", api);
    expect(await screen.findByRole("button", { name: "Sign in with Hospital Login" })).toBeTruthy();
    expect(screen.getByText("St Mary's Eye Unit")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Log in" })).toBeTruthy();
    expect(calls[0]!.input).toEqual({ query: { organisation: "st-marys" } });
  });

  it("a provider that is down: says so and that the password still works", async () => {
    const { api } = fakeApi({ "sso.loginOptions": () => options({ providerReachable: false }) });
    renderRoutes(routes, "/login/st-marys", api);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Hospital Login cannot be reached just now. Log in with your password below.",
    );
    expect(screen.getByRole("button", { name: "Log in" })).toBeTruthy();
  });

  it("passwords off: the form is hidden until 'Administrator login'", async () => {
    const { api } = fakeApi({ "sso.loginOptions": () => options({ passwordLogin: false, providerReachable: false }) });
    renderRoutes(routes, "/login/st-marys", api);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Hospital Login cannot be reached just now. Administrators can log in with their password.",
    );
    await waitFor(() => expect(screen.queryByRole("button", { name: "Log in" })).toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "Administrator login" }));
    expect(screen.getByRole("button", { name: "Log in" })).toBeTruthy();
  });

  it("begins a sign-in: the browser keeps the binding and goes to the provider", async () => {
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    const { api, calls } = fakeApi({
      "sso.loginOptions": () => options(),
      "sso.begin": () => ({ authorizationUrl: "https://idp.example/authorize?x=1", binding: "b-1" }),
    });
    const { storage } = renderRoutes(routes, "/login/st-marys", api);
    fireEvent.click(await screen.findByRole("button", { name: "Sign in with Hospital Login" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://idp.example/authorize?x=1"));
    expect(calls.find((c) => c.endpoint === "sso.begin")!.input.body).toEqual({
      organisation: "st-marys",
      redirectOrigin: window.location.origin,
    });
    expect([storage.session.get(SignOnKeys.binding), storage.session.get(SignOnKeys.organisation)]).toEqual(["b-1", "st-marys"]);
    assign.mockRestore();
  });

  it("a sign-in the provider cannot begin (503) shows the provider as down", async () => {
    const { api } = fakeApi({
      "sso.loginOptions": () => options(),
      "sso.begin": () => {
        throw new ApiError({ status: 503, responseType: "unavailable", message: "down" });
      },
    });
    renderRoutes(routes, "/login/st-marys", api);
    fireEvent.click(await screen.findByRole("button", { name: "Sign in with Hospital Login" }));
    expect((await screen.findByRole("alert")).textContent).toContain("cannot be reached just now");
  });

  it("/login, where an ended session lands, offers the provider this tab signed in through", async () => {
    sessionStorage.setItem(SignOnKeys.organisation, "st-marys");
    try {
      const { api, calls } = fakeApi({ "sso.loginOptions": () => options() });
      renderRoutes(routes, "/login", api);
      expect(await screen.findByRole("button", { name: "Sign in with Hospital Login" })).toBeTruthy();
      expect(calls[0]!.input).toEqual({ query: { organisation: "st-marys" } });
    } finally {
      sessionStorage.removeItem(SignOnKeys.organisation);
    }
  });

  it("an unknown link says so and keeps the password form", async () => {
    const { api } = fakeApi({
      "sso.loginOptions": () => {
        throw new ApiError({ status: 404, responseType: "not_found", message: "not found" });
      },
    });
    renderRoutes(routes, "/login/nowhere", api);
    expect((await screen.findByRole("status")).textContent).toContain("This login link is not known.");
    expect(screen.getByRole("button", { name: "Log in" })).toBeTruthy();
  });
});

describe("the password form where passwords are off", () => {
  it("a right password the organisation no longer takes says to use its provider's link, not to check the password", async () => {
    const { api } = fakeApi({
      login: () => {
        throw new ApiError({ status: 403, responseType: "forbidden", message: "Your organisation signs in with Hospital Login" });
      },
    });
    renderRoutes(routes, "/login", api);
    fireEvent.change(screen.getByLabelText(/Username/), { target: { value: "nurse" } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: "Right-Pass-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Log in" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Your organisation signs in through its identity provider: use its login link.");
    expect(alert.textContent).not.toContain("Check your username and password.");
  });
});

describe("the provider's callback", () => {
  it("completes once with the provider's answer and goes home", async () => {
    const { api, calls } = fakeApi({ "sso.complete": () => ({ accessToken: "h.e30.s" }), checkToken: () => ({}) });
    const { router, client } = renderRoutes(routes, "/login/sso/callback?code=c&state=s", api);
    await waitFor(() => expect(router.state.location.pathname).toBe("/home"));
    const completed = calls.filter((c) => c.endpoint === "sso.complete");
    expect(completed.map((c) => c.input.body.callback)).toEqual(["?code=c&state=s"]);
    expect(client.session.accessToken).toBe("h.e30.s");
  });

  it("a person the provider grants no role is told so, with the server's reason and the way back", async () => {
    const { api } = fakeApi({
      "sso.complete": () => {
        throw new ApiError({
          status: 403,
          responseType: "forbidden",
          message: "None of your identity provider's 'groups' values grants a role.",
        });
      },
    });
    const { storage } = renderRoutes(routes, "/login/sso/callback?code=c&state=s", api);
    storage.session.set(SignOnKeys.organisation, "st-marys");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Your identity provider grants you no role in Isopter.");
    expect(alert.textContent).toContain("'groups' values grants a role");
    expect(screen.getByRole("link", { name: "Back to the login page" }).getAttribute("href")).toBe("/login/st-marys");
  });
});
