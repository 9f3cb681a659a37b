#!/usr/bin/env bash
# Runs the load comparison (LoadDriver): our governed MCP server against Spring AI's, each a JVM of its own, many
# clients at once, in alternating rounds; then McpRoundTripBenchmark in the same session, so that its ratio is
# comparable. Writes middleware-benchmarks/target/load-results.md and the servers' logs next to it.
# Usage: middleware-benchmarks/run-load.sh [--clients=50 --warmup=10 --measure=20 --rounds=3 --shapes=v2,steady[,stateless]
#        --servers=ungoverned,governed,governed-jdbc,governed-pg-rate-limit --jfr=<server>[,<server>] ...]
# Environment: LOAD_DRIVER_JAVA (a JDK 21+ gives the clients virtual threads), LOAD_SERVER_JAVA (the servers' JVM,
# default the driver's), SKIP_BUILD=1 to reuse the jar, SKIP_ROUND_TRIP=1 to leave out the JMH round trip.
# The governed-jdbc and governed-pg-rate-limit servers need PostgreSQL (default 127.0.0.1:5432, database, user and
# password agentmw; --postgres-url, --postgres-user, --postgres-password); each gets a fresh schema, dropped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
	./mvnw -B -q -ntp -pl middleware-benchmarks -am package -DskipTests
fi
driver_java="${LOAD_DRIVER_JAVA:-java}"
server_java="${LOAD_SERVER_JAVA:-$(command -v java)}"
jar="$PWD/middleware-benchmarks/target/benchmarks.jar"
cd middleware-benchmarks/target
echo "load average before: $(cat /proc/loadavg)"
"$driver_java" -cp "$jar" dev.agentmiddleware.benchmarks.load.LoadDriver --server-java="$server_java" \
	--out=load-results.md "$@"
echo "load average after the load run: $(cat /proc/loadavg)"
if [[ "${SKIP_ROUND_TRIP:-}" != 1 ]]; then
	"$server_java" -jar "$jar" McpRoundTripBenchmark -f 1 -wi 3 -w 2s -i 5 -r 2s | tee round-trip.txt | tail -n 12
	echo "load average after the round trip: $(cat /proc/loadavg)"
fi
echo "Tables written to middleware-benchmarks/target/load-results.md"
