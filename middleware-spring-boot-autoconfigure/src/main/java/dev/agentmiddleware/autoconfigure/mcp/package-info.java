/**
 * Auto-configuration of the MCP server side: tool specifications built from our tools, governed Spring AI tools,
 * the hardened Streamable HTTP transport and its defaults; properties under {@code agent.middleware.mcp}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.mcp;

import org.jspecify.annotations.NullMarked;
