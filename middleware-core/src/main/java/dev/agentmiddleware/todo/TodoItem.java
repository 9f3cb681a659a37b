package dev.agentmiddleware.todo;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One item of a todo list. <pre>{@code
 * TodoItem item = new TodoItem("1", "Read the config file", TodoItem.Status.PENDING);
 * }</pre>
 *
 * @param id the item's id, unique within the list
 * @param text what to do
 * @param status how far it is
 */
public record TodoItem(String id, String text, Status status) {

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

	/**
	 * The status of a todo item, written in lower case in JSON: {@code pending},
	 * {@code in_progress}, {@code done}.
	 */
	public enum Status {

		/** Not started. */
		PENDING,

		/** Being worked on. */
		IN_PROGRESS,

		/** Finished. */
		DONE;

		/**
		 * The JSON form.
		 * @return the lower-case name
		 */
		public String json() {
			return name().toLowerCase(Locale.ROOT);
		}

		static @Nullable Status fromJson(@Nullable Object value) {
			if (value instanceof String text) {
				for (Status status : values()) {
					if (status.json().equals(text)) {
						return status;
					}
				}
			}
			return null;
		}

	}

}
