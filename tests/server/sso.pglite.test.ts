import { ssoSuite } from "./sso-suite.ts";

// Single sign-on through a real OpenID provider (issue 33 item 1) on PGlite.
ssoSuite("pglite");
