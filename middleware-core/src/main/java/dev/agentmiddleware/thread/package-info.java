/**
 * Thread metadata: a JSON-friendly map per thread (a conversation or an MCP session)
 * behind the {@link dev.agentmiddleware.thread.ThreadStore} SPI, updated atomically per
 * thread.
 */
@NullMarked
package dev.agentmiddleware.thread;

import org.jspecify.annotations.NullMarked;
