package dev.agentmiddleware.todo;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The status of a todo item, written in lower case in JSON: {@code pending}, {@code in_progress}, {@code done}.
 */
public enum TodoStatus {

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

	static @Nullable TodoStatus fromJson(@Nullable Object value) {
		if (value instanceof String text) {
			for (TodoStatus status : values()) {
				if (status.json().equals(text)) {
					return status;
				}
			}
		}
		return null;
	}

}
