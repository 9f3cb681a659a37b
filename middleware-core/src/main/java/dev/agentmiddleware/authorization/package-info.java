/**
 * Per-tool authorization: the authorities a tool requires of its caller, checked before
 * anyone is asked to approve the call
 * ({@link dev.agentmiddleware.authorization.AuthorizationMiddleware}).
 */
@NullMarked
package dev.agentmiddleware.authorization;

import org.jspecify.annotations.NullMarked;
