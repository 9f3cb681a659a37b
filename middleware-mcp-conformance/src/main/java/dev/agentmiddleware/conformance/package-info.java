/**
 * The MCP conformance suite's server: a Boot application written only with the public
 * API.
 */
@NullMarked
package dev.agentmiddleware.conformance;

import org.jspecify.annotations.NullMarked;
