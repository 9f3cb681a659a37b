package dev.agentmiddleware.todo;

/**
 * Bounds on a todo list.
 *
 * @param maxItems the most items a list may hold
 * @param maxTextLength the most characters of an item's text (and of its id)
 */
public record TodoLimits(int maxItems, int maxTextLength) {

	/** 100 items of at most 1000 characters. */
	public static final TodoLimits DEFAULTS = new TodoLimits(100, 1000);

	/**
	 * Validates the bounds.
	 */
	public TodoLimits {
		if (maxItems < 1 || maxTextLength < 1) {
			throw new IllegalArgumentException("Todo limits must be positive");
		}
	}

}
