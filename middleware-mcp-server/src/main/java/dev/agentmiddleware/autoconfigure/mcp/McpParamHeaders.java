package dev.agentmiddleware.autoconfigure.mcp;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.function.ServerRequest;

/**
 * The custom headers of MCP {@code 2026-07-28} (SEP-2243): a property of a tool's input
 * schema marked {@code "x-mcp-header": "Region"} is mirrored by the client into the HTTP
 * header {@code Mcp-Param-Region} of a {@code tools/call}, so that what sits in front of
 * the server (a gateway, a load balancer) can route by it without reading the body. The
 * server must then refuse a call whose header and body disagree:
 * <ul>
 * <li>a value in the body needs its header, and a header needs its value in the
 * body;</li>
 * <li>a header value {@code =?base64?...?=} is Base64 (standard alphabet, with its
 * padding) of the UTF-8 value, any other value is the value itself, after trimming;</li>
 * <li>a string must equal the body's, a number equal it as a number, a boolean be
 * {@code true} or {@code false} as in the body.</li>
 * </ul>
 * Header names are matched in any case.
 */
final class McpParamHeaders {

	/** The keyword of an input schema's property that names its header. */
	static final String KEYWORD = "x-mcp-header";

	/** What the name of every custom header starts with. */
	static final String PREFIX = "Mcp-Param-";

	private static final Pattern ENCODED = Pattern.compile("^=\\?base64\\?(.*)\\?=$", Pattern.DOTALL);

	private static final Pattern BASE64 = Pattern
		.compile("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$");

	private McpParamHeaders() {
	}

	/**
	 * What is wrong with the custom headers of a call, if anything.
	 * @param tool the tool called
	 * @param arguments the call's arguments, {@code null} for none
	 * @param request the HTTP request of the call
	 * @return a message for the client that names the tool, the parameter and the header;
	 * {@code null} when every header agrees with the body
	 */
	static @Nullable String mismatch(McpSchema.Tool tool, @Nullable Map<String, Object> arguments,
			ServerRequest request) {
		Map<String, Object> schema = tool.inputSchema();
		if (schema == null || !(schema.get("properties") instanceof Map<?, ?> properties)) {
			return null;
		}
		for (Map.Entry<?, ?> property : properties.entrySet()) {
			if (!(property.getValue() instanceof Map<?, ?> definition)
					|| !(definition.get(KEYWORD) instanceof String suffix)) {
				continue;
			}
			String name = PREFIX + suffix;
			String header = request.headers().firstHeader(name);
			Object value = (arguments != null) ? arguments.get(property.getKey()) : null;
			String problem = problem((header != null) ? header.trim() : null, value);
			if (problem != null) {
				return "Header mismatch: tool '" + tool.name() + "' mirrors parameter '" + property.getKey()
						+ "' into header " + name + ", " + problem;
			}
		}
		return null;
	}

	private static @Nullable String problem(@Nullable String header, @Nullable Object value) {
		if (header == null) {
			return (value != null) ? "which is missing although the body has the parameter" : null;
		}
		if (value == null) {
			return "which is present although the body has no value for the parameter";
		}
		String decoded = decoded(header);
		if (decoded == null) {
			return "whose value is not valid Base64 of UTF-8 text (=?base64?...?= needs the standard alphabet "
					+ "and its padding)";
		}
		return matches(decoded, value) ? null : "whose value differs from the parameter's value in the body";
	}

	// The value a header carries: Base64 of UTF-8 text when wrapped, else the value
	// itself
	private static @Nullable String decoded(String header) {
		Matcher encoded = ENCODED.matcher(header);
		if (!encoded.matches()) {
			return header;
		}
		String base64 = encoded.group(1);
		if (!BASE64.matcher(base64).matches()) {
			return null;
		}
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(Base64.getDecoder().decode(base64)))
				.toString();
		}
		catch (CharacterCodingException | IllegalArgumentException ex) {
			return null;
		}
	}

	private static boolean matches(String decoded, Object value) {
		if (value instanceof String text) {
			return decoded.equals(text);
		}
		if (value instanceof Boolean bool) {
			return decoded.equals(bool.toString());
		}
		if (value instanceof Number number) {
			try {
				return new BigDecimal(decoded.trim()).compareTo(new BigDecimal(number.toString())) == 0;
			}
			catch (NumberFormatException ex) {
				return false;
			}
		}
		// An object or an array has no header form
		return false;
	}

}
