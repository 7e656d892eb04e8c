#!/usr/bin/env bash
# Idempotent calls on the Redis store against redis-benchmark SET on the same server, same rounds;
# MODE=ratelimiter: permits of the Redis rate limiter against redis-benchmark EVALSHA (its own script) and SET.
# Needs redis-server and redis-benchmark on the PATH (Debian: apt-get install -y redis-server redis-tools)
# and the benchmarks jar (./mvnw -q -B -pl benchmarks -am package -DskipTests).
# SEPARATE_CPUS=1 pins the server to CPU 1 and the client side (the JVM and redis-benchmark) to CPU 0,
# as if they ran on two machines.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-6390}"
server_cpu=()
client_cpu=()
if [[ "${SEPARATE_CPUS:-0}" == 1 ]]; then
    server_cpu=(taskset -c 1)
    client_cpu=(taskset -c 0)
fi
if redis-cli -p "$port" ping > /dev/null 2>&1; then
    echo "Port $port already has a Redis server; stop it or choose another with PORT=" >&2
    exit 1
fi
${server_cpu[@]+"${server_cpu[@]}"} redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no > /tmp/redis-throughput.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.1; done
redis-server --version
case "${MODE:-idempotency}" in
    idempotency) harness=RedisIdempotencyThroughput ;;
    ratelimiter) harness=RedisRateLimiterThroughput ;;
    *) echo "MODE must be idempotency or ratelimiter, was ${MODE}" >&2; exit 1 ;;
esac
${client_cpu[@]+"${client_cpu[@]}"} java -cp benchmarks/target/benchmarks.jar "dev.resilience.benchmarks.redis.$harness" \
    --port="$port" --threads="${THREADS:-16}" --seconds="${SECONDS_PER_RUN:-10}" --rounds="${ROUNDS:-3}" \
    --redis-benchmark="$(command -v redis-benchmark)"
