package dev.agentmiddleware.autoconfigure.approval.web;

import org.springframework.security.authentication.AuthenticationManager;

/**
 * How the audit chain authenticates bearer tokens, when
 * {@code agent.middleware.audit.web.token-authority} lets them read the audit trail
 * ({@link BearerTokenAuthentication}).
 *
 * @param authenticationManager authenticates a bearer token
 */
record AuditBearerTokens(AuthenticationManager authenticationManager) {

}
