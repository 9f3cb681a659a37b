/**
 * A runnable MCP tool server that shows the agent tool middleware starter at work.
 */
@NullMarked
package dev.agentmiddleware.sample;

import org.jspecify.annotations.NullMarked;
