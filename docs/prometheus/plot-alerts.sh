#!/usr/bin/env bash
# Draws each alert of resilience-alerts.yml over a real run of the sample:
#   docs/prometheus/plot-alerts.sh          (the run, about 17 minutes, then the drawing)
#   docs/prometheus/plot-alerts.sh --draw   (the drawing again, from the files of the last run)
#
# Starts redis-server, the sample (profile redis) and a Prometheus server, each on a free
# local port, with the alert rules loaded into Prometheus (scraping and evaluating every
# 5s). Drives the sample for 16 minutes through the scenes below, then asks Prometheus
# (HTTP API, query_range) for each alert's expression without its comparison, and for the
# alert's state (the ALERTS series: pending, firing), writes them to alert-<name>.csv and
# draws alert-<name>.png next to this script with gnuplot; alert-run-scenes.csv holds when
# each scene began, alert-run-rules.tsv the alerts as Prometheus loaded them. Stops
# everything it started.
#
#   0s    healthy: payments and price reads
#   60s   the oracle down: the price-oracle breaker opens, probes, opens again (until 420s)
#   60s   the primary gateway down and the payment-gateway breaker DISABLED by hand: every
#         payment retries against the dead primary, a retry storm (until 450s)
#   450s  the breaker CLOSED again and the primary healthy; Redis, the idempotency store,
#         stopped (until 840s)
#   840s  Redis started again, the primary answering after 2.5s: attempts time out,
#         payments end in doubt and dead letters are written (until 930s)
#   930s  the primary healthy; 960s the end
#
# The retry storm and the Redis outage each last 6.5 minutes, so that the budget alert and
# the store alert (for: 5m each) fire while their cause lasts, about 80s before it ends.
#
# The run sets the retry budget's floor to 2 retries a second (the sample's is 10): the
# sample on a 2-core machine makes about 3 payments a second, fewer retries than 10.
#
# Needs java 17+, curl, jq, redis-server, prometheus, gnuplot (Debian: prometheus,
# redis-server, gnuplot-nox, jq) and the sample's jar (built with
# ./mvnw -pl sample-order-service -am -DskipTests package, or SAMPLE_JAR=path); --draw
# needs gnuplot only.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SCENES="$HERE/alert-run-scenes.csv"
RULES="$HERE/alert-run-rules.tsv"
WORK=$(mktemp -d)
RUN_SECONDS=960
PIDS=()

stop_all() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
  PIDS=()
}
trap 'stop_all; rm -rf "$WORK"' EXIT

free_port() {
  local port
  while :; do
    port=$(( 20000 + RANDOM % 40000 ))
    (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null || { echo "$port"; return; }
  done
}

await() {
  local what=$1 url=$2
  for _ in $(seq 300); do
    curl -sf --max-time 2 "$url" > /dev/null && return
    sleep 1
  done
  echo "$what did not start" >&2
  exit 1
}

start_redis() {
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no > "$WORK/redis.log" 2>&1 &
  REDIS_PID=$!
  PIDS+=("$REDIS_PID")
}

start_sample() {
  RESILIENCE_IDEMPOTENCY_FINGERPRINTSECRET=$(head -c 48 /dev/urandom | base64 -w0) java -jar "$JAR" \
    --server.port="$APP_PORT" --spring.profiles.active=redis --spring.data.redis.port="$REDIS_PORT" \
    --resilience.retry.defaults.budget.min-retries-per-second=2 > "$WORK/app.log" 2>&1 &
  PIDS+=("$!")
}

start_prometheus() {
  cat > "$WORK/prometheus.yml" << EOF
global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files:
  - $HERE/resilience-alerts.yml
scrape_configs:
  - job_name: sample-order-service
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ["localhost:$APP_PORT"]
EOF
  prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/data" \
    --web.listen-address="127.0.0.1:$PROM_PORT" > "$WORK/prometheus.log" 2>&1 &
  PIDS+=("$!")
}

post() {
  curl -sf --max-time 5 -X POST "$APP$1" -H 'Content-Type: application/json' -d "$2" > /dev/null
}

# waits for second `at` of the run, then notes the scene that begins
scene() {
  local at=$1 text=$2
  while (( $(date +%s) < START + at )); do sleep 0.2; done
  echo "$at,$text" >> "$SCENES"
  echo "$(date -u +%T) +${at}s $text" >&2
}

# a client paying new orders one after the other until the end of the run
payments() {
  local id
  while (( $(date +%s) < END )); do
    id=$(curl -s --max-time 10 -X POST "$APP/orders" -H 'Content-Type: application/json' \
      -d '{"customer":"plot","amountCents":1500,"cardToken":"tok_visa_4242"}' | jq -r '.id // empty' || true)
    [[ -z "$id" ]] || curl -s --max-time 20 -o /dev/null -X POST "$APP/orders/$id/payment" \
      -H "Idempotency-Key: plot-$id" || true
  done
}

# a client reading the ETH price twice a second until the end of the run
prices() {
  while (( $(date +%s) < END )); do
    curl -s --max-time 10 -o /dev/null "$APP/prices/eth" || true
    sleep 0.5
  done
}

range() {
  curl -sf -G "$PROM/api/v1/query_range" --data-urlencode "query=$1" \
    --data-urlencode "start=$START" --data-urlencode "end=$END" --data-urlencode "step=5"
}

# an alert's expression without its comparison with a number
quantity() {
  sed -E 's/[[:space:]]*(==|!=|>=|<=|>|<)[[:space:]]*[0-9.]+[[:space:]]*$//' <<< "$1"
}

run() {
  JAR=${SAMPLE_JAR:-$(ls "$ROOT"/sample-order-service/target/sample-order-service-*.jar 2> /dev/null | head -1)}
  [[ -n "$JAR" && -f "$JAR" ]] || { echo "No sample jar: build it or set SAMPLE_JAR" >&2; exit 1; }
  for tool in java curl jq redis-server prometheus gnuplot; do
    command -v "$tool" > /dev/null || { echo "$tool is missing" >&2; exit 1; }
  done
  REDIS_PORT=$(free_port)
  APP_PORT=$(free_port)
  PROM_PORT=$(free_port)
  APP=http://localhost:$APP_PORT
  PROM=http://127.0.0.1:$PROM_PORT
  start_redis
  start_sample
  start_prometheus
  await "The sample" "$APP/actuator/prometheus"
  await "Prometheus" "$PROM/-/ready"

  START=$(date +%s)
  END=$(( START + RUN_SECONDS ))
  echo "seconds,scene" > "$SCENES"
  for _ in 1 2 3 4 5 6; do payments & PIDS+=("$!"); done
  prices & PIDS+=("$!")
  scene 0 "healthy"
  scene 60 "oracle down; primary down and payment-gateway DISABLED"
  post /simulator/faults '{"target":"oracle","outage":true}'
  post /actuator/circuitbreakers/payment-gateway '{"state":"DISABLED"}'
  post /simulator/faults '{"target":"primary","outage":true}'
  scene 420 "oracle healthy"
  post /simulator/faults '{"target":"oracle"}'
  scene 450 "payment-gateway CLOSED; primary healthy; Redis stopped"
  post /simulator/faults '{"target":"primary"}'
  post /actuator/circuitbreakers/payment-gateway '{"state":"CLOSED"}'
  kill "$REDIS_PID"
  scene 840 "Redis started; primary answers after 2.5s"
  start_redis
  post /simulator/faults '{"target":"primary","latencyMs":2500}'
  scene 930 "primary healthy"
  post /simulator/faults '{"target":"primary"}'
  scene "$RUN_SECONDS" "end"
  sleep 10

  # name, expression and for: (seconds) of every alert, as Prometheus loaded them
  curl -sf "$PROM/api/v1/rules?type=alert" | jq -r '.data.groups[].rules[] | [.name, .query, .duration] | @tsv' \
    > "$RULES"
  local alert expr duration
  while IFS=$'\t' read -r -u 3 alert expr duration; do
    range "$(quantity "$expr")" > "$WORK/quantity.json"
    range "ALERTS{alertname=\"$alert\"}" > "$WORK/state.json"
    # one row per step and series (its labels but job and instance): the value of the
    # expression without its comparison, and the alert's state then
    jq -r --argjson start "$START" --slurpfile state "$WORK/state.json" '
        def key: del(.__name__, .job, .instance, .alertname, .alertstate, .severity)
          | to_entries | map(.value) | join(" ");
        ([$state[0].data.result[] | (.metric | key) as $k | .metric.alertstate as $s
          | .values[] | {key: "\($k)@\(.[0])", value: $s}] | from_entries) as $states
        | "seconds,series,value,state",
          (.data.result[] | (.metric | key) as $k | .values[]
            | [(.[0] - $start), $k, .[1], ($states["\($k)@\(.[0])"] // "inactive")] | @csv)
      ' "$WORK/quantity.json" > "$HERE/alert-$alert.csv"
  done 3< "$RULES"
  stop_all
}

# draws alert-<name>.png from alert-<name>.csv: the expression without its comparison
# above, the alert's state below, one line per series, the scenes as dotted lines
draw() {
  local alert expr duration quantity comparison threshold csv plot index series scenes
  command -v gnuplot > /dev/null || { echo "gnuplot is missing" >&2; exit 1; }
  # the run's length: the last scene, its end
  local run_length
  run_length=$(tail -1 "$SCENES" | cut -d, -f1)
  while IFS=$'\t' read -r -u 3 alert expr duration; do
    quantity=$(quantity "$expr")
    comparison=${expr#"$quantity"}
    threshold=$(sed -E 's/.*(==|!=|>=|<=|>|<)[[:space:]]*([0-9.]+)[[:space:]]*$/\2/' <<< "$expr")
    csv="$HERE/alert-$alert.csv"
    plot=""
    index=0
    while read -r series; do
      index=$(( index + 1 ))
      # minutes, value, state (0 inactive, 1 pending, 2 firing; each series a little
      # higher than the one before, so that equal states stay apart)
      awk -F, -v s="\"$series\"" -v i="$index" 'NR > 1 && $2 == s {
          state = ($4 == "\"firing\"") ? 2 : ($4 == "\"pending\"") ? 1 : 0
          gsub(/"/, "", $3); print $1 / 60, $3, state + (i - 1) * 0.05 }' "$csv" > "$WORK/$index.dat"
      plot+="'$WORK/$index.dat' using 1:COLUMN with steps lw 2 lc $index title '$series',"
    done < <(tail -n +2 "$csv" | cut -d, -f2 | sort -u | tr -d '"')
    [[ -n "$plot" ]] || { echo "No data for $alert" >&2; exit 1; }
    scenes=$(awk -F, -v run_length="$run_length" 'NR > 1 && $1 > 0 && $1 < run_length {
        printf "set arrow from %f, graph 0 to %f, graph 1 nohead dt 3 lc rgb \"gray40\"\n", $1 / 60, $1 / 60
        printf "set label \"%s\" at %f, graph 0.98 rotate by -90 font \",8\" tc rgb \"gray30\" offset 0.5, 0 front\n", $2, $1 / 60
      }' "$SCENES")
    gnuplot << EOF
set terminal pngcairo noenhanced size 1100,700 font "sans,10"
set output "$HERE/alert-$alert.png"
set datafile separator " "
set multiplot layout 2,1 title "$alert (for: $(( duration / 60 ))m) over a run of the sample, scraped every 5s\n${expr//\"/\\\"}"
set lmargin 12
set rmargin 4
set xrange [0:$(( run_length / 60 ))]
set grid
set key outside top center horizontal
set size 1, 0.62
set origin 0, 0.33
set ylabel "the expression without \"${comparison# }\"\n(threshold dashed)"
$scenes
plot ${plot//COLUMN/2} $threshold with lines dt 2 lc rgb "black" notitle
unset arrow
unset label
set size 1, 0.3
set origin 0, 0.02
set xlabel "minutes since the start of the run"
set ylabel "alert state"
set yrange [-0.2:2.4]
unset key
set ytics ("inactive" 0, "pending" 1, "firing" 2)
plot ${plot//COLUMN/3}
unset multiplot
EOF
    echo "drew alert-$alert.png from alert-$alert.csv" >&2
  done 3< "$RULES"
}

if [[ "${1:-}" != "--draw" ]]; then
  run
fi
draw
