import { Schema } from "effect";
import { commonErrors, endpoint } from "./endpoint.ts";

// Calls of the accounts seed §7 (login, session, password, users, organisation). Entity-backed ones follow.

export const login = endpoint({
  name: "login",
  method: "POST",
  path: "login",
  body: Schema.Struct({ username: Schema.String, password: Schema.String }),
  response: Schema.Struct({ accessToken: Schema.String }),
  errors: [...commonErrors, "invalid_credentials"],
  auth: "none",
  carriesAccessToken: true,
  source: "accounts §7",
  ourDesign: "answer shape: data {accessToken} and the envelope's accessToken carry the same token",
});

export const logout = endpoint({
  name: "logout",
  method: "POST",
  path: "logout",
  response: Schema.Null,
  errors: commonErrors,
  auth: "bearer",
  carriesAccessToken: false,
  source: "accounts §7",
});
