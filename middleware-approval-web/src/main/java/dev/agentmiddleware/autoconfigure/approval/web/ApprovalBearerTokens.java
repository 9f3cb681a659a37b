package dev.agentmiddleware.autoconfigure.approval.web;

import org.springframework.security.authentication.AuthenticationManager;

/**
 * How the approval chain authenticates bearer tokens, when {@code web.token-authority}
 * lets them approve: the application's {@code JwtDecoder} and converter, then the
 * {@code BearerTokenRequirements} of the starter's chains. Not an
 * {@link AuthenticationManager} bean of its own, which Spring Security would take for the
 * application's.
 *
 * @param authenticationManager authenticates a bearer token
 */
record ApprovalBearerTokens(AuthenticationManager authenticationManager) {

}
