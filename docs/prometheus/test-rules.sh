#!/usr/bin/env bash
# Checks the alert rules and runs their unit tests with promtool (resilience-alerts-test.yml,
# samples at the evaluations; resilience-alerts-missed-scrape-test.yml, scrapes out of phase
# with them and scrapes lost):
#   docs/prometheus/test-rules.sh
# Installs promtool (Debian package prometheus) when it is missing and apt-get can.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v promtool > /dev/null; then
  SUDO=
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  if command -v apt-get > /dev/null && { [[ -z "$SUDO" ]] || command -v sudo > /dev/null; }; then
    echo "promtool not found: installing the Debian package prometheus" >&2
    $SUDO apt-get install -y --no-install-recommends prometheus > /dev/null \
      || { $SUDO apt-get update > /dev/null && $SUDO apt-get install -y --no-install-recommends prometheus > /dev/null; }
  else
    echo "promtool not found: install Prometheus (Debian: apt-get install prometheus)" >&2
    exit 1
  fi
fi
promtool --version | head -1
promtool check rules resilience-alerts.yml
promtool test rules resilience-alerts-test.yml resilience-alerts-missed-scrape-test.yml
