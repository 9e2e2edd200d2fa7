#!/usr/bin/env bash
# `npm test`: every check of the project, in the order a failure is cheapest to read.
#   1. system packages (Chromium, PostgreSQL): installed with apt as root, else the exact command is printed
#   2. type check (tsc --noEmit)
#   3. format and lint (biome ci: biome.json's formatter and linter, read-only)
#   4. vitest: unit, property, contract and component suites (PGlite, and PostgreSQL via TEST_DATABASE_URL)
#   5. the same vitest suites again on Node 24 LTS when the machine's Node is older (binary from the npm registry)
#   6. Playwright journeys in Debian's Chromium (when e2e/ holds any)
# Each runner writes its own report to .reports/; the last line is `N passed, N failed` counted from them.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf .reports && mkdir -p .reports
status=0

bash scripts/system-deps.sh || exit 1

pgdir="$PWD/.pgtest"
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${TEST_DATABASE_URL:-}" ]; then
  if url=$(bash scripts/pg-throwaway.sh start "$pgdir" "${TEST_PG_PORT:-55432}"); then
    export TEST_DATABASE_URL="$url"
    trap 'bash scripts/pg-throwaway.sh stop "$pgdir"' EXIT
  else
    echo "Could not start a throwaway PostgreSQL cluster; the PostgreSQL suites will fail." >&2
  fi
fi

echo "== type check"
if npx tsc --noEmit -p tsconfig.json; then
  echo '{"passed":1,"failed":0}' > .reports/typecheck.json
else
  echo '{"passed":0,"failed":1}' > .reports/typecheck.json; status=1
fi

echo "== format and lint"
if npx biome ci .; then
  echo '{"passed":1,"failed":0}' > .reports/biome.json
else
  echo '{"passed":0,"failed":1}' > .reports/biome.json; status=1
fi

echo "== vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=.reports/vitest.json || status=1

# Supported runtimes are Node 22 and 24 LTS (README "Supported Node versions"); the newest is always tested too.
lts=24.21.0
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt "${lts%%.*}" ]; then
  echo "== vitest on Node $lts"
  if bin=$(bash scripts/node-runtime.sh "$lts"); then
    PATH="$bin:$PATH" npx vitest run --reporter=default --reporter=json --outputFile.json=.reports/vitest-node24.json || status=1
  else
    echo '{"passed":0,"failed":1}' > .reports/node24-missing.json; status=1
  fi
fi

if compgen -G "e2e/**/*.spec.ts" >/dev/null || compgen -G "e2e/*.spec.ts" >/dev/null; then
  echo "== playwright"
  PLAYWRIGHT_JSON_OUTPUT_NAME=.reports/playwright.json npx playwright test --reporter=list,json || status=1
fi

node scripts/test-summary.mjs
exit $status
