package dev.agentmiddleware.autoconfigure.mcp;

import java.net.URI;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.autoconfigure.approval.ApprovalAutoConfiguration;
import dev.agentmiddleware.autoconfigure.approval.ApprovalProperties;
import dev.agentmiddleware.autoconfigure.approval.ApprovalThreads;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The approval providers that ask over MCP: {@code mcp-elicitation}
 * ({@link McpElicitationApprovalProvider}, a form elicitation to the calling client's
 * user) and, where the approval console is served, {@code link}
 * ({@link McpUrlElicitationApprovalProvider}, a URL elicitation that takes the client's
 * user to the request in the console; with the approval web module). Whether they are
 * used, and in which order, is {@code agent.middleware.approval.providers}'s choice.
 */
@AutoConfiguration(after = ApprovalAutoConfiguration.class,
		afterName = "dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration")
@ConditionalOnClass(McpSyncServerExchange.class)
@ConditionalOnBean(ApprovalMiddleware.class)
public final class McpApprovalAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpElicitationApprovalProvider mcpElicitationApprovalProvider(ApprovalThreads approvalThreads) {
		return new McpElicitationApprovalProvider(approvalThreads.executor());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(value = DispatcherServlet.class,
			name = "dev.agentmiddleware.autoconfigure.approval.web.ApprovalController")
	@ConditionalOnBooleanProperty(name = ApprovalProperties.PREFIX + ".web.enabled", matchIfMissing = true)
	static class LinkConfiguration {

		@Bean
		@ConditionalOnMissingBean
		McpUrlElicitationApprovalProvider mcpUrlElicitationApprovalProvider(ApprovalThreads approvalThreads,
				ApprovalProperties properties, ObjectProvider<McpServerTransportProviderBase> transport) {
			String publicUrl = properties.getWeb().getPublicUrl();
			return new McpUrlElicitationApprovalProvider(approvalThreads.executor(), properties.getWeb().getPath(),
					(publicUrl != null) ? URI.create(publicUrl) : null, transport::getIfUnique);
		}

	}

}
