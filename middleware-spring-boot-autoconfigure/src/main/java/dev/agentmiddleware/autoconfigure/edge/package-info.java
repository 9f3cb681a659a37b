/**
 * The edge guard: the {@code Host} and {@code Origin} checks of everything the starter
 * serves over HTTP (the MCP endpoint, the {@code agentmiddleware} actuator endpoint, the
 * approval API and console, and paths an application adds), configured once under
 * {@code agent.middleware.edge}.
 * {@link dev.agentmiddleware.autoconfigure.edge.HostOriginGuard} decides; the MCP
 * transport asks it for {@code /mcp}, and a servlet filter registered by
 * {@link dev.agentmiddleware.autoconfigure.edge.EdgeGuardAutoConfiguration} asks it for
 * the other paths.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.edge;

import org.jspecify.annotations.NullMarked;
