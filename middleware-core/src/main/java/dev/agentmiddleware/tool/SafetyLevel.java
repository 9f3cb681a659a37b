package dev.agentmiddleware.tool;

/**
 * How much harm a tool can do, used by approval policies.
 *
 * <p>A tool that declares no safety level counts as {@link #DANGEROUS}: the fail-safe default.
 */
public enum SafetyLevel {

	/** Reads data or computes; no side effects worth a human's attention. */
	SAFE,

	/** Changes state that can be restored (writes a file, updates a record). */
	MODERATE,

	/** Destroys data, spends money or reaches the outside world; needs a human's approval by default. */
	DANGEROUS

}
