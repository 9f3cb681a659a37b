/**
 * The test kit: test your tools and middleware with the real chain, as Spring Boot's
 * {@code *-test} modules let you test an application with the real framework.
 * <ul>
 * <li>{@link dev.agentmiddleware.test.ToolHarness}: one tool behind its real pipeline,
 * either a chosen list of middleware around an {@code ExecutableTool}, or the built-ins
 * the Boot module configures around an {@code @AgentTool} bean; call it with JSON or a
 * map, get the result or the failure and the call's record;</li>
 * <li>{@link dev.agentmiddleware.test.RecordingToolCallObserver}: every call's record
 * (tool, arguments, outcome, result or failure, deciding middleware), there as soon as
 * the call returns;</li>
 * <li>{@link dev.agentmiddleware.test.AutoApprovalCallback}: an {@code ApprovalCallback}
 * that approves or denies by rule, at once, and remembers what it was asked.</li>
 * </ul>
 */
@NullMarked
package dev.agentmiddleware.test;

import org.jspecify.annotations.NullMarked;
