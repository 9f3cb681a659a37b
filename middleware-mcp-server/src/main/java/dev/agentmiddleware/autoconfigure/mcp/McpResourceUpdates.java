package dev.agentmiddleware.autoconfigure.mcp;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.Assert;

/**
 * Tells MCP clients that a resource changed: sends
 * {@code notifications/resources/updated} to every session that subscribed to the
 * resource ({@code resources/subscribe}), and to no other. Clients may subscribe when
 * {@code agent.middleware.mcp.resources.subscribe} is on; a session stops receiving
 * updates when it unsubscribes ({@code resources/unsubscribe}) or ends. A client of MCP
 * {@code 2026-07-28} gets the update on its {@code subscriptions/listen} stream when its
 * filter names the resource ({@code resourceSubscriptions}). Inject it where the
 * application changes what a resource holds: <pre>{@code
 * &#64;Service
 * public class PriceList {
 *
 *     private final McpResourceUpdates resourceUpdates;
 *
 *     public void change(Price price) {
 *         // ... store the price
 *         this.resourceUpdates.updated("prices://current");
 *     }
 * }
 * }</pre>
 *
 * <p>
 * Subscriptions are kept by the MCP server of each instance, for the sessions it serves:
 * with sessions in a shared database
 * ({@code agent.middleware.mcp.sessions.store.type=jdbc}), call it on the instance that
 * serves the subscribed session; a {@code 2026-07-28} subscription likewise lives in the
 * instance that holds its stream. Thread-safe; sending does not wait for the clients.
 */
public final class McpResourceUpdates {

	private static final Logger logger = LoggerFactory.getLogger(McpResourceUpdates.class);

	private final ObjectProvider<McpSyncServer> syncServer;

	private final ObjectProvider<McpAsyncServer> asyncServer;

	private final ObjectProvider<HardenedStreamableHttpTransport> transport;

	McpResourceUpdates(ObjectProvider<McpSyncServer> syncServer, ObjectProvider<McpAsyncServer> asyncServer,
			ObjectProvider<HardenedStreamableHttpTransport> transport) {
		this.syncServer = syncServer;
		this.asyncServer = asyncServer;
		this.transport = transport;
	}

	/**
	 * Sends {@code notifications/resources/updated} for a resource to the sessions
	 * subscribed to it. Does nothing when no session subscribed, or when no MCP server
	 * runs.
	 * @param uri the resource's URI, as the clients subscribed to it, such as
	 * {@code prices://current}
	 */
	public void updated(String uri) {
		Assert.hasText(uri, "'uri' must not be empty");
		HardenedStreamableHttpTransport transport = this.transport.getIfUnique();
		if (transport != null) {
			transport.resourceUpdated(uri);
		}
		McpSchema.ResourcesUpdatedNotification notification = new McpSchema.ResourcesUpdatedNotification(uri);
		McpSyncServer sync = this.syncServer.getIfUnique();
		McpAsyncServer async = (sync != null) ? sync.getAsyncServer() : this.asyncServer.getIfUnique();
		if (async == null) {
			logger.debug("Resource {} updated, but no MCP server runs", uri);
			return;
		}
		logger.debug("Resource {} updated: notifying its subscribers", uri);
		async.notifyResourcesUpdated(notification)
			.subscribe(null,
					(ex) -> logger.warn("Could not notify the subscribers of resource {}: {}", uri, ex.toString()));
	}

}
