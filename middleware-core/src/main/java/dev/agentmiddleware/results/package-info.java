/**
 * Guards on what a tool's result hands back to a model or an MCP client: secrets
 * redacted, personal data masked
 * ({@link dev.agentmiddleware.results.PersonalDataDetector}s), a size limit (cut with a
 * marker, or refused), and users' own
 * {@link dev.agentmiddleware.results.ToolResultGuard}s, run on the text or JSON form of
 * the result inside the chain, so that every caller (MCP, Spring AI, Java) gets the
 * guarded result and observers see a refusal.
 */
@NullMarked
package dev.agentmiddleware.results;

import org.jspecify.annotations.NullMarked;
