package dev.agentmiddleware.autoconfigure.mcp;

import java.math.BigDecimal;
import java.util.Map;

import dev.agentmiddleware.chain.CallCancellation;
import dev.agentmiddleware.tool.SessionFingerprint;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's {@code notifications/cancelled} (params {@code requestId}, optional
 * {@code reason}), which the MCP Java SDK drops: the request of that session still being
 * answered on this instance is cancelled through the chain ({@link CallCancellation}: an
 * approval wait withdraws its request, a timeout or retry stops, an interruptible tool is
 * interrupted; the call is counted {@code cancelled}), and its stream is closed without a
 * response, as the MCP specification asks. A notification naming no such request
 * (unknown, finished, another session's, or being answered by another instance) is
 * ignored at DEBUG. Only the session that sent a request can cancel it: requests are
 * looked up among the session's own. <pre>{@code
 * if (McpRequestCancellations.isCancellation(notification)) {
 *     McpRequestCancellations.cancel(live, notification);
 * }
 * }</pre>
 */
final class McpRequestCancellations {

	private static final String METHOD = "notifications/cancelled";

	private static final int MAX_REASON_LENGTH = 200;

	// The transport's log category, which operators configure for all of it
	private static final Logger logger = LoggerFactory.getLogger(HardenedStreamableHttpTransport.class);

	private McpRequestCancellations() {
	}

	static boolean isCancellation(McpSchema.JSONRPCNotification notification) {
		return METHOD.equals(notification.method());
	}

	/**
	 * The key of a JSON-RPC request id: the number {@code 7} and the string {@code "7"}
	 * are different ids.
	 * @param id the id of a request, or the {@code requestId} of a cancellation
	 * @return the key, or {@code null} for no usable id
	 */
	static @Nullable String key(@Nullable Object id) {
		if (id instanceof String text) {
			return "s:" + text;
		}
		if (id instanceof Integer || id instanceof Long) {
			// The usual id: its digits are its plain decimal form, without parsing it
			return "n:" + ((Number) id).longValue();
		}
		if (id instanceof Number number) {
			try {
				return "n:" + new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}
		return null;
	}

	/**
	 * Cancels the request a {@code notifications/cancelled} names, if the session's
	 * request is being answered here.
	 * @param live the session that sent the notification
	 * @param notification the notification
	 */
	static void cancel(McpLiveSession live, McpSchema.JSONRPCNotification notification) {
		Object params = notification.params();
		Object requestId = (params instanceof Map<?, ?> map) ? map.get("requestId") : null;
		String key = key(requestId);
		McpSseStream stream = (key != null) ? live.call(key) : null;
		if (stream == null) {
			logger.debug("MCP notifications/cancelled of session {} ignored: it names no request in flight here",
					SessionFingerprint.of(live.id()));
			return;
		}
		String reason = reason((params instanceof Map<?, ?> map) ? map.get("reason") : null);
		if (stream.cancel("the client cancelled the request" + ((reason != null) ? ": " + reason : ""))) {
			logger.debug("MCP request of session {} cancelled by its client", SessionFingerprint.of(live.id()));
		}
	}

	// The client's reason, as one printable line of at most 200 characters: it reaches
	// the audit trail and logs
	private static @Nullable String reason(@Nullable Object reason) {
		if (!(reason instanceof String text)) {
			return null;
		}
		String line = text.replaceAll("\\p{Cntrl}+", " ").strip();
		if (line.isEmpty()) {
			return null;
		}
		return (line.length() <= MAX_REASON_LENGTH) ? line : line.substring(0, MAX_REASON_LENGTH - 1) + "…";
	}

}
