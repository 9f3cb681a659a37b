/**
 * Human approval in the sample: the approver who may use the approval console and REST
 * API, and a security set-up that protects only those paths, so that the MCP endpoint and
 * Actuator work without a login.
 */
@NullMarked
package dev.agentmiddleware.sample.approval;

import org.jspecify.annotations.NullMarked;
