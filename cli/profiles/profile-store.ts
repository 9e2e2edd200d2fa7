import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Schema } from "effect";
import { CliError, ExitCode, badArguments } from "../exit-codes.ts";

// Profiles: a name -> server URL (and the last username) in config.json; each profile's access token in its own file,
// tokens/<name>.token, readable by the owner only (0600, directory 0700): a token is as good as a password.

export const ProfileSchema = Schema.Struct({
  server: Schema.String,
  username: Schema.optionalKey(Schema.String),
});
export type Profile = Schema.Schema.Type<typeof ProfileSchema>;

export const ProfilesFileSchema = Schema.Struct({
  current: Schema.String,
  profiles: Schema.Record(Schema.String, ProfileSchema),
});
export type ProfilesFile = Schema.Schema.Type<typeof ProfilesFileSchema>;

export const DEFAULT_PROFILE = "default";
const profileName = /^[A-Za-z0-9_.-]{1,40}$/;

export function checkProfileName(name: string): string {
  if (!profileName.test(name)) throw badArguments(`--profile: "${name}" is not a valid profile name (letters, digits, . _ -, up to 40)`);
  return name;
}

/** A server URL as typed (http://host:port[/prefix]) normalised without a trailing slash; bad URLs are bad arguments. */
export function checkServerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badArguments(`--server: "${raw}" is not a URL (expected e.g. http://127.0.0.1:4170)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badArguments(`--server: "${raw}" must start with http:// or https://`);
  return url.href.replace(/\/+$/, "");
}

export class ProfileStore {
  constructor(readonly home: string) {}

  private get configPath() {
    return join(this.home, "config.json");
  }

  tokenPath(profile: string): string {
    return join(this.home, "tokens", `${checkProfileName(profile)}.token`);
  }

  read(): ProfilesFile {
    if (!existsSync(this.configPath)) return { current: DEFAULT_PROFILE, profiles: {} };
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.configPath, "utf8"));
    } catch (e) {
      throw new CliError(ExitCode.Failure, `${this.configPath}: not valid JSON (${(e as Error).message})`);
    }
    const decoded = Schema.decodeUnknownExit(ProfilesFileSchema)(json);
    if (decoded._tag === "Failure")
      throw new CliError(ExitCode.Failure, `${this.configPath}: not a profiles file (${String(decoded.cause)})`);
    return decoded.value;
  }

  write(file: ProfilesFile): void {
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    const tmp = `${this.configPath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(file, null, 2) + "\n", { mode: 0o600 });
    renameSync(tmp, this.configPath);
  }

  saveProfile(name: string, profile: Profile, makeCurrent: boolean): void {
    const file = this.read();
    this.write({ current: makeCurrent ? name : file.current, profiles: { ...file.profiles, [checkProfileName(name)]: profile } });
  }

  readToken(profile: string): string | null {
    try {
      const t = readFileSync(this.tokenPath(profile), "utf8").trim();
      return t === "" ? null : t;
    } catch {
      return null;
    }
  }

  /** Written through a 0600 temporary file and renamed, so the token is never readable by others, not even briefly. */
  writeToken(profile: string, token: string): void {
    const path = this.tokenPath(profile);
    mkdirSync(join(this.home, "tokens"), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, token, { mode: 0o600 });
    chmodSync(tmp, 0o600); // the umask cannot widen it, but an existing file keeps its old mode without this
    renameSync(tmp, path);
  }

  removeToken(profile: string): void {
    rmSync(this.tokenPath(profile), { force: true });
  }
}
