import { message, type FieldErrors } from "./messages.ts";

export interface LoginForm {
  readonly username: string;
  readonly password: string;
}

/** "Login: username and password required; username trimmed." (accounts seed §5) */
export const validateLogin = (form: LoginForm): FieldErrors<"username" | "password"> => {
  const errors: FieldErrors<"username" | "password"> = {};
  if (form.username.trim() === "") errors.username = message("required");
  if (form.password === "") errors.password = message("required");
  return errors;
};

/** The credentials to send (username trimmed), or undefined while a field is missing. */
export const loginCredentials = (form: LoginForm): LoginForm | undefined =>
  Object.keys(validateLogin(form)).length === 0 ? { username: form.username.trim(), password: form.password } : undefined;
