#!/usr/bin/env bash
# Runs the JMH suite with settings that fit a 2-core machine and writes the results table into README.md.
# Usage: middleware-benchmarks/run-benchmarks.sh [extra JMH arguments, e.g. a benchmark regex]
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -B -q -ntp -pl middleware-benchmarks -am package -DskipTests
jmh=(-f 1 -wi 3 -w 2s -i 5 -r 2s -prof gc -rf json -rff middleware-benchmarks/target/jmh-results.json)
command="middleware-benchmarks/run-benchmarks.sh $*"
java -jar middleware-benchmarks/target/benchmarks.jar "${jmh[@]}" "$@"
# Retained heap is a state, not a rate: a probe outside JMH, its figures added to the same table.
java -Xmx512m -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.SessionMemoryProbe \
	middleware-benchmarks/target/session-memory.properties
java -cp middleware-benchmarks/target/benchmarks.jar dev.agentmiddleware.benchmarks.report.BenchmarkReport \
	middleware-benchmarks/target/jmh-results.json middleware-benchmarks/README.md "$command" \
	middleware-benchmarks/target/session-memory.properties
echo "Results written to middleware-benchmarks/README.md"
