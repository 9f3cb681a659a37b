/**
 * Per-tool timeouts: {@link dev.agentmiddleware.timeout.TimeoutMiddleware} runs a timed
 * tool on a bounded pool of threads, abandons and interrupts an attempt that takes too
 * long, and costs nothing for tools without a timeout.
 */
@NullMarked
package dev.agentmiddleware.timeout;

import org.jspecify.annotations.NullMarked;
