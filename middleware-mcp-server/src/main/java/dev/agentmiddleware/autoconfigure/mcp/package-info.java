/**
 * The MCP server side, with its auto-configuration
 * ({@link dev.agentmiddleware.autoconfigure.mcp.AgentMcpServerAutoConfiguration},
 * settings {@link dev.agentmiddleware.autoconfigure.mcp.McpProperties}): every registered
 * tool published as an MCP tool whose handler
 * ({@link dev.agentmiddleware.autoconfigure.mcp.McpToolHandler}) binds arguments inside
 * the chain; what an MCP call carries into the chain
 * ({@link dev.agentmiddleware.autoconfigure.mcp.McpInvocationAttributes}); and the
 * hardened Streamable HTTP transport
 * ({@link dev.agentmiddleware.autoconfigure.mcp.HardenedStreamableHttpTransport}, its
 * clock {@link dev.agentmiddleware.autoconfigure.mcp.McpTransportClock}) that replaces
 * Spring AI's; and who may call it
 * ({@link dev.agentmiddleware.autoconfigure.mcp.McpSecurityAutoConfiguration}: the
 * endpoint as an OAuth 2.1 resource server).
 * <p>
 * Internals (package-private): {@code McpTransportAutoConfigurationFilter} leaves out
 * Spring AI's Streamable HTTP auto-configuration when ours replaces it and
 * {@code McpServerDefaultsEnvironmentPostProcessor} sets the defaults a new user expects
 * (both loaded from {@code spring.factories}); {@code McpRequestGuard} checks Origin,
 * Host and protocol version; the transport's jobs, which it coordinates:
 * {@code McpRequestValidator} (what a client sends, checked once per request),
 * {@code McpRequestContext} (what the transport knows of a request, the one value it puts
 * in the SDK's transport context), {@code McpSessionRegistry} with
 * {@code InMemoryMcpSessionRegistry} and {@code McpLiveSession} (live sessions, their
 * owner, expiry and cap), {@code McpSessionDispatcher} (a message to its SDK session),
 * {@code McpSseStream} and {@code McpKeepAlive} (response streams and disconnects),
 * {@code JsonRpcErrors} (refusals) and {@code McpChecked} (a value or its refusal);
 * {@code ToolOutputSchema} derives a tool's output schema;
 * {@code McpSyncServerCustomizerPostProcessor} switches the SDK's own argument check off;
 * {@code McpResourceServerSecurity} builds the endpoint's filter chain (bearer token,
 * audience), {@code McpProtectedResourceMetadata} and
 * {@code McpProtectedResourceMetadataFilter} publish the RFC 9728 metadata.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.mcp;

import org.jspecify.annotations.NullMarked;
