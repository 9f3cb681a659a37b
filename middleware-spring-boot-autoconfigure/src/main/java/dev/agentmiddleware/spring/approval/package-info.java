/**
 * The Spring side of human approval: the approval queue's REST API and web console, the JDBC approval store
 * shared by application instances, and the MCP elicitation provider.
 */
@NullMarked
package dev.agentmiddleware.spring.approval;

import org.jspecify.annotations.NullMarked;
