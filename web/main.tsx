import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router-dom";
import { Provider as JotaiProvider, createStore } from "jotai";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import "./app.css";
import { createRouter } from "./router.tsx";
import { activateLocale } from "./i18n/activate.ts";
import { languageAtom, storedLanguage } from "./state/language.ts";
import { hasStoredSession, loadClient } from "./state/lazy-client.ts";

// "console output is silenced" in production (accounts seed §1); errors still reach the console for support.
if (import.meta.env.PROD) for (const level of ["log", "info", "debug", "warn"] as const) console[level] = () => undefined;

async function start() {
  const store = createStore();
  const language = storedLanguage();
  // A stored session resumes before the first render, as before; without one the client (core/client, the adapters)
  // loads with the first page that needs it or the login's submit, after /login's first paint (issue 18 §5).
  await Promise.all([activateLocale(language), hasStoredSession() ? loadClient(store) : null]);
  store.set(languageAtom, language);
  const router = createRouter();
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <JotaiProvider store={store}>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </JotaiProvider>
    </StrictMode>,
  );
}

void start();
