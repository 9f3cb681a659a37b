package dev.agentmiddleware.redaction;

/** One span of text to replace, from {@code start} inclusive to {@code end} exclusive. */
record Redaction(int start, int end, String replacement) {
}
