package dev.agentmiddleware.autoconfigure.mcp;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The W3C trace context a client sent with an MCP request: {@code traceparent},
 * {@code tracestate} and {@code baggage}, from the request's {@code _meta} (as the MCP
 * specification's SEP-414 puts them) or, where {@code _meta} has none, from the HTTP
 * headers of the POST that carried it (the transport puts those in the
 * {@link McpRequestContext}).
 *
 * <p>
 * Only well-formed values are kept: a {@code traceparent} of version {@code 00} with
 * lowercase hex ids that are not all zeros, a {@code tracestate} of at most 512 and a
 * {@code baggage} of at most 8,192 printable ASCII characters. Anything else is dropped
 * without an error; the debug log says which field was dropped, never its value. A
 * context is the carrier of the call's receiver {@link #observation observation}, which
 * Micrometer Tracing's propagating receiver handler continues.
 */
final class McpTraceContext {

	static final String TRACEPARENT = "traceparent";

	static final String TRACESTATE = "tracestate";

	static final String BAGGAGE = "baggage";

	/** The name of the observation of an MCP request that continues a caller's trace. */
	static final String OBSERVATION_NAME = "mcp.server.operation";

	private static final int MAX_TRACESTATE_LENGTH = 512;

	private static final int MAX_BAGGAGE_LENGTH = 8192;

	private static final Pattern TRACEPARENT_FORMAT = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

	private static final String ZERO_TRACE_ID = "0".repeat(32);

	private static final String ZERO_SPAN_ID = "0".repeat(16);

	private static final Logger logger = LoggerFactory.getLogger(McpTraceContext.class);

	private final Map<String, String> carrier;

	private McpTraceContext(Map<String, String> carrier) {
		this.carrier = Map.copyOf(carrier);
	}

	/**
	 * The trace context in a request's {@code _meta}.
	 * @param meta the request's {@code _meta}, or {@code null}
	 * @return the context, or {@code null} when {@code _meta} has no well-formed
	 * {@code traceparent}
	 */
	static @Nullable McpTraceContext ofMeta(@Nullable Map<String, Object> meta) {
		return (meta != null) ? of(meta::get, "_meta") : null;
	}

	/**
	 * The trace context in the HTTP headers of a request.
	 * @param headers the value of a header by name
	 * @return the context, or {@code null} when there is no well-formed
	 * {@code traceparent} header
	 */
	static @Nullable McpTraceContext ofHeaders(Function<String, @Nullable String> headers) {
		return of(headers::apply, "the HTTP headers");
	}

	private static @Nullable McpTraceContext of(Function<String, @Nullable Object> fields, String where) {
		Object traceparent = fields.apply(TRACEPARENT);
		if (traceparent == null) {
			return null;
		}
		if (!(traceparent instanceof String value) || !isTraceparent(value)) {
			logger.debug("Ignored a malformed traceparent in {} of an MCP request", where);
			return null;
		}
		Map<String, String> carrier = new HashMap<>(4);
		carrier.put(TRACEPARENT, value);
		putIfWellFormed(carrier, TRACESTATE, fields.apply(TRACESTATE), MAX_TRACESTATE_LENGTH, where);
		putIfWellFormed(carrier, BAGGAGE, fields.apply(BAGGAGE), MAX_BAGGAGE_LENGTH, where);
		return new McpTraceContext(carrier);
	}

	private static boolean isTraceparent(String value) {
		return TRACEPARENT_FORMAT.matcher(value).matches() && !value.startsWith(ZERO_TRACE_ID, 3)
				&& !value.startsWith(ZERO_SPAN_ID, 36);
	}

	private static void putIfWellFormed(Map<String, String> carrier, String field, @Nullable Object value,
			int maxLength, String where) {
		if (value == null) {
			return;
		}
		if (value instanceof String text && !text.isBlank() && text.length() <= maxLength && isPrintableAscii(text)) {
			carrier.put(field, text);
		}
		else {
			logger.debug("Ignored a malformed {} in {} of an MCP request", field, where);
		}
	}

	private static boolean isPrintableAscii(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x20 || c > 0x7e) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The trace id of the caller's trace.
	 * @return 32 lowercase hex digits
	 */
	String traceId() {
		return this.carrier.get(TRACEPARENT).substring(3, 35);
	}

	/**
	 * The fields kept, by name.
	 * @return {@code traceparent}, and {@code tracestate} and {@code baggage} if sent and
	 * well-formed
	 */
	Map<String, String> fields() {
		return this.carrier;
	}

	/**
	 * An observation of the MCP request, not started, whose carrier is this context: with
	 * Micrometer Tracing, a server span {@code tools/call <tool>} whose parent is the
	 * caller's span; the tool call's own observation, started in its scope, is its child.
	 * @param toolName the called tool
	 * @param registry the observation registry
	 * @return the observation, named {@value #OBSERVATION_NAME} and tagged
	 * {@code mcp.method.name} and {@code agent.tool.name}
	 */
	Observation observation(String toolName, ObservationRegistry registry) {
		ReceiverContext<Map<String, String>> context = new ReceiverContext<>(Map::get, Kind.SERVER);
		context.setCarrier(this.carrier);
		return Observation.createNotStarted(OBSERVATION_NAME, () -> context, registry)
			.contextualName("tools/call " + toolName)
			.lowCardinalityKeyValue("mcp.method.name", "tools/call")
			.lowCardinalityKeyValue("agent.tool.name", toolName);
	}

	@Override
	public String toString() {
		// Never the values: a log line or exception message must not echo what a client
		// sent
		return "McpTraceContext" + this.carrier.keySet();
	}

}
