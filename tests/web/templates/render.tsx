// Renders /templates inside the app's Root (notices) over core/client with a fake Api.
import { render } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { Provider, createStore } from "jotai";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { memoryStorage } from "../../../adapters/storage/index.ts";
import { systemClock } from "../../../adapters/clock/index.ts";
import { StorageKeys, type Api } from "../../../core/ports.ts";
import { bindClient } from "../../../web/state/start-client.ts";
import { Root } from "../../../web/shell/Root.tsx";
import TemplatesPage from "../../../web/pages/templates/TemplatesPage.tsx";
import { idleSocket, tokenFor } from "../render-app.tsx";

export function renderTemplates(api: Api) {
  const store = createStore();
  const storage = memoryStorage();
  storage.session.set(StorageKeys.session.accessToken, tokenFor("user"));
  const withToken: Api = {
    call: (e, i) =>
      e === "checkToken" ? Promise.resolve({ role: "user", username: "user", email: "u@x", exp: 4e9 } as never) : api.call(e, i),
  };
  const { client } = bindClient(store, { api: withToken, socket: idleSocket(), storage, clock: systemClock });
  void client.session.start();
  const router = createMemoryRouter(
    [
      {
        element: <Root />,
        children: [
          { path: "/templates", element: <TemplatesPage /> },
          { path: "/login", element: <p>login page</p> },
        ],
      },
    ],
    { initialEntries: ["/templates"] },
  );
  const view = render(
    <I18nProvider i18n={i18n}>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </I18nProvider>,
  );
  return { ...view, store, client };
}
