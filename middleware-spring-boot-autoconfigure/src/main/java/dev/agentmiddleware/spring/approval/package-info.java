/**
 * The Spring side of human approval: the approval queue's REST API and web console, the JDBC approval store
 * shared by application instances (woken by {@code PostgresNotifications}, package-private, on PostgreSQL), and the
 * MCP elicitation provider. They are public API that applications also create or replace; their beans are wired
 * by {@code dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration} together with the approval
 * middleware, because the stores and providers are conditional on one another.
 */
@NullMarked
package dev.agentmiddleware.spring.approval;

import org.jspecify.annotations.NullMarked;
