package dev.agentmiddleware.approval;

/**
 * Which tools need a human's approval before they run, by their safety level. {@link ApprovalRules} adds the
 * exempt and sensitive tool lists on top.
 */
public enum ApprovalPolicy {

	/** No tool needs approval, except the sensitive tools. */
	NONE,

	/** Tools whose safety level is {@code DANGEROUS} (or undeclared) need approval; the default. */
	DANGEROUS,

	/** Every tool needs approval, except the exempt tools. */
	ALL,

	/** Only the sensitive tools need approval. */
	CONFIGURED

}
