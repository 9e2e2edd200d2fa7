import { type ReactNode, use } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import { useAtomValue, useStore } from "jotai";
import { ErrorPage } from "./shell/ErrorPage.tsx";
import { NotFound } from "./shell/NotFound.tsx";
import { Root } from "./shell/Root.tsx";
import { clientAtom, loadClient } from "./state/lazy-client.ts";

// Every route of both seeds' route tables. Page modules load lazily so /login downloads only what it needs; the
// routes whose pages call the server (the protected area, password reset, sign-up) render once the client is there
// (web/state/lazy-client.ts), the login page loads it on its submit (issue 18 §5).
type Module = { default: React.ComponentType };
const page = (load: () => Promise<Module>): Pick<RouteObject, "lazy"> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** Renders its page once the store has a client, loading it first when there is none (a visitor with no session). */
function WithClient({ children }: { children: ReactNode }) {
  const store = useStore();
  const client = useAtomValue(clientAtom);
  if (!client) use(loadClient(store));
  return children;
}

/** A page that calls the server: its module (which imports the client's code), rendered with the client. */
const clientPage = (load: () => Promise<Module>): Pick<RouteObject, "lazy"> => ({
  lazy: async () => {
    const Page = (await load()).default;
    return {
      // biome-ignore lint/correctness/noComponentHookFactories: made once, when react-router resolves the route's module
      Component: () => (
        <WithClient>
          <Page />
        </WithClient>
      ),
    };
  },
});

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <ErrorPage />,
    children: [
      { path: "/login", ...page(() => import("./pages/login/LoginPage.tsx")) },
      // An organisation's login link with its identity provider, and where the provider sends the browser back (issue 33).
      { path: "/login/:organisation", ...page(() => import("./pages/login/LoginPage.tsx")) },
      { path: "/login/sso/callback", ...clientPage(() => import("./pages/login/SsoCallbackPage.tsx")) },
      { path: "/password-reset", ...clientPage(() => import("./pages/password/ResetRequestPage.tsx")) },
      { path: "/password-reset/:temporaryToken", ...clientPage(() => import("./pages/password/ResetWithTokenPage.tsx")) },
      { path: "/signup/:invitationId/:invitationToken", ...clientPage(() => import("./pages/signup/SignupPage.tsx")) },
      {
        path: "/",
        // The protected layout reads the session from the client: without a session it loads the client, then sends
        // the visitor to /login with the page asked for (after-login.ts).
        ...clientPage(() => import("./shell/Protected.tsx").then((m) => ({ default: m.Protected }))),
        children: [
          { index: true, element: <Navigate to="/home" replace /> },
          { path: "home", ...page(() => import("./pages/home/HomePage.tsx")) },
          {
            path: "patient/:patientId",
            ...page(() => import("./pages/patient/PatientLayout.tsx")),
            children: [
              { index: true, element: <Navigate to="overview" replace /> },
              { path: "overview", ...page(() => import("./pages/patient/OverviewPage.tsx")) },
              { path: "perimetry/:perimetryId", ...page(() => import("./pages/patient/PerimetryPage.tsx")) },
              { path: "amsler-grid", ...page(() => import("./pages/patient/AmslerPage.tsx")) },
              { path: "home-monitoring", ...page(() => import("./pages/patient/HomeMonitoringPage.tsx")) },
            ],
          },
          {
            // The review queue and the adherence list (issue 31 §2, §3), for every role: every role reads results.
            path: "review",
            ...page(() => import("./pages/review/ReviewLayout.tsx")),
            children: [
              { index: true, ...page(() => import("./pages/review/ReviewQueuePage.tsx")) },
              { path: "adherence", ...page(() => import("./pages/review/AdherencePage.tsx")) },
            ],
          },
          { path: "technician", ...page(() => import("./pages/technician/TechnicianPage.tsx")) },
          { path: "templates", ...page(() => import("./pages/templates/TemplatesPage.tsx")) },
          { path: "support", ...page(() => import("./pages/support/SupportPage.tsx")) },
          { path: "support/progression-accuracy", ...page(() => import("./pages/support/ProgressionAccuracyPage.tsx")) },
          {
            path: "users-manual",
            ...page(() => import("./pages/manual/ManualLayout.tsx")),
            children: [
              { index: true, element: <Navigate to="part-one" replace /> },
              { path: "part-one", ...page(() => import("./pages/manual/PartOne.tsx")) },
              { path: "part-two", ...page(() => import("./pages/manual/PartTwo.tsx")) },
            ],
          },
          {
            path: "bin",
            ...page(() => import("./pages/bin/BinLayout.tsx")),
            children: [
              { index: true, element: <Navigate to="deleted-patients" replace /> },
              { path: "deleted-patients", ...page(() => import("./pages/bin/DeletedPatients.tsx")) },
              { path: "deleted-measurements", ...page(() => import("./pages/bin/DeletedMeasurements.tsx")) },
              { path: "deleted-appointments", ...page(() => import("./pages/bin/DeletedAppointments.tsx")) },
            ],
          },
          { path: "settings", ...page(() => import("./pages/settings/SettingsPage.tsx")) },
          { path: "admin", ...page(() => import("./pages/users/UsersPage.tsx")) },
          { path: "design-system", ...page(() => import("./pages/design-system/DesignSystemPage.tsx")) },
        ],
      },
      { path: "*", element: <NotFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
