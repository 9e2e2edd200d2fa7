// "after logging in from a deep link the app lands on /home" (issue 21): the protected area sends a logged-out visitor
// to /login with the page they asked for, and the login goes back there. Only a path of this app is followed (never
// another origin, never the login page itself).

export interface LoginRedirectState {
  readonly from: string;
}

export function afterLoginPath(state: unknown): string {
  const from = (state as Partial<LoginRedirectState> | null)?.from;
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//") || from.startsWith("/login")) return "/home";
  return from;
}
