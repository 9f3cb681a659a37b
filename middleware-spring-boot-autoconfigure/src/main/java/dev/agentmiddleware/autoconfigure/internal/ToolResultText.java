package dev.agentmiddleware.autoconfigure.internal;

import dev.agentmiddleware.tool.ToolContents;
import dev.agentmiddleware.tool.ToolDescriptor;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The text a model or an MCP client reads for a tool's result: strings as they are,
 * {@code Done} for a {@code void} tool, {@code null} for no value, a rich result as
 * {@link ToolContents#text()} (its texts, and its binary parts described by type and
 * size, never their data), anything else as JSON. The result it is given has already
 * passed the tool's result guards
 * ({@link dev.agentmiddleware.results.ResultGuardMiddleware}, inside the chain), which
 * work on this same form, so the text it makes is redacted and within the tool's limit.
 * <pre>{@code
 * ToolResultText.of(tool.descriptor(), forecast, jsonMapper);   // {"city":"Lisbon","celsius":21}
 * }</pre>
 */
public final class ToolResultText {

	private static final String VOID_RESULT = "Done";

	private ToolResultText() {
	}

	/**
	 * Converts a result to text.
	 * @param tool the tool that returned it
	 * @param result the result
	 * @param jsonMapper writes results that are not text as JSON
	 * @return the text
	 */
	public static String of(ToolDescriptor tool, @Nullable Object result, JsonMapper jsonMapper) {
		if (result == null) {
			return (tool.resultType() == void.class) ? VOID_RESULT : "null";
		}
		if (result instanceof CharSequence text) {
			return text.toString();
		}
		if (result instanceof ToolContents contents) {
			return contents.text();
		}
		return jsonMapper.writeValueAsString(result);
	}

}
