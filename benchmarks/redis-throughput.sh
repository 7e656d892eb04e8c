#!/usr/bin/env bash
# Idempotent calls on the Redis store against redis-benchmark SET on the same server, same run.
# Needs redis-server and redis-benchmark on the PATH (Debian: apt-get install -y redis-server redis-tools)
# and the benchmarks jar (./mvnw -q -B -pl benchmarks -am package -DskipTests).
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-6390}"
threads="${THREADS:-16}"
seconds="${SECONDS_PER_RUN:-10}"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no > /tmp/redis-throughput.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.1; done
set_ops=$(redis-benchmark -p "$port" -t set -c "$threads" -n $((threads * 20000)) --csv | awk -F, '/"SET"/ {gsub(/"/, "", $2); print $2}')
echo "redis-benchmark SET, $threads connections: $set_ops requests/s"
result=$(java -cp benchmarks/target/benchmarks.jar dev.resilience.benchmarks.redis.RedisIdempotencyThroughput \
    --port="$port" --threads="$threads" --seconds="$seconds" | tee /dev/stderr | awk '/^RESULT/')
new_keys=$(echo "$result" | sed -E 's/.*new_keys_per_s=([0-9.]+).*/\1/')
replays=$(echo "$result" | sed -E 's/.*replays_per_s=([0-9.]+).*/\1/')
client_set=$(echo "$result" | sed -E 's/.*client_set_per_s=([0-9.]+).*/\1/')
awk -v set="$set_ops" -v n="$new_keys" -v r="$replays" -v c="$client_set" 'BEGIN {
    printf "new keys: %.0f calls/s = %.2fx of two SET round trips (%.0f/s); target >= 0.8x\n", n, n / (set / 2), set / 2
    printf "replays:  %.0f calls/s = %.2fx of one SET round trip (%.0f/s); target >= 0.8x\n", r, r / set, set
    printf "against the same client'"'"'s own SET (%.0f/s): new keys %.2fx of two, replays %.2fx of one\n", c, n / (c / 2), r / c
}'
