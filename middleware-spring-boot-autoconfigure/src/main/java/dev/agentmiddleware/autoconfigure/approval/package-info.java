/**
 * Auto-configuration of human approval: the approval middleware, its providers (MCP elicitation, a callback bean,
 * the in-app queue with its REST API and console), its store (in memory, or JDBC when a {@code DataSource} is
 * present) and its Spring Security protection.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.approval;

import org.jspecify.annotations.NullMarked;
