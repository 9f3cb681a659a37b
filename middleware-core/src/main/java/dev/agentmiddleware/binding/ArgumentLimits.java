package dev.agentmiddleware.binding;

/**
 * Bounds on the JSON arguments of one call, checked before anything is bound, so that an
 * oversized or pathologically nested payload costs next to nothing. <pre>{@code
 * ArgumentLimits limits = new ArgumentLimits(16_384, 16);
 * }</pre>
 *
 * @param maxPayloadChars the largest number of characters the JSON arguments may have
 * @param maxDepth the deepest nesting of objects and arrays allowed; the arguments object
 * itself is level 1, so {@code {"a":[1]}} is two levels deep
 */
public record ArgumentLimits(int maxPayloadChars, int maxDepth) {

	/** The default limits: 65,536 characters and 32 levels. */
	public static final ArgumentLimits DEFAULTS = new ArgumentLimits(65_536, 32);

	/**
	 * Validates the limits.
	 */
	public ArgumentLimits {
		if (maxPayloadChars <= 0) {
			throw new IllegalArgumentException("maxPayloadChars must be positive, but was " + maxPayloadChars);
		}
		if (maxDepth <= 0) {
			throw new IllegalArgumentException("maxDepth must be positive, but was " + maxDepth);
		}
	}

}
