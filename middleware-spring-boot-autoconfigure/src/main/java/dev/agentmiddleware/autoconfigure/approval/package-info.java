/**
 * Human approval on Spring, with its auto-configuration: the approval middleware, its providers (MCP elicitation,
 * {@link dev.agentmiddleware.autoconfigure.approval.McpElicitationApprovalProvider}; approval by link, a URL-mode
 * elicitation to the console page of the request,
 * {@link dev.agentmiddleware.autoconfigure.approval.McpUrlElicitationApprovalProvider}; a callback bean; the in-app
 * queue with its REST API and console, {@link dev.agentmiddleware.autoconfigure.approval.ApprovalController}), its
 * store (in memory, or {@link dev.agentmiddleware.autoconfigure.approval.JdbcApprovalStore}, shared by application
 * instances, when a {@code DataSource} is present; on PostgreSQL the package-private {@code PostgresNotifications}
 * wakes waiting calls) and its Spring Security protection. The Spring classes live here, beside the
 * auto-configuration that wires them, as {@code JdbcThreadStore} does in {@code autoconfigure.thread}.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.approval;

import org.jspecify.annotations.NullMarked;
