package dev.agentmiddleware.tool;

/**
 * How much harm a tool can do, as the tool declares it ({@link ToolDescriptor#safety()},
 * {@code @AgentTool(safety = ...)}). It is part of the tool's description, shown by the actuator endpoint; a policy
 * middleware (an approval step, an allow list) can decide by it, through the descriptor it gets when its pipeline is
 * built.
 *
 * <p>A tool that declares no safety level counts as {@link #DANGEROUS}: the fail-safe default.
 */
public enum SafetyLevel {

	/** Reads data or computes; no side effects worth a human's attention. */
	SAFE,

	/** Changes state that can be restored (writes a file, updates a record). */
	MODERATE,

	/** Destroys data, spends money or reaches the outside world. */
	DANGEROUS

}
