#!/usr/bin/env bash
# The one-shot `create-topics` service of docker-compose.yml: creates Baton's topics on the compose
# broker before the services start. Belt and braces: every service also creates the topics it uses
# at start (libs/kafka/src/create-topics.ts), with the same names and configs as here. Idempotent: a
# topic that exists is left as it is, so `docker compose up` can run it again.
#
# Environment: KAFKA_BOOTSTRAP (kafka:9092), BATON_TOPIC_PREFIX (baton), BATON_PARTITIONS (6),
# BATON_REPLICATION_FACTOR (1), BATON_AGENT_IDS (space-separated agent ids, required),
# BATON_TOPIC_CONCURRENCY (4: kafka-topics.sh runs a JVM each time, so a few run at once).
set -euo pipefail

bootstrap="${KAFKA_BOOTSTRAP:-kafka:9092}"
prefix="${BATON_TOPIC_PREFIX:-baton}"
partitions="${BATON_PARTITIONS:-6}"
replication="${BATON_REPLICATION_FACTOR:-1}"
concurrency="${BATON_TOPIC_CONCURRENCY:-4}"
read -r -a agents <<<"${BATON_AGENT_IDS:?BATON_AGENT_IDS must list the agents whose inboxes and control topics to create}"
topics_sh="${KAFKA_HOME:-/opt/kafka}/bin/kafka-topics.sh"
# Processed message ids are kept 7 days, compacted then deleted (DEFAULT_DEDUPE_RETENTION_MS).
dedupe_retention_ms=604800000

# Each spec: a topic name, then its configs.
specs=()
consumed() {
  specs+=("$1" "$1.dlq" "$1.processed cleanup.policy=compact,delete retention.ms=$dedupe_retention_ms")
}
consumed "$prefix.handoffs.inbound"
# Each agent reads its inbox and its control topic (negotiated handoffs' lifecycle messages) exactly once.
for agent in "${agents[@]}"; do
  consumed "$prefix.agent.$agent.inbox"
  consumed "$prefix.agent.$agent.control"
done
specs+=(
  "$prefix.contexts"
  "$prefix.events"
  "$prefix.ledger"
  "$prefix.user.replies"
  "$prefix.audit retention.ms=-1"
  "$prefix.agent.human_agent.pending cleanup.policy=compact"
  "$prefix.agent.planner_agent.workflows cleanup.policy=compact"
  "$prefix.agents cleanup.policy=compact,delete retention.ms=604800000 segment.ms=3600000"
)

create() {
  local topic=$1
  shift
  local args=(--bootstrap-server "$bootstrap" --create --if-not-exists --topic "$topic"
    --partitions "$partitions" --replication-factor "$replication")
  local config output
  for config in "$@"; do args+=(--config "$config"); done
  if output=$("$topics_sh" "${args[@]}" 2>&1); then
    echo "topic $topic ready"
    return 0
  fi
  # A service starting at the same time may have created it in between.
  if "$topics_sh" --bootstrap-server "$bootstrap" --describe --topic "$topic" >/dev/null 2>&1; then
    echo "topic $topic ready (created concurrently)"
    return 0
  fi
  echo "topic $topic could not be created: $output" >&2
  return 1
}

failed=0
pids=()
for spec in "${specs[@]}"; do
  # shellcheck disable=SC2086 # a spec is split into the name and its configs on purpose
  create $spec &
  pids+=($!)
  if ((${#pids[@]} >= concurrency)); then
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    pids=()
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
if ((failed)); then
  echo "some topics could not be created" >&2
  exit 1
fi
echo "all ${#specs[@]} topics ready"
