#!/usr/bin/env bash
# Drives the running sample with a bounded load and prints what happened.
#
#   scripts/load.sh [orders] [concurrency]      (defaults: 200 orders, 8 at a time)
#   DURATION=60 scripts/load.sh 0 [concurrency] (as many orders as fit in 60 seconds)
#
# Makes the primary gateway fail half of its calls, creates the orders, pays each one TWICE
# at the same time with the same Idempotency-Key, then prints the payments by final state,
# the charges per gateway, the orders charged more than once (must be none) and the
# payment-gateway breaker's transitions. Restores the primary when done. Talks only to the
# application on localhost (BASE, default http://localhost:8080). Needs bash and curl.
set -euo pipefail

ORDERS=${1:-200}
CONCURRENCY=${2:-8}
BASE=${BASE:-http://localhost:8080}

case "$BASE" in
  http://localhost:*|http://127.0.0.1:*) ;;
  *) echo "BASE must be the local application (http://localhost:<port>), not $BASE" >&2; exit 2 ;;
esac
DURATION=${DURATION:-}
if [[ -n "$DURATION" ]]; then
  if ! [[ "$DURATION" =~ ^[0-9]+$ && "$DURATION" -ge 1 && "$DURATION" -le 600 ]]; then
    echo "DURATION must be between 1 and 600 seconds" >&2; exit 2
  fi
  ORDERS=100000
elif ! [[ "$ORDERS" =~ ^[0-9]+$ && "$ORDERS" -ge 1 && "$ORDERS" -le 10000 ]]; then
  echo "orders must be between 1 and 10000" >&2; exit 2
fi
if ! [[ "$CONCURRENCY" =~ ^[0-9]+$ && "$CONCURRENCY" -ge 1 && "$CONCURRENCY" -le 64 ]]; then
  echo "concurrency must be between 1 and 64" >&2; exit 2
fi
curl -sf --max-time 5 "$BASE/actuator/health" > /dev/null || { echo "No application at $BASE" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
END=$(( $(date +%s) + ${DURATION:-100000} ))
export BASE WORK END RUN=$(date +%s)

faults() {
  curl -sf --max-time 5 -X POST "$BASE/simulator/faults" -H 'Content-Type: application/json' -d "$1" > /dev/null
}

transitions() {
  curl -sf --max-time 5 "$BASE/actuator/prometheus" \
    | grep '^resilience_circuitbreaker_transitions_total{.*name="payment-gateway"' \
    | sed -E 's/.*from="([a-z_]+)".*to="([a-z_]+)".*\} ([0-9]+).*/\1->\2 \3/' | sort || true
}

create_order() {
  curl -sf --max-time 10 -X POST "$BASE/orders" -H 'Content-Type: application/json' \
    -d "{\"customer\":\"load-$1\",\"amountCents\":$((1000 + $1)),\"cardToken\":\"tok_visa\"}" \
    | grep -o '"id":[0-9]*' | cut -d: -f2
}

pay_twice() {
  local id=$1 key="load-$RUN-$1" n
  for n in 1 2; do
    curl -s --max-time 30 -o "$WORK/pay-$id-$n" -w '%{http_code} %{time_total}\n' -X POST "$BASE/orders/$id/payment" \
      -H "Idempotency-Key: $key" > "$WORK/status-$id-$n" &
  done
  wait
  local a b
  a=$(sed -E 's/"(replayed|attempts|fallback|outcome|deadLetterId|error)":[^,}]*,?//g' "$WORK/pay-$id-1")
  b=$(sed -E 's/"(replayed|attempts|fallback|outcome|deadLetterId|error)":[^,}]*,?//g' "$WORK/pay-$id-2")
  if [[ "$a" == "$b" ]]; then echo same > "$WORK/answer-$id"; else echo different > "$WORK/answer-$id"; fi
}

create_and_pay() {
  (( $(date +%s) < END )) || return 0
  local id
  id=$(create_order "$1") || return 0
  echo "$id" > "$WORK/id-$1"
  pay_twice "$id"
}

order_state() {
  curl -sf --max-time 10 "$BASE/orders/$1" | grep -o '"state":"[A-Z_]*"' | cut -d'"' -f4
}
export -f create_order pay_twice create_and_pay order_state

before=$(transitions)
faults '{"target":"primary","failureRate":0.5}'
faults '{"target":"backup"}'
if [[ -n "$DURATION" ]]; then
  echo "primary gateway fails 50% of its calls; orders for ${DURATION}s, $CONCURRENCY at a time, each paid twice at once"
else
  echo "primary gateway fails 50% of its calls; $ORDERS orders, $CONCURRENCY at a time, each paid twice at once"
fi

started=$(date +%s%N)
worker() {
  local order=$1
  while (( order <= ORDERS )) && (( $(date +%s) < END )); do
    create_and_pay "$order"
    order=$((order + CONCURRENCY))
  done
}
for w in $(seq 1 "$CONCURRENCY"); do worker "$w" & done
wait
cat "$WORK"/id-* > "$WORK/ids"
ORDERS=$(wc -l < "$WORK/ids")
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
faults '{"target":"primary"}'

echo "done in ${elapsed_ms}ms: $ORDERS orders, $((ORDERS * 2)) payment requests; primary gateway restored"
echo
echo "HTTP statuses of the payment requests:"
cat "$WORK"/status-* | cut -d' ' -f1 | sort | uniq -c | sed 's/^/  /'
echo "payment request latency (ms):"
cat "$WORK"/status-* | cut -d' ' -f2 | sort -n | awk '{ t[NR] = $1 * 1000 } END {
  printf "  p50 %.1f   p90 %.1f   p99 %.1f   max %.1f   (%d requests)\n", t[int(NR * 0.50) + 1], t[int(NR * 0.90) + 1],
    t[int(NR * 0.99) + 1], t[NR], NR }'
echo "both answers of a pair equal: $(cat "$WORK"/answer-* | grep -c same) of $ORDERS pairs"
echo "replayed answers: $(grep -l '"replayed":true' "$WORK"/pay-* | wc -l)"
echo
echo "payments by final state:"
xargs -P "$CONCURRENCY" -I{} bash -c 'order_state {}' < "$WORK/ids" > "$WORK/states"
sort "$WORK/states" | uniq -c | sed 's/^/  /'
echo "lost orders (paid twice, yet still NEW or PAYMENT_PENDING): $(grep -cE '^(NEW|PAYMENT_PENDING)$' "$WORK/states" || true)"
report=$(curl -sf --max-time 5 "$BASE/simulator/report")
echo "charges per gateway (since start): $(echo "$report" | grep -o '"charges":{[^}]*}' | cut -d: -f2-)"
echo "requests per downstream (since start): $(echo "$report" | grep -o '"requests":{[^}]*}' | cut -d: -f2-)"
echo "orders charged more than once: $(echo "$report" | grep -o '"ordersChargedMoreThanOnce":\[[^]]*\]' | cut -d: -f2)"
echo
echo "payment-gateway breaker transitions during this run (Prometheus counter deltas):"
transitions | awk -v before="$before" '
  BEGIN { n = split(before, lines, "\n"); for (i = 1; i <= n; i++) { split(lines[i], f, " "); seen[f[1]] = f[2] } }
  { delta = $2 - seen[$1]; if (delta > 0) { printf "  %-20s %d\n", $1, delta; any = 1 } }
  END { if (!any) print "  none" }'
echo "payment-gateway breaker now: $(curl -sf --max-time 5 "$BASE/actuator/circuitbreakers/payment-gateway" \
  | grep -o '"state":"[A-Z_]*"' | head -1 | cut -d'"' -f4)"
