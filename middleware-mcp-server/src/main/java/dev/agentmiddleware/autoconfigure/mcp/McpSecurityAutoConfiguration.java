package dev.agentmiddleware.autoconfigure.mcp;

import java.util.List;

import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.ai.mcp.server.common.autoconfigure.McpServerAutoConfiguration;
import org.springframework.ai.mcp.server.common.autoconfigure.McpServerStdioDisabledCondition;
import org.springframework.ai.mcp.server.common.autoconfigure.properties.McpServerProperties;
import org.springframework.ai.mcp.server.common.autoconfigure.properties.McpServerStreamableHttpProperties;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationConverter;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Auto-configuration of who may call the MCP endpoint over HTTP. With Spring Security's
 * OAuth2 resource server on the classpath
 * ({@code spring-boot-starter-oauth2-resource-server}) and a {@link JwtDecoder} (which
 * Spring Boot creates from {@code spring.security.oauth2.resourceserver.jwt.issuer-uri},
 * {@code jwk-set-uri} or {@code public-key-location}), the endpoint becomes an OAuth 2.1
 * resource server as the MCP specification defines it: a filter chain named
 * {@code mcpSecurityFilterChain} requires a bearer token whose audience names this
 * resource and that meets the {@link BearerTokenRequirements} (an expiry, a subject, and
 * the issuer when one is known: {@code agent.middleware.mcp.security.issuer}, else Boot's
 * {@code issuer-uri}), and publishes the protected-resource metadata
 * ({@code agent.middleware.mcp.security.*}). Define a {@link SecurityFilterChain} bean of
 * that name to replace it.
 * <p>
 * Without it, the endpoint stays open to every client that reaches it, and startup says
 * so in one WARN naming the fix, unless
 * {@code agent.middleware.mcp.security.allow-anonymous=true} declares that intended.
 * <pre>{@code
 * spring:
 *   security:
 *     oauth2:
 *       resourceserver:
 *         jwt:
 *           issuer-uri: https://login.example.com/realms/agents
 * agent:
 *   middleware:
 *     mcp:
 *       security:
 *         resource: https://mcp.example.com/mcp
 * }</pre>
 */
@AutoConfiguration(after = AgentMcpServerAutoConfiguration.class, afterName = {
		"org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerAutoConfiguration",
		"org.springframework.boot.security.oauth2.server.resource.autoconfigure.web.OAuth2ResourceServerWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
@ConditionalOnClass({ McpSchema.class, McpServerAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = McpServerProperties.CONFIG_PREFIX, name = "enabled", havingValue = "true",
		matchIfMissing = true)
@Conditional({ McpServerStdioDisabledCondition.class,
		McpServerAutoConfiguration.EnabledStreamableServerCondition.class })
@EnableConfigurationProperties({ McpProperties.class, McpServerStreamableHttpProperties.class })
public final class McpSecurityAutoConfiguration {

	/**
	 * The name of the filter chain that secures the MCP endpoint; a bean of this name
	 * replaces ours.
	 */
	public static final String FILTER_CHAIN_NAME = "mcpSecurityFilterChain";

	private static final Logger logger = LoggerFactory.getLogger(McpSecurityAutoConfiguration.class);

	@Bean
	static SmartInitializingSingleton agentMcpAnonymousEndpointWarning(ObjectProvider<ListableBeanFactory> beanFactory,
			ObjectProvider<McpProperties> properties, ObjectProvider<McpServerStreamableHttpProperties> streamable) {
		return () -> {
			if (!beanFactory.getObject().containsBean(FILTER_CHAIN_NAME)
					&& !properties.getObject().getSecurity().isAllowAnonymous()) {
				logger
					.warn("The MCP endpoint {} authenticates nobody: every client that reaches it may call the tools. "
							+ "Add spring-boot-starter-oauth2-resource-server and set "
							+ "spring.security.oauth2.resourceserver.jwt.issuer-uri (or jwk-set-uri) to require bearer "
							+ "tokens (or name your own SecurityFilterChain for it '{}'), or set "
							+ "{}.security.allow-anonymous=true if this is intended",
							streamable.getObject().getMcpEndpoint(), FILTER_CHAIN_NAME, McpProperties.PREFIX);
			}
		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ JwtDecoder.class, BearerTokenAuthenticationEntryPoint.class, HttpSecurity.class,
			SecurityFilterChain.class, OAuth2ResourceServerProperties.class })
	@ConditionalOnBean({ JwtDecoder.class, HttpSecurity.class })
	@EnableConfigurationProperties(OAuth2ResourceServerProperties.class)
	static class ResourceServerConfiguration {

		@Bean
		@ConditionalOnMissingBean
		BearerTokenRequirements bearerTokenRequirements(McpProperties properties,
				OAuth2ResourceServerProperties resourceServer) {
			String issuer = properties.getSecurity().getIssuer();
			OAuth2ResourceServerProperties.Jwt jwt = resourceServer.getJwt();
			return BearerTokenRequirements.of((issuer != null) ? issuer : jwt.getIssuerUri(),
					jwt.getPrincipalClaimName());
		}

		@Bean(FILTER_CHAIN_NAME)
		@Order(McpResourceServerSecurity.ORDER)
		@ConditionalOnMissingBean(name = FILTER_CHAIN_NAME)
		SecurityFilterChain mcpSecurityFilterChain(HttpSecurity http, JwtDecoder decoder,
				ObjectProvider<JwtAuthenticationConverter> converter, BearerTokenRequirements requirements,
				McpProperties properties, McpServerStreamableHttpProperties streamable,
				OAuth2ResourceServerProperties resourceServer) throws Exception {
			McpProperties.Security security = properties.getSecurity();
			OAuth2ResourceServerProperties.Jwt jwt = resourceServer.getJwt();
			List<String> authorizationServers = security.getAuthorizationServers();
			if (authorizationServers.isEmpty() && requirements.issuer() != null) {
				authorizationServers = List.of(requirements.issuer());
			}
			McpProtectedResourceMetadata metadata = new McpProtectedResourceMetadata(security.getResource(),
					streamable.getMcpEndpoint(), authorizationServers, security.getScopes());
			if (!metadata.publishesAuthorizationServers()) {
				logger.warn("The MCP endpoint's protected-resource metadata names no authorization server, so MCP "
						+ "clients that discover authorization (MCP Inspector, the TypeScript SDK's authProvider) "
						+ "cannot find where to get a token; clients that already hold one are not affected. To "
						+ "publish it, set {}", whereToNameTheIssuer(jwt));
			}
			return McpResourceServerSecurity.filterChain(http, streamable.getMcpEndpoint(), decoder,
					converter.getIfAvailable(JwtAuthenticationConverter::new), requirements, metadata,
					jwt.getAudiences());
		}

		// Boot's issuer-uri replaces a public key with the issuer's JWK set, so it is no
		// advice for a public key
		private static String whereToNameTheIssuer(OAuth2ResourceServerProperties.Jwt jwt) {
			String servers = McpProperties.PREFIX + ".security.authorization-servers";
			if (jwt.getJwkSetUri() != null) {
				return servers + ", or spring.security.oauth2.resourceserver.jwt.issuer-uri (which Spring Boot's "
						+ "decoder then also checks in every token's iss)";
			}
			if (jwt.getPublicKeyLocation() != null) {
				return servers + ", or " + McpProperties.PREFIX + ".security.issuer (which this endpoint then also "
						+ "checks in every token's iss; Spring Boot checks no issuer with a public-key-location)";
			}
			return servers;
		}

	}

}
