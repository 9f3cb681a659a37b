package dev.agentmiddleware.results;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.agentmiddleware.results.PersonalDataDetector.Match;
import dev.agentmiddleware.results.ToolResultGuard.ResultContent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Masks the personal data of one tool's results with the detectors its policy names: in a
 * text, and in every string value of a tree (not its keys, numbers or booleans). Where
 * finds overlap, the longest is masked (an IBAN, not the phone number a run of its digits
 * also is).
 */
final class PersonalDataMasking {

	private static final Comparator<Found> LONGEST_FIRST = Comparator.comparingInt(Found::length)
		.reversed()
		.thenComparingInt(Found::start);

	private final List<PersonalDataDetector> detectors;

	PersonalDataMasking(List<PersonalDataDetector> detectors) {
		this.detectors = List.copyOf(detectors);
	}

	/**
	 * The text with its personal data masked.
	 * @param text the text
	 * @param masked told the kind of each find masked
	 * @return the masked text; the same text when it holds none
	 */
	String mask(String text, Consumer<String> masked) {
		List<Found> found = null;
		for (PersonalDataDetector detector : this.detectors) {
			for (Match match : detector.find(text)) {
				if (match.end() > text.length()) {
					throw new IllegalStateException("PersonalDataDetector " + detector.kind() + " found " + match
							+ " in a text of " + text.length() + " characters");
				}
				if (found == null) {
					found = new ArrayList<>(4);
				}
				found.add(new Found(match.start(), match.end(), detector));
			}
		}
		if (found == null) {
			return text;
		}
		List<Found> kept = new ArrayList<>(found.size());
		found.sort(LONGEST_FIRST);
		for (Found candidate : found) {
			if (kept.stream().noneMatch(candidate::overlaps)) {
				kept.add(candidate);
			}
		}
		kept.sort(Comparator.comparingInt(Found::start));
		StringBuilder result = new StringBuilder(text.length());
		int copied = 0;
		for (Found one : kept) {
			result.append(text, copied, one.start())
				.append(one.detector().mask(text.substring(one.start(), one.end())));
			copied = one.end();
			masked.accept(one.detector().kind());
		}
		return result.append(text, copied, text.length()).toString();
	}

	/**
	 * The content with its personal data masked.
	 * @param content a text or a tree
	 * @param masked told the kind of each find masked
	 * @return the masked content; the same content when it holds none
	 */
	ResultContent mask(ResultContent content, Consumer<String> masked) {
		if (content.isText()) {
			String text = content.text();
			String result = mask(text, masked);
			return result.equals(text) ? content : content.withText(result);
		}
		JsonNode original = content.json();
		if (original.isString()) {
			String text = original.stringValue();
			String result = mask(text, masked);
			return result.equals(text) ? content : content.withJson(StringNode.valueOf(result));
		}
		JsonNode copy = original.deepCopy();
		maskTree(copy, masked);
		return copy.equals(original) ? content : content.withJson(copy);
	}

	private void maskTree(JsonNode node, Consumer<String> masked) {
		if (node instanceof ObjectNode object) {
			for (Map.Entry<String, JsonNode> field : object.properties()) {
				JsonNode value = field.getValue();
				if (value.isString()) {
					field.setValue(maskedString(value, masked));
				}
				else {
					maskTree(value, masked);
				}
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				JsonNode value = array.get(i);
				if (value.isString()) {
					array.set(i, maskedString(value, masked));
				}
				else {
					maskTree(value, masked);
				}
			}
		}
	}

	private JsonNode maskedString(JsonNode value, Consumer<String> masked) {
		String text = value.stringValue();
		String result = mask(text, masked);
		return result.equals(text) ? value : StringNode.valueOf(result);
	}

	private record Found(int start, int end, PersonalDataDetector detector) {

		int length() {
			return this.end - this.start;
		}

		boolean overlaps(Found other) {
			return this.start < other.end && other.start < this.end;
		}

	}

}
