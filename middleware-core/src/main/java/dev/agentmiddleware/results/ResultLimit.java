package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agentmiddleware.results.ToolResultGuard.ResultContent;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The size limit of one tool's results: measures a result as the caller reads it (a
 * text's length, a tree's JSON text's length) and cuts a longer one with a marker: a text
 * at the limit, a tree (or a text that is a JSON object or array) in its longest strings,
 * so that it stays valid JSON.
 */
final class ResultLimit {

	// Strings no longer than this are not worth cutting: the marker would be longer than
	// what it saves.
	private static final int SHORTEST_CUT = 160;

	private final int maxChars;

	private final JsonMapper jsonMapper;

	ResultLimit(int maxChars, JsonMapper jsonMapper) {
		this.maxChars = maxChars;
		this.jsonMapper = jsonMapper;
	}

	boolean exceededBy(ResultContent content) {
		return length(content) > this.maxChars;
	}

	String refusal(ResultContent content) {
		return String.format(Locale.ROOT, "its result has %,d characters, more than its limit of %,d", length(content),
				this.maxChars);
	}

	/**
	 * The content cut to the limit.
	 * @return the cut content, or {@code null} when a tree cannot be cut to the limit
	 * without cutting its structure
	 */
	@Nullable ResultContent cut(ResultContent content) {
		if (!content.isText()) {
			JsonNode cut = cutTree(content.json(), length(content));
			return (cut != null) ? content.withJson(cut) : null;
		}
		String text = content.text();
		JsonNode tree = jsonText(text);
		if (tree != null) {
			JsonNode cut = cutTree(tree, this.jsonMapper.writeValueAsString(tree).length());
			return (cut != null) ? content.withText(this.jsonMapper.writeValueAsString(cut)) : null;
		}
		return content.withText(cutText(text, this.maxChars));
	}

	private int length(ResultContent content) {
		return content.isText() ? content.text().length() : this.jsonMapper.writeValueAsString(content.json()).length();
	}

	/**
	 * The text cut to {@code room} characters, the marker included, which names the
	 * tool's limit.
	 */
	String cutText(String text, int room) {
		// The marker for everything left out is at least as long as the one for what is
		// actually left out.
		int kept = Math.max(0, room - marker(text.length()).length());
		if (kept > 0 && Character.isHighSurrogate(text.charAt(kept - 1))) {
			kept--;
		}
		return text.substring(0, kept) + marker(text.length() - kept);
	}

	private String marker(int leftOut) {
		return String.format(Locale.ROOT,
				"… [cut: %,d more characters; the tool's result is longer than its limit of %,d characters]", leftOut,
				this.maxChars);
	}

	private @Nullable JsonNode jsonText(String text) {
		String trimmed = text.strip();
		if (trimmed.isEmpty() || (trimmed.charAt(0) != '{' && trimmed.charAt(0) != '[')) {
			return null;
		}
		try {
			JsonNode tree = this.jsonMapper.readTree(trimmed);
			return (tree != null && tree.isContainer()) ? tree : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/**
	 * Cuts the longest strings of a tree until its JSON text fits, without writing it
	 * again after each cut.
	 */
	private @Nullable JsonNode cutTree(JsonNode original, int length) {
		if (original.isString()) {
			String text = original.stringValue();
			// The quotes (and any escapes) are the rest of the length
			int room = this.maxChars - (length - text.length());
			return (room > 0) ? StringNode.valueOf(cutText(text, room)) : null;
		}
		JsonNode tree = original.deepCopy();
		List<Slot> slots = new ArrayList<>();
		collect(tree, slots);
		slots.sort(Comparator.comparingInt(Slot::length).reversed());
		int excess = length - this.maxChars;
		for (Slot slot : slots) {
			if (excess <= 0) {
				break;
			}
			String text = slot.text();
			if (text.length() <= SHORTEST_CUT) {
				return null;
			}
			int before = jsonLength(text);
			int target = before - excess;
			// Escapes (\n, \") make the JSON longer than the text: start from the text's
			// share of the target, then
			// shorten by what is still over, a few times at most.
			int room = (int) Math.max(0, (long) target * text.length() / before);
			String cut = cutText(text, room);
			for (int attempt = 0; attempt < 4 && room > 0 && jsonLength(cut) > target; attempt++) {
				room = Math.max(0, room - (jsonLength(cut) - target));
				cut = cutText(text, room);
			}
			slot.set(cut);
			excess -= before - jsonLength(cut);
		}
		return (excess <= 0) ? tree : null;
	}

	private int jsonLength(String text) {
		return this.jsonMapper.writeValueAsString(text).length();
	}

	private static void collect(JsonNode node, List<Slot> slots) {
		if (node instanceof ObjectNode object) {
			for (Map.Entry<String, JsonNode> field : object.properties()) {
				if (field.getValue().isString()) {
					slots.add(new Slot(object, field.getKey(), -1, field.getValue().stringValue()));
				}
				else {
					collect(field.getValue(), slots);
				}
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				if (array.get(i).isString()) {
					slots.add(new Slot(array, null, i, array.get(i).stringValue()));
				}
				else {
					collect(array.get(i), slots);
				}
			}
		}
	}

	/**
	 * Where one string of a tree is.
	 */
	private record Slot(JsonNode parent, @Nullable String field, int index, String text) {

		int length() {
			return this.text.length();
		}

		void set(String replacement) {
			if (this.parent instanceof ObjectNode object && this.field != null) {
				object.set(this.field, StringNode.valueOf(replacement));
			}
			else if (this.parent instanceof ArrayNode array) {
				array.set(this.index, StringNode.valueOf(replacement));
			}
		}

	}

}
