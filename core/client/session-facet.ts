import { ApiError } from "../model/contract/errors.ts";
import type { ResponseOf } from "../model/contract/index.ts";
import type { SocketState } from "../model/enums.ts";
import { StorageKeys, type Api, type Socket } from "../ports.ts";
import type { Connectivity } from "./connectivity.ts";
import type { FacetContext } from "./facet-context.ts";
import { createSecondFactorSteps, type SecondFactorSteps } from "./second-factor-steps.ts";
import {
  isLoginServerError,
  LOGIN_FAILED,
  LOGIN_PROVIDER_ONLY,
  LOGIN_SERVER_ERROR,
  loggedOut,
  type SessionEndDialog,
  type SessionState,
} from "./session.ts";

// The session facet (accounts seed §4 "Login", "Session", "Connectivity"): login, logout, resuming a stored session,
// the dialogs that end one, the live socket that belongs to it and whether the browser is offline.

export interface SessionFacet {
  readonly state: SessionState;
  /** The stored access token while logged in (the web reads its role from it before the token check answers). */
  readonly accessToken: string | null;
  /** The live socket's state (the technician view shows it). */
  readonly socketState: SocketState;
  /** True once the browser has been offline for 2 s. */
  readonly offline: boolean;
  /** Resume a stored session: "a missing access token triggers logout"; "The token check runs whenever a token is present." */
  start(): Promise<void>;
  /** False when refused, or when the login waits for its second factor (`secondFactor.pending`). */
  login(username: string, password: string): Promise<boolean>;
  /** The second step of a login with a second factor (issue 33 item 2). */
  readonly secondFactor: SecondFactorSteps;
  /** "Logout calls the server; local logout happens regardless of outcome." */
  logout(): Promise<void>;
  clearLoginError(): void;
  /** Close the session-ended dialog. */
  dismissDialog(): void;
  /** The platform's online/offline signal ("offline is reported only after 2 s; back online clears it at once"). */
  setOnline(online: boolean): void;
}

export interface SessionParts {
  /** The Api without the session-expiry guard (logout must not end the session twice). */
  readonly rawApi: Api;
  readonly socket: Socket;
  readonly connectivity: Connectivity;
  /** Forget what the other facets keep for this session (caches, tracked devices, open dialogs). */
  clearLocal(): void;
}

export interface SessionControl {
  readonly facet: SessionFacet;
  /** The server ended the session (expired token, another session opened): clear, show the dialog, go to login. */
  end(dialog: SessionEndDialog): void;
  /** Whether we closed the live socket ourselves (an abnormal close is any other). */
  readonly closingSocket: boolean;
  closeSocket(): void;
}

export function createSessionFacet(ctx: FacetContext, parts: SessionParts): SessionControl {
  const { storage } = ctx;
  const { socket, connectivity } = parts;
  let state: SessionState = loggedOut;
  let closingSocket = false;

  const set = (next: SessionState) => {
    state = next;
    ctx.changed("session");
  };
  const openSocket = () => {
    closingSocket = false;
    socket.connect();
  };
  const closeSocket = () => {
    closingSocket = true;
    socket.close();
  };
  const clearLocal = () => {
    if (secondFactor.pending !== null) secondFactor.cancel();
    storage.session.remove(StorageKeys.session.accessToken);
    closeSocket();
    parts.clearLocal();
  };

  async function checkToken() {
    try {
      const claims = await ctx.api.call("checkToken", {});
      if (state.status === "logged-in") set({ ...state, claims });
    } catch {
      // an expired or invalid token has ended the session through the guarded Api; other failures keep it
    }
  }

  /** A session begins: the token stored, home, the live socket, the token check. */
  const enter = (accessToken: string) => {
    storage.session.set(StorageKeys.session.accessToken, accessToken);
    set({ ...loggedOut, status: "logged-in" });
    ctx.events.emit("navigate", { to: "home" });
    openSocket();
    void checkToken();
  };
  const secondFactor = createSecondFactorSteps(ctx.api, () => ctx.changed("session"), enter);

  const facet: SessionFacet = {
    secondFactor,
    get state() {
      return state;
    },
    get accessToken() {
      return state.status === "logged-in" ? storage.session.get(StorageKeys.session.accessToken) : null;
    },
    get socketState() {
      return socket.state;
    },
    get offline() {
      return connectivity.offline;
    },
    async start() {
      if (!storage.session.get(StorageKeys.session.accessToken)) {
        if (state.status !== "logged-out") set(loggedOut);
        return;
      }
      set({ ...loggedOut, status: "logged-in" });
      openSocket();
      await checkToken();
    },
    async login(username, password) {
      set({ ...loggedOut, status: "submitting" });
      let answer: ResponseOf<"login">;
      try {
        answer = await ctx.api.call("login", { body: { username, password } });
      } catch (e) {
        storage.session.remove(StorageKeys.session.accessToken);
        const serverSide = isLoginServerError(e instanceof ApiError ? e.status : undefined);
        const providerOnly = e instanceof ApiError && e.responseType === "forbidden";
        set({ ...loggedOut, loginError: serverSide ? LOGIN_SERVER_ERROR : providerOnly ? LOGIN_PROVIDER_ONLY : LOGIN_FAILED });
        return false;
      }
      if (answer.secondFactor) {
        // No session yet: the answer's token is the second step's challenge (contract/accounts.ts login).
        secondFactor.begin(answer.secondFactor.step, answer.accessToken);
        set(loggedOut);
        return false;
      }
      enter(answer.accessToken);
      return true;
    },
    async logout() {
      try {
        await parts.rawApi.call("logout", {});
      } catch {
        // "local logout happens regardless of outcome"
      }
      clearLocal();
      set(loggedOut);
      ctx.events.emit("navigate", { to: "login" });
    },
    clearLoginError() {
      if (state.loginError !== null) set({ ...state, loginError: null });
    },
    dismissDialog() {
      if (state.dialog !== null) set({ ...state, dialog: null });
    },
    setOnline: (online) => connectivity.setOnline(online),
  };

  return {
    facet,
    end(dialog) {
      if (state.status === "logged-out" && state.dialog === dialog) return;
      clearLocal();
      set({ ...loggedOut, dialog });
      ctx.events.emit("navigate", { to: "login" });
    },
    get closingSocket() {
      return closingSocket;
    },
    closeSocket,
  };
}
