/**
 * Plumbing that the auto-configurations share: tool names and their canonical form
 * ({@code ToolNames}), the "did you mean …?" of configuration errors
 * ({@code NameSuggestions}), the caller's identity as a tool principal
 * ({@code ToolPrincipals}, and {@code McpPrincipals} for the MCP transport context), the
 * text of a tool's result ({@code ToolResultText}), and what the starter's filter chains
 * require of a bearer token ({@code BearerTokenRequirements}).
 * <p>
 * <strong>Not API.</strong> These types are public only so that the packages and modules
 * of Agent Tool Middleware can use them (OkHttp's {@code okhttp3.internal} rule): they
 * may change or go in any release, and no public type outside an {@code internal} package
 * exposes them (an ArchUnit rule checks it). Do not name them in application code.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.internal;

import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;

import org.jspecify.annotations.NullMarked;
