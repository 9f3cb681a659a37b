package dev.agentmiddleware.autoconfigure.mcp;

import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;

import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.internal.BearerTokenRequirements;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.ai.mcp.server.common.autoconfigure.McpServerJsonMapperAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.web.OAuth2ResourceServerWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class McpSecurityAutoConfigurationTests {

	private static final String WARNING = "The MCP endpoint /mcp authenticates nobody";

	// Not fetched at startup: Spring Security reads a JWK set when the first token
	// arrives
	private static final String JWK_SET_URI = "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:9/jwks";

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class,
				McpServerJsonMapperAutoConfiguration.class, AgentMcpServerAutoConfiguration.class,
				McpSecurityAutoConfiguration.class, ApprovalAutoConfiguration.class, ApprovalWebAutoConfiguration.class,
				McpApprovalAutoConfiguration.class, SecurityAutoConfiguration.class,
				ServletWebSecurityAutoConfiguration.class, OAuth2ResourceServerAutoConfiguration.class,
				OAuth2ResourceServerWebSecurityAutoConfiguration.class))
		.withPropertyValues("spring.ai.mcp.server.protocol=STREAMABLE");

	@Test
	void withoutAResourceServerTheEndpointStaysOpenAndStartupWarnsOnceNamingTheFix(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME);
			assertThat(output.getOut().lines().filter((line) -> line.contains(WARNING))).singleElement()
				.asString()
				.contains(" WARN ")
				.contains("spring-boot-starter-oauth2-resource-server")
				.contains("spring.security.oauth2.resourceserver.jwt.issuer-uri")
				.contains("agent.middleware.mcp.security.allow-anonymous=true");
		});
	}

	@Test
	void allowAnonymousSilencesTheWarning(CapturedOutput output) {
		this.contextRunner.withPropertyValues("agent.middleware.mcp.security.allow-anonymous=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain(WARNING);
		});
	}

	@Test
	void aConfiguredJwtDecoderSecuresTheEndpointBesideTheApprovalAndBootChains(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues(JWK_SET_URI,
					"agent.middleware.mcp.security.authorization-servers=https://login.example")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBeansOfType(SecurityFilterChain.class)).containsKeys(
						McpSecurityAutoConfiguration.FILTER_CHAIN_NAME, "approvalSecurityFilterChain",
						"jwtSecurityFilterChain");
				assertThat(output).doesNotContain(WARNING).doesNotContain("names no authorization server");
			});
	}

	@Test
	void withoutAnIssuerOrAuthorizationServersStartupSaysClientsCannotFindOne(CapturedOutput output) {
		this.contextRunner.withPropertyValues(JWK_SET_URI).run((context) -> {
			assertThat(context).hasBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME);
			assertThat(output).contains("names no authorization server")
				.contains("agent.middleware.mcp.security.authorization-servers");
		});
	}

	@Test
	void aPublicKeyWithoutAnIssuerWarnsNamingPropertiesThatKeepThePublicKey(CapturedOutput output,
			@TempDir Path directory) throws Exception {
		this.contextRunner.withPropertyValues(publicKeyLocation(directory)).run((context) -> {
			assertThat(context).hasNotFailed().hasBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME);
			assertThat(output.getOut().lines().filter((line) -> line.contains("names no authorization server")))
				.singleElement()
				.asString()
				.contains("clients that already hold one are not affected")
				.contains("agent.middleware.mcp.security.authorization-servers")
				.contains("agent.middleware.mcp.security.issuer")
				// Boot would replace the public key with the issuer's JWK set
				.doesNotContain("issuer-uri");
		});
	}

	@Test
	void aPublicKeyWithAnIssuerPublishesItAndRequiresItWithoutAWarning(CapturedOutput output, @TempDir Path directory)
			throws Exception {
		this.contextRunner
			.withPropertyValues(publicKeyLocation(directory),
					"agent.middleware.mcp.security.issuer=https://login.example.com")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME);
				assertThat(context.getBean(BearerTokenRequirements.class).issuer())
					.isEqualTo("https://login.example.com");
				assertThat(output).doesNotContain("names no authorization server").doesNotContain(WARNING);
			});
	}

	@Test
	void theIssuerUriIsTheIssuerTokensMustName() {
		this.contextRunner
			.withPropertyValues(JWK_SET_URI,
					"spring.security.oauth2.resourceserver.jwt.issuer-uri=https://login.example.com/realms/a")
			.run((context) -> assertThat(context.getBean(BearerTokenRequirements.class).issuer())
				.isEqualTo("https://login.example.com/realms/a"));
	}

	@Test
	void backsOffForTheApplicationsOwnChainOfTheSameName(CapturedOutput output) {
		this.contextRunner.withPropertyValues(JWK_SET_URI)
			.withUserConfiguration(OwnMcpChainConfiguration.class)
			.run((context) -> {
				assertThat(context.getBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME))
					.isSameAs(context.getBean(OwnMcpChainConfiguration.class).chain);
				assertThat(output).doesNotContain(WARNING);
			});
	}

	@Test
	void withoutTheResourceServerOnTheClasspathThePropertiesChangeNothingAndStartupWarns(CapturedOutput output) {
		this.contextRunner.withPropertyValues(JWK_SET_URI)
			.withClassLoader(new FilteredClassLoader("org.springframework.security.oauth2",
					"org.springframework.boot.security.oauth2"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME);
				assertThat(output).contains(WARNING);
			});
	}

	@Test
	void nothingForAStdioServer(CapturedOutput output) {
		this.contextRunner.withPropertyValues(JWK_SET_URI, "spring.ai.mcp.server.stdio=true").run((context) -> {
			assertThat(context).doesNotHaveBean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME);
			assertThat(output).doesNotContain(WARNING);
		});
	}

	private static String publicKeyLocation(Path directory) throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		String pem = "-----BEGIN PUBLIC KEY-----\n"
				+ Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPublic().getEncoded())
				+ "\n-----END PUBLIC KEY-----\n";
		Path key = Files.writeString(directory.resolve("public-key.pem"), pem);
		return "spring.security.oauth2.resourceserver.jwt.public-key-location=" + key.toUri();
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnMcpChainConfiguration {

		SecurityFilterChain chain;

		@Bean(McpSecurityAutoConfiguration.FILTER_CHAIN_NAME)
		SecurityFilterChain mcpSecurityFilterChain(HttpSecurity http) throws Exception {
			this.chain = http.securityMatcher("/mcp").authorizeHttpRequests((r) -> r.anyRequest().denyAll()).build();
			return this.chain;
		}

	}

}
