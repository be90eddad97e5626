#!/usr/bin/env bash
# Two builds of this server side by side on the same data (docs/performance.md, "Before and after"):
# each served alone on core 1, wrk -t1 -c50 on core 0, one row at a time, the builds in turn with
# the order swapped each round. Prints each round's requests per second and, per row, the median of
# the rounds' after/before ratios. Not part of the test suite.
#
#   scripts/bench-builds.sh BEFORE_DIR AFTER_DIR [--database URL] [--rounds 4] [--duration 3]
#
# Each DIR is a checkout with its dist/ built (git worktree add DIR REV; npm run build there), and so
# is this one. The database (default ./data/bench-10.db) must hold demo data: the rows name its first officer.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: $0 BEFORE_DIR AFTER_DIR [--database URL] [--rounds N] [--duration S]" >&2; exit 2; }
before=$(realpath "$1") after=$(realpath "$2"); shift 2
database="sqlite:$PWD/data/bench-10.db" rounds=4 duration=3
while [ $# -gt 0 ]; do
  case "$1" in
    --database) database=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
for dir in "$before" "$after"; do [ -f "$dir/dist/src/main.js" ] || { echo "$dir/dist/src/main.js: build it first" >&2; exit 2; }; done

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT

serve() { # dir port
  (cd "$1" && DATABASE_URL="$database" PORT=$2 HOST=127.0.0.1 SEED_DEMO_DATA=false LOG_LEVEL=warn \
    exec taskset -c 1 node --max-semi-space-size=8 dist/src/main.js >"$work/server-$2.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 1 100); do [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$2/ready")" = 200 ] && return; sleep 0.3; done
  echo "$1 did not start (log: $work/server-$2.log)" >&2; exit 1
}
serve "$before" 19001
serve "$after" 19002

officer=$(node -e "
  const { openEngine } = require('./dist/src/db/engine');
  const { firstUserOf } = require('./dist/src/demo-data/operation-calls');
  const engine = openEngine('$database');
  firstUserOf(engine.db, 'SO').then((id) => { console.log(id); return engine.close(); });
")
ns=http://tempuri.org/
main=/API/MobileAppWebService.asmx sync=/API/SyncCustomers.asmx
envelope() { # soap-namespace operation params
  echo "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"$1\"><soap:Body><$2 xmlns=\"$ns\">$3</$2></soap:Body></soap:Envelope>"
}
row() { # name method path content-type soapaction body
  { echo "wrk.method = \"$2\""; echo "wrk.path = \"$3\""
    [ -z "$4" ] || echo "wrk.headers[\"Content-Type\"] = \"$4\""
    [ -z "$5" ] || echo "wrk.headers[\"SOAPAction\"] = '\"$5\"'"
    [ -z "$6" ] || echo "wrk.body = [[$6]]"; } >"$work/$1.lua"
  echo "$1"
}
s11=http://schemas.xmlsoap.org/soap/envelope/ s12=http://www.w3.org/2003/05/soap-envelope
rows=(
  "$(row 'SOAP-1.1-HelloWorld' POST $sync 'text/xml; charset=utf-8' "${ns}HelloWorld" "$(envelope $s11 HelloWorld '')")"
  "$(row 'SOAP-1.1-getPCNList' POST $main 'text/xml; charset=utf-8' "${ns}getPCNList" "$(envelope $s11 getPCNList "<SalesOfficer>$officer</SalesOfficer>")")"
  "$(row 'SOAP-1.2-getPCNList' POST $main 'application/soap+xml; charset=utf-8' '' "$(envelope $s12 getPCNList "<SalesOfficer>$officer</SalesOfficer>")")"
  "$(row 'HTTP-GET-HelloWorld' GET $sync/HelloWorld '' '' '')"
  "$(row 'HTTP-GET-getPCNList' GET "$main/getPCNList?SalesOfficer=$officer" '' '' '')"
  "$(row 'HTTP-POST-getPCNList' POST $main/getPCNList 'application/x-www-form-urlencoded' '' "SalesOfficer=$officer")"
)

rps() { taskset -c 0 wrk -t1 -c50 -d"$2"s -s "$work/$1.lua" "http://127.0.0.1:$3" | awk '/Requests\/sec/ { print $2 }'; }
echo "row round before after after/before"
for name in "${rows[@]}"; do
  rps "$name" 2 19001 >/dev/null; rps "$name" 2 19002 >/dev/null
  for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then b=$(rps "$name" "$duration" 19001); a=$(rps "$name" "$duration" 19002)
    else a=$(rps "$name" "$duration" 19002); b=$(rps "$name" "$duration" 19001); fi
    echo "$name $round $b $a $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
  done
done | tee "$work/rounds.txt"
echo
echo "median after/before per row:"
awk '{ r[$1] = r[$1] " " $5 } END { for (k in r) print k, r[k] }' "$work/rounds.txt" | while read -r name ratios; do
  echo "$name $(echo "$ratios" | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }') (rounds: $ratios)"
done
