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

# The PostgreSQL suites skip without TEST_DATABASE_URL (a developer's vitest run without PostgreSQL); here a cluster
# that cannot start is a failure in the summary, not suites quietly skipped. Its port is a free one (TEST_PG_PORT to
# choose): a fixed port was once held by another socket, and three tries cover a port taken between the ask and the
# start.
pgdir="$PWD/.pgtest"
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -z "${TEST_DATABASE_URL:-}" ]; then
  for try in 1 2 3; do
    if url=$(bash scripts/pg-throwaway.sh start "$pgdir" "${TEST_PG_PORT:-$(free_port)}"); then
      export TEST_DATABASE_URL="$url"
      trap 'bash scripts/pg-throwaway.sh stop "$pgdir"' EXIT
      break
    fi
    echo "The throwaway PostgreSQL cluster did not start (try $try of 3): $(tail -n 3 "$pgdir/log" 2>/dev/null)" >&2
  done
  if [ -z "${TEST_DATABASE_URL:-}" ]; then
    echo "Could not start a throwaway PostgreSQL cluster: the PostgreSQL suites cannot run." >&2
    bash scripts/pg-throwaway.sh stop "$pgdir"
    echo '{"passed":0,"failed":1}' > .reports/postgres-missing.json; status=1
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
