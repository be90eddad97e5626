#!/usr/bin/env bash
# Throughput, latency and memory of the real server on the benchmark data (demo data, scale 10 by
# default), measured with wrk from outside the process. Not part of the test suite.
#
#   scripts/bench.sh [--scale N] [--duration S] [--connections C] [--database URL] [--port P]
#
# Without --database it seeds (once, reused afterwards) an SQLite file under ./data/bench-<scale>.db.
# Needs wrk (apt-get install wrk). Prints one line per scenario and the server's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."

scale=10 duration=10 connections=16 database='' port=18089 asof=2026-10-31
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --database) database=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }

npm run build --silent
if [ -z "$database" ]; then
  database="sqlite:./data/bench-$scale.db"
  if [ ! -f "./data/bench-$scale.db" ]; then
    echo "seeding scale $scale as of $asof into $database"
    /usr/bin/time -f "seed: %e s elapsed, %M KiB peak memory" \
      env DATABASE_URL="$database" node dist/scripts/seed.js --scale "$scale" --as-of "$asof"
  fi
fi

# --database may hold other codes than the demo data's: the first officer, as the other benchmarks name.
officer=$(node -e "
  const { openEngine } = require('./dist/src/db/engine');
  const { firstUserOf } = require('./dist/src/demo-data/operation-calls');
  const engine = openEngine(process.argv[1]);
  firstUserOf(engine.db, 'SO').then((id) => { console.log(id); return engine.close(); });
" "$database")

DATABASE_URL="$database" PORT=$port HOST=127.0.0.1 LOG_LEVEL=warn bin/serve &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done

base="http://127.0.0.1:$port/API/MobileAppWebService.asmx"
run() { # name url [wrk args...]
  local name=$1 url=$2; shift 2
  local out
  out=$(wrk -t2 -c"$connections" -d"${duration}s" --latency "$@" "$url")
  printf '%-44s %10s req/s   p50 %8s   p99 %8s   errors %s\n' "$name" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    "$(awk '$1 == "50%" {print $2}' <<<"$out")" \
    "$(awk '$1 == "99%" {print $2}' <<<"$out")" \
    "$(grep -Eo 'Non-2xx or 3xx responses: [0-9]+|Socket errors:.*' <<<"$out" || echo 0)"
}

echo "scale $scale, $connections connections, ${duration}s per scenario, $database"
run 'HelloWorld (HTTP GET)' "http://127.0.0.1:$port/API/SyncCustomers.asmx/HelloWorld"
run 'getPCNList one officer (HTTP GET)' "$base/getPCNList?SalesOfficer=$officer"
BENCH_OFFICER=$officer run 'getCollectionStatements (SOAP 1.1)' "$base" -s scripts/bench/soap11.lua
run 'getSalesSummaryRecords one month (HTTP GET)' "$base/getSalesSummaryRecords?FromDate=01/10/2026&ToDate=31/10/2026"
run 'getSalesReportStats one officer (HTTP GET)' "$base/getSalesReportStats?Username=$officer&AsOf=2026-10-31"
run 'getOpeningBalance 3 customers (HTTP GET)' "$base/getOpeningBalance?CustomerIds=C000001,C000002,C000003&Month=10&Year=2026"
echo "server peak memory: $(awk '/VmHWM/ {print $2, $3}' /proc/$server/status)"
