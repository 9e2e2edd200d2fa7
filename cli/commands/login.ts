import type { Command } from "commander";
import { memoryStorage } from "../../adapters/storage/memory-storage.ts";
import { createHttpApi } from "../../adapters/http/http-api.ts";
import { defineCommand, sharedOptions } from "../command.ts";
import { badArguments } from "../exit-codes.ts";
import type { CliIo } from "../io.ts";
import { ask, readFirstLine } from "../prompt.ts";
import type { ProfileStore } from "../profiles/profile-store.ts";
import { apiBaseOf, apiFor, resolveTarget } from "../session.ts";

// isopter login / logout / profiles / use: profiles map a name to a server; the token sits in a 0600 file.

/** Logs in and, on success only, writes the token file and makes the profile current. An account with a second factor
 * (issue 33 item 2) is asked for a code or recovery code (`code`); one that must still set one up enrols in the web app. */
export async function logIn(
  store: ProfileStore,
  profile: string,
  server: string,
  username: string,
  password: string,
  code: () => Promise<string | undefined> = async () => undefined,
): Promise<void> {
  // The login call itself runs without a stored token.
  const api = createHttpApi({ apiBase: apiBaseOf(server), storage: memoryStorage() });
  const answer = await api.call("login", { body: { username, password } });
  let accessToken = answer.accessToken;
  if (answer.secondFactor?.step === "enrol")
    throw badArguments("your organisation requires a second factor: set it up by logging in once in the web app");
  if (answer.secondFactor) {
    const typed = (await code())?.trim();
    if (!typed) throw badArguments("this account has a second factor: give --code (a code of your app, or a recovery code)");
    accessToken = (await api.call("secondFactor.signIn", { body: { challenge: answer.accessToken, code: typed } })).accessToken;
  }
  store.writeToken(profile, accessToken);
  store.saveProfile(profile, { server, username }, true);
}

export function registerLogin(program: Command, io: CliIo): void {
  defineCommand(program, "login", "log in to a server and keep the token in the profile (file mode 0600)")
    .option("-u, --username <name>", "user name (default: the profile's last one; asked on a terminal)")
    .option("--password-stdin", "read the password from the first line of stdin (else env ISOPTER_PASSWORD, else asked)")
    .option("--code <code>", "the second factor's code (or a recovery code) when the account has one (else asked on a terminal)")
    .addHelpText(
      "after",
      '\nExample:\n  isopter login --server http://127.0.0.1:4170 --username admin@clinic.test\n  echo "$PW" | isopter login --profile qa --server https://qa.example.org -u tech --password-stdin',
    )
    .action(async (opts: { username?: string; passwordStdin?: boolean; code?: string }, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const target = resolveTarget(shared, io);
      if (target.server === null)
        throw badArguments(`--server is required: profile "${target.profile}" has no server yet (e.g. --server http://127.0.0.1:4170)`);
      const profile = target.store.read().profiles[target.profile];
      let username = opts.username?.trim() ?? profile?.username;
      if (!username && io.stdin.isTTY && !opts.passwordStdin) username = (await ask(io, "Username: ", false)).trim();
      if (!username) throw badArguments("--username is required (no terminal to ask on)");
      let password: string | undefined;
      if (opts.passwordStdin) password = await readFirstLine(io.stdin);
      else if (io.env.ISOPTER_PASSWORD !== undefined) password = io.env.ISOPTER_PASSWORD;
      else if (io.stdin.isTTY) password = await ask(io, "Password: ", true);
      if (!password) throw badArguments("no password: use --password-stdin, set ISOPTER_PASSWORD, or run on a terminal");

      const code = async () => opts.code ?? (io.stdin.isTTY && !opts.passwordStdin ? await ask(io, "Code: ", false) : undefined);
      await logIn(target.store, target.profile, target.server, username, password, code);
      if (shared.json) io.stdout.write(JSON.stringify({ profile: target.profile, server: target.server, username }) + "\n");
      else io.stdout.write(`Logged in to ${target.server} as ${username} (profile "${target.profile}").\n`);
    });

  defineCommand(program, "logout", "log out and delete the profile's token").action(async (_opts: unknown, cmd: Command) => {
    const shared = sharedOptions(cmd);
    const target = resolveTarget(shared, io);
    const had = target.store.readToken(target.profile) !== null;
    // The token goes only to the server that issued it (the profile's), never to a --server given here.
    const issuer = target.store.read().profiles[target.profile]?.server;
    if (had && issuer !== undefined) {
      // "Logout calls the server; local logout happens regardless of outcome" (accounts seed §4).
      await apiFor({ ...target, server: issuer })
        .call("logout", {})
        .catch(() => undefined);
    }
    target.store.removeToken(target.profile);
    if (shared.json) io.stdout.write(JSON.stringify({ profile: target.profile, loggedOut: had }) + "\n");
    else io.stdout.write(had ? `Logged out (profile "${target.profile}").\n` : `Profile "${target.profile}" was not logged in.\n`);
  });

  defineCommand(program, "profiles", "list the profiles, their servers and whether each holds a token").action(
    async (_opts: unknown, cmd: Command) => {
      const shared = sharedOptions(cmd);
      const { store } = resolveTarget(shared, io);
      const file = store.read();
      const rows = Object.entries(file.profiles).map(([name, p]) => ({
        name,
        current: name === file.current,
        server: p.server,
        username: p.username ?? null,
        loggedIn: store.readToken(name) !== null,
      }));
      if (shared.json) return void io.stdout.write(JSON.stringify(rows) + "\n");
      if (rows.length === 0) return void io.stdout.write("No profiles yet: run `isopter login --server URL`.\n");
      for (const r of rows)
        io.stdout.write(
          `${r.current ? "*" : " "} ${r.name.padEnd(12)} ${r.server.padEnd(32)} ${(r.username ?? "").padEnd(24)} ${r.loggedIn ? "logged in" : "logged out"}\n`,
        );
    },
  );

  defineCommand(program, "use <profile>", "make a profile the current one").action(async (name: string, _opts: unknown, cmd: Command) => {
    const shared = sharedOptions(cmd);
    const { store } = resolveTarget({ ...shared, profile: name }, io);
    const file = store.read();
    if (!file.profiles[name]) throw badArguments(`no profile "${name}" (known: ${Object.keys(file.profiles).join(", ") || "none"})`);
    store.write({ ...file, current: name });
    io.stdout.write(shared.json ? JSON.stringify({ current: name }) + "\n" : `Current profile: ${name}\n`);
  });
}
