/**
 * Human approval on Spring, with its auto-configuration: the approval middleware, its
 * rules and per-tool settings, the providers in the order
 * {@code agent.middleware.approval.providers} gives ({@link ApprovalProviders}), a
 * callback bean's provider, and the in-memory store. Other modules contribute the rest as
 * beans: the JDBC store module a store shared by application instances, the approval web
 * module the in-app queue with its REST API, console and security, the MCP server module
 * approval by MCP elicitation and by link.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.approval;

import org.jspecify.annotations.NullMarked;
