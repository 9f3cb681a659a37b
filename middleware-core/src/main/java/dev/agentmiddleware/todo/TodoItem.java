package dev.agentmiddleware.todo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One item of a todo list.
 * <pre>{@code
 * TodoItem item = new TodoItem("1", "Read the config file", TodoStatus.PENDING);
 * }</pre>
 *
 * @param id the item's id, unique within the list
 * @param text what to do
 * @param status how far it is
 */
public record TodoItem(String id, String text, TodoStatus status) {

	/**
	 * Validates the components.
	 */
	public TodoItem {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(text, "text");
		Objects.requireNonNull(status, "status");
	}

	/**
	 * The item as stored in the thread metadata and shown to the model.
	 * @return {@code {id, text, status}}
	 */
	public Map<String, Object> toJson() {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("id", this.id);
		json.put("text", this.text);
		json.put("status", this.status.json());
		return json;
	}

}
