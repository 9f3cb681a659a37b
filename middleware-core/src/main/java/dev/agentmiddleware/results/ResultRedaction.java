package dev.agentmiddleware.results;

import java.util.Map;

import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.results.ToolResultGuard.ResultContent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Redacts the secrets of a result: {@link SecretRedactor#redactText(String)} on a text
 * and on every string of a tree, and the whole value of every secret-named field of a
 * tree.
 */
final class ResultRedaction {

	private static final StringNode REDACTED = StringNode.valueOf(SecretRedactor.REDACTED);

	private ResultRedaction() {
	}

	static ResultContent redact(SecretRedactor redactor, ResultContent content) {
		if (content.isText()) {
			return content.withText(redactor.redactText(content.text()));
		}
		JsonNode original = content.json();
		if (original.isString()) {
			String redacted = redactor.redactText(original.stringValue());
			return redacted.equals(original.stringValue()) ? content : content.withJson(StringNode.valueOf(redacted));
		}
		JsonNode copy = original.deepCopy();
		redactTree(redactor, copy);
		return copy.equals(original) ? content : content.withJson(copy);
	}

	private static void redactTree(SecretRedactor redactor, JsonNode node) {
		if (node instanceof ObjectNode object) {
			for (Map.Entry<String, JsonNode> field : object.properties()) {
				JsonNode value = field.getValue();
				if (!value.isNull() && !value.isMissingNode() && redactor.isSecretKey(field.getKey())) {
					field.setValue(REDACTED);
				}
				else if (value.isString()) {
					field.setValue(redactedString(redactor, value));
				}
				else {
					redactTree(redactor, value);
				}
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				JsonNode value = array.get(i);
				if (value.isString()) {
					array.set(i, redactedString(redactor, value));
				}
				else {
					redactTree(redactor, value);
				}
			}
		}
	}

	private static JsonNode redactedString(SecretRedactor redactor, JsonNode value) {
		String text = value.stringValue();
		String redacted = redactor.redactText(text);
		return redacted.equals(text) ? value : StringNode.valueOf(redacted);
	}

}
