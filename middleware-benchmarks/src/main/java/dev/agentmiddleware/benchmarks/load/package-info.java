/**
 * A load driver for MCP servers under many concurrent clients, and the servers it
 * compares, each started as a JVM of its own: run on demand, never by the test command.
 */
@NullMarked
package dev.agentmiddleware.benchmarks.load;

import org.jspecify.annotations.NullMarked;
