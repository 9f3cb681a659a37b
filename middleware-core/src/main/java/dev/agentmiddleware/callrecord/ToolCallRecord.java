package dev.agentmiddleware.callrecord;

import java.time.Duration;
import java.time.Instant;

import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.ToolInvocation;

import org.jspecify.annotations.Nullable;

/**
 * What happened in one tool call.
 *
 * @param invocation the call as it entered the chain
 * @param outcome how it ended
 * @param result the value returned, {@code null} on failure or for {@code void} tools
 * @param error the failure, {@code null} on success
 * @param startedAt when the call entered the chain
 * @param duration how long the whole chain took
 * @param decidedBy the middleware that decided the outcome (denied, cached, rate limited, short-circuited, failed
 * in a hook), or {@code null} when the tool itself ran and decided it
 */
public record ToolCallRecord(ToolInvocation invocation, CallOutcome outcome, @Nullable Object result,
		@Nullable Throwable error, Instant startedAt, Duration duration, @Nullable String decidedBy) {

}
