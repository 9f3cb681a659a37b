package dev.agentmiddleware.autoconfigure.approval.web;

import org.springframework.security.authentication.AuthenticationManager;

/**
 * How the approval chain authenticates bearer tokens, when
 * {@code agent.middleware.approval.web.token-authority} lets them approve
 * ({@link BearerTokenAuthentication}).
 *
 * @param authenticationManager authenticates a bearer token
 */
record ApprovalBearerTokens(AuthenticationManager authenticationManager) {

}
