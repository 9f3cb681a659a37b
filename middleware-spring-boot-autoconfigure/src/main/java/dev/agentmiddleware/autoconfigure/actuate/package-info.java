/**
 * The {@code agentmiddleware} actuator endpoint: every tool with its descriptor and
 * chain, and the sections that features contribute through
 * {@link dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
