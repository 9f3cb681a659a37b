/**
 * Human approval of dangerous tool calls:
 * {@link dev.agentmiddleware.approval.ApprovalMiddleware} asks an
 * {@link dev.agentmiddleware.approval.ApprovalProvider} before a tool its policy function
 * gives an {@link dev.agentmiddleware.approval.ApprovalPolicy} runs (by default
 * {@link dev.agentmiddleware.approval.ApprovalRules}), waits for a decision bound to that
 * call's exact arguments, and fails closed: a timeout, no provider or a failing provider
 * deny the call. Pending requests, session grants, recent denials and the audit trail
 * live in an {@link dev.agentmiddleware.approval.ApprovalStore}.
 */
@NullMarked
package dev.agentmiddleware.approval;

import org.jspecify.annotations.NullMarked;
