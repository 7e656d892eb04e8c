#!/usr/bin/env bash
# Checks the alert rules and runs their unit tests with promtool:
#   docs/prometheus/test-rules.sh
# Installs promtool (Debian package prometheus) when it is missing and apt-get can.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v promtool > /dev/null; then
  if command -v apt-get > /dev/null && [[ $(id -u) -eq 0 ]]; then
    echo "promtool not found: installing the Debian package prometheus" >&2
    apt-get install -y --no-install-recommends prometheus > /dev/null \
      || { apt-get update > /dev/null && apt-get install -y --no-install-recommends prometheus > /dev/null; }
  else
    echo "promtool not found: install Prometheus (Debian: apt-get install prometheus)" >&2
    exit 1
  fi
fi
promtool --version | head -1
promtool check rules resilience-alerts.yml
promtool test rules resilience-alerts-test.yml
