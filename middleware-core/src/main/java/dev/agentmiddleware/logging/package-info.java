/**
 * Logging of tool calls: one structured line per call through SLF4J, with secrets
 * redacted and long values truncated.
 */
@NullMarked
package dev.agentmiddleware.logging;

import org.jspecify.annotations.NullMarked;
