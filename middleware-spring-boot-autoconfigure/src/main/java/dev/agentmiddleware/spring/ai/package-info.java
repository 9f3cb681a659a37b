/**
 * The boundary to Spring AI and MCP: every registered tool as a Spring AI {@code ToolCallback}, and failures turned
 * into short, redacted text for the model.
 */
@NullMarked
package dev.agentmiddleware.spring.ai;

import org.jspecify.annotations.NullMarked;
