/**
 * Crash recovery for tools that drive a session (a browser, a shell, a remote
 * connection): {@link dev.agentmiddleware.recovery.CrashRecoveryMiddleware} resets the
 * crashed session through a {@link dev.agentmiddleware.recovery.ToolSessionReset} and
 * retries the call once.
 */
@NullMarked
package dev.agentmiddleware.recovery;

import org.jspecify.annotations.NullMarked;
