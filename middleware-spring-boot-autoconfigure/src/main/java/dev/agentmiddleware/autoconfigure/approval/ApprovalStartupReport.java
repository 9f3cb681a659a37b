package dev.agentmiddleware.autoconfigure.approval;

import java.util.List;
import java.util.Locale;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Once every singleton exists: logs one line naming the tools that need a person's
 * approval, one naming the approval providers in use (first choice first), and warns when
 * MCP elicitation lets the calling client's user approve its own calls of them.
 */
final class ApprovalStartupReport implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalAutoConfiguration.class);

	private final ApprovalRules rules;

	private final ApprovalMiddleware approvalMiddleware;

	private final ApprovalProperties properties;

	private final ApprovalProviders providers;

	ApprovalStartupReport(ApprovalRules rules, ApprovalMiddleware approvalMiddleware, ApprovalProperties properties,
			ApprovalProviders providers) {
		this.rules = rules;
		this.approvalMiddleware = approvalMiddleware;
		this.properties = properties;
		this.providers = providers;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<String> gated = this.providers.gatedTools();
		logger.info("Tools that need a human's approval (policy {}, timeout {}): {}",
				this.rules.mode().name().toLowerCase(Locale.ROOT),
				PolicyEndpointContributor.text(this.approvalMiddleware.timeout()),
				gated.isEmpty() ? "none" : String.join(", ", gated));
		List<String> active = this.providers.ordered().stream().map(ApprovalProvider::name).toList();
		logger.info("Approval providers, first that can handle a call asks: {}{}",
				active.isEmpty() ? "none (calls that need approval are denied)" : String.join(", ", active),
				active.contains(ApprovalProviders.LINK)
						? " (link: MCP clients with URL elicitation get a link to the request in the console)" : "");
		if (this.properties.getProviders().contains(ApprovalProviders.MCP_ELICITATION) && !gated.isEmpty()) {
			// Elicitation asks the client that made the call: whoever controls that
			// client approves its own calls.
			logger.warn(
					"Approval provider '{}' is listed in {}.providers: for calls over MCP, the calling MCP "
							+ "client's user decides whether these tools run: {}. Remove it from the list to have an "
							+ "approver of your own decide (callback or queue).",
					ApprovalProviders.MCP_ELICITATION, ApprovalProperties.PREFIX, String.join(", ", gated));
		}
	}

}
