/**
 * The MCP side of the Spring layer: what an MCP call carries into the chain.
 */
@NullMarked
package dev.agentmiddleware.spring.mcp;

import org.jspecify.annotations.NullMarked;
