package dev.agentmiddleware.autoconfigure.approval;

import java.util.ArrayList;
import java.util.List;

import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The approval providers this application uses, in the order of
 * {@code agent.middleware.approval.providers}, and the tools they are asked about: what
 * the modules that contribute providers or serve approvers (the approval web module, the
 * MCP server module) read at startup to say who can decide. <pre>{@code
 * approvalProviders.waitingForAPerson();   // ["queue"] when approvers decide in the console
 * approvalProviders.gatedTools();          // ["delete_file", "send_email"]
 * }</pre>
 */
public final class ApprovalProviders {

	/**
	 * The name of the provider that asks the calling MCP client's user (form
	 * elicitation).
	 */
	public static final String MCP_ELICITATION = "mcp-elicitation";

	/**
	 * The name of the provider that gives an MCP client a link to the request in the
	 * console (URL elicitation).
	 */
	public static final String LINK = "link";

	/**
	 * The name of the provider that asks the application's {@code ApprovalCallback} bean.
	 */
	public static final String CALLBACK = "callback";

	/**
	 * The name of the provider that queues the request for an approver (REST API and
	 * console).
	 */
	public static final String QUEUE = "queue";

	private final ObjectProvider<ApprovalProvider> providers;

	private final ApprovalProperties properties;

	private final ObjectProvider<AgentToolRegistry> registry;

	private final ApprovalRules rules;

	ApprovalProviders(ObjectProvider<ApprovalProvider> providers, ApprovalProperties properties,
			ObjectProvider<AgentToolRegistry> registry, ApprovalRules rules) {
		this.providers = providers;
		this.properties = properties;
		this.registry = registry;
		this.rules = rules;
	}

	/**
	 * The providers in use, first choice first.
	 * @return the providers
	 */
	public List<ApprovalProvider> ordered() {
		return ApprovalProviderOrder.ordered(this.providers.orderedStream().toList(), this.properties.getProviders());
	}

	/**
	 * The names of the providers in use whose requests wait for an approver to log in to
	 * the console or REST API.
	 * @return the names, first choice first
	 */
	public List<String> waitingForAPerson() {
		return ordered().stream()
			.map(ApprovalProvider::name)
			.filter(ApprovalProviderOrder.WAITING_FOR_A_PERSON::contains)
			.toList();
	}

	/**
	 * The tools that need a person's approval.
	 * @return their names, sorted
	 */
	public List<String> gatedTools() {
		List<String> gated = new ArrayList<>();
		for (RegisteredTool tool : this.registry.getObject().tools()) {
			if (this.rules.requiresApproval(tool.descriptor())) {
				gated.add(tool.name());
			}
		}
		gated.sort(null);
		return gated;
	}

}
