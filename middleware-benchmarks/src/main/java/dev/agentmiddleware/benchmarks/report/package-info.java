/**
 * Turns JMH's JSON results into the table of results, ratios and targets in the
 * benchmarks README.
 */
@NullMarked
package dev.agentmiddleware.benchmarks.report;

import org.jspecify.annotations.NullMarked;
