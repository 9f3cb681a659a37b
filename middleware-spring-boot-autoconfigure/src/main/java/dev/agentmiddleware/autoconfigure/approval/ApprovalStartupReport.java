package dev.agentmiddleware.autoconfigure.approval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Once every singleton exists: logs one line naming the tools that need a person's approval, one naming the
 * approval providers in use (first choice first), and warns when MCP elicitation lets the calling client's user
 * approve its own calls of them.
 */
final class ApprovalStartupReport implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalAutoConfiguration.class);

	private final ObjectProvider<AgentToolRegistry> registry;

	private final ApprovalRules rules;

	private final ApprovalMiddleware approvalMiddleware;

	private final ApprovalProperties properties;

	private final Supplier<List<ApprovalProvider>> providers;

	ApprovalStartupReport(ObjectProvider<AgentToolRegistry> registry, ApprovalRules rules,
			ApprovalMiddleware approvalMiddleware, ApprovalProperties properties,
			Supplier<List<ApprovalProvider>> providers) {
		this.registry = registry;
		this.rules = rules;
		this.approvalMiddleware = approvalMiddleware;
		this.properties = properties;
		this.providers = providers;
	}

	/**
	 * The tools that need a person's approval.
	 * @param registry the tools
	 * @param rules which of them need approval
	 * @return their names, sorted
	 */
	static List<String> gatedTools(AgentToolRegistry registry, ApprovalRules rules) {
		List<String> gated = new ArrayList<>();
		for (RegisteredTool tool : registry.tools()) {
			if (rules.requiresApproval(tool.descriptor())) {
				gated.add(tool.name());
			}
		}
		gated.sort(null);
		return gated;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<String> gated = gatedTools(this.registry.getObject(), this.rules);
		logger.info("Tools that need a human's approval (policy {}, timeout {}): {}",
				this.rules.mode().name().toLowerCase(Locale.ROOT),
				PolicyEndpointContributor.text(this.approvalMiddleware.timeout()),
				gated.isEmpty() ? "none" : String.join(", ", gated));
		List<String> active = this.providers.get().stream().map(ApprovalProvider::name).toList();
		logger.info("Approval providers, first that can handle a call asks: {}{}",
				active.isEmpty() ? "none (calls that need approval are denied)" : String.join(", ", active),
				active.contains(McpUrlElicitationApprovalProvider.NAME)
						? " (link: MCP clients with URL elicitation get a link to the request in the console)" : "");
		if (this.properties.getProviders().contains(McpElicitationApprovalProvider.NAME) && !gated.isEmpty()) {
			// Elicitation asks the client that made the call: whoever controls that client approves its own calls.
			logger.warn("Approval provider '{}' is listed in {}.providers: for calls over MCP, the calling MCP "
					+ "client's user decides whether these tools run: {}. Remove it from the list to have an "
					+ "approver of your own decide (callback or queue).", McpElicitationApprovalProvider.NAME,
					ApprovalProperties.PREFIX, String.join(", ", gated));
		}
	}

}
