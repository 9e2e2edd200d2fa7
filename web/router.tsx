import { createBrowserRouter, Navigate, type RouteObject } from "react-router-dom";
import { ErrorPage } from "./shell/ErrorPage.tsx";
import { Protected } from "./shell/Protected.tsx";
import { NotFound } from "./shell/NotFound.tsx";
import { Root } from "./shell/Root.tsx";

// Every route of both seeds' route tables. Page modules load lazily so /login downloads only what it needs.
type Module = { default: React.ComponentType };
const page = (load: () => Promise<Module>): Pick<RouteObject, "lazy"> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <ErrorPage />,
    children: [
      { path: "/login", ...page(() => import("./pages/login/LoginPage.tsx")) },
      { path: "/password-reset", ...page(() => import("./pages/password/ResetRequestPage.tsx")) },
      { path: "/password-reset/:temporaryToken", ...page(() => import("./pages/password/ResetWithTokenPage.tsx")) },
      { path: "/signup/:invitationId/:invitationToken", ...page(() => import("./pages/signup/SignupPage.tsx")) },
      {
        path: "/",
        element: <Protected />,
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
            ],
          },
          { path: "technician", ...page(() => import("./pages/technician/TechnicianPage.tsx")) },
          { path: "templates", ...page(() => import("./pages/templates/TemplatesPage.tsx")) },
          { path: "support", ...page(() => import("./pages/support/SupportPage.tsx")) },
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
