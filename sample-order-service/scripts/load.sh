#!/usr/bin/env bash
# Drives the running sample with a bounded load and prints what happened.
#
#   scripts/load.sh [orders] [concurrency]      (defaults: 200 orders, 8 at a time)
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
if ! [[ "$ORDERS" =~ ^[0-9]+$ && "$ORDERS" -ge 1 && "$ORDERS" -le 10000 ]]; then
  echo "orders must be between 1 and 10000" >&2; exit 2
fi
if ! [[ "$CONCURRENCY" =~ ^[0-9]+$ && "$CONCURRENCY" -ge 1 && "$CONCURRENCY" -le 64 ]]; then
  echo "concurrency must be between 1 and 64" >&2; exit 2
fi
curl -sf --max-time 5 "$BASE/actuator/health" > /dev/null || { echo "No application at $BASE" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export BASE WORK RUN=$(date +%s)

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
  local id=$1 key="load-$RUN-$1"
  for n in 1 2; do
    curl -s --max-time 30 -o "$WORK/pay-$id-$n" -w '%{http_code}\n' -X POST "$BASE/orders/$id/payment" \
      -H "Idempotency-Key: $key" > "$WORK/status-$id-$n" &
  done
  wait
  local a b
  a=$(sed -E 's/"(replayed|attempts|fallback|outcome|deadLetterId|error)":[^,}]*,?//g' "$WORK/pay-$id-1")
  b=$(sed -E 's/"(replayed|attempts|fallback|outcome|deadLetterId|error)":[^,}]*,?//g' "$WORK/pay-$id-2")
  if [[ "$a" == "$b" ]]; then echo same > "$WORK/answer-$id"; else echo different > "$WORK/answer-$id"; fi
}

order_state() {
  curl -sf --max-time 10 "$BASE/orders/$1" | grep -o '"state":"[A-Z_]*"' | cut -d'"' -f4
}
export -f create_order pay_twice order_state

before=$(transitions)
faults '{"target":"primary","failureRate":0.5}'
faults '{"target":"backup"}'
echo "primary gateway fails 50% of its calls; $ORDERS orders, $CONCURRENCY at a time, each paid twice at once"

started=$(date +%s%N)
seq 1 "$ORDERS" | xargs -P "$CONCURRENCY" -I{} bash -c 'create_order {}' > "$WORK/ids"
xargs -P "$CONCURRENCY" -I{} bash -c 'pay_twice {}' < "$WORK/ids"
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
faults '{"target":"primary"}'

echo "done in ${elapsed_ms}ms ($((ORDERS * 2)) payment requests); primary gateway restored"
echo
echo "HTTP statuses of the payment requests:"
cat "$WORK"/status-* | sort | uniq -c | sed 's/^/  /'
echo "both answers of a pair equal: $(cat "$WORK"/answer-* | grep -c same) of $ORDERS pairs"
echo "replayed answers: $(grep -l '"replayed":true' "$WORK"/pay-* | wc -l)"
echo
echo "payments by final state:"
xargs -P "$CONCURRENCY" -I{} bash -c 'order_state {}' < "$WORK/ids" | sort | uniq -c | sed 's/^/  /'
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
